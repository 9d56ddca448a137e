package dev.finch.norman.providers;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.VariantValue;

/** Reading a tool call's result in the tool tests. */
final class ToolTesting {
    private ToolTesting() { }

    static final Origin O = Origin.UNKNOWN;

    /** The key of a call whose declared result is Text (what an open grant's calls carry). */
    static final String TEXT = dev.finch.norman.SiteKey.call(dev.finch.norman.Askable.text()).spell();

    /** The ok value, or an AssertionError naming the failure. */
    static Object ok(Object r) {
        ResultValue v = (ResultValue) r;
        if (!v.isOk()) throw new AssertionError("expected ok, got " + describe(v));
        return v.value();
    }

    /** The failure's tag and message, as {@code "ToolError: …"}. */
    static String failure(Object r) {
        ResultValue v = (ResultValue) r;
        if (v.isOk()) throw new AssertionError("expected a failure, got ok " + v.value());
        return describe(v);
    }

    private static String describe(ResultValue v) {
        VariantValue f = (VariantValue) v.value();
        return f.tag() + (f.payload() instanceof RecordValue rec ? ": " + rec.get(0) : "");
    }
}
