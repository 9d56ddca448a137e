package dev.finch.norman.providers;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Askable;
import dev.finch.norman.SiteKey;
import dev.finch.norman.harness.Validate;
import dev.finch.vm.VmCode;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.nio.charset.StandardCharsets;

/**
 * How a real tool's text becomes a call's {@code result}, as under a script: the call's key ({@link SiteKey}) carries
 * the grant's declared result type, so a declared Text is taken verbatim (only its bound is checked) and any other
 * type reads the text as JSON and is validated ({@code Invalid} with the raw text).
 */
final class ToolResults {
    private ToolResults() { }

    /** The call's result for the tool's text {@code text}, typed by the declaration its {@code key} spells. */
    static Object typed(String grant, String op, String key, String text, Origin origin) {
        Askable type = SiteKey.parse(key).map(SiteKey::type)
                .orElseThrow(() -> new FinchTrap(VmCode.PROGRAM_ERROR, origin, "the call of `" + grant + "` " + op + " carries no result type"));
        if (type instanceof Askable.Text x) {
            long bytes = text.getBytes(StandardCharsets.UTF_8).length;
            return x.maxBytes().isPresent() && bytes > x.maxBytes().getAsLong() ? failure("Invalid", text) : ResultValue.ok(text);
        }
        Validate.Validated v = Validate.validate(text, type);
        return v.ok() ? ResultValue.ok(v.value().get()) : failure("Invalid", text);
    }

    /** {@code (ToolError message)}. */
    static ResultValue toolError(String message) { return failure("ToolError", message); }

    static ResultValue failure(String tag, String text) {
        return ResultValue.err(new VariantValue(tag, text == null ? Unit.INSTANCE : new RecordValue(new Object[] {text})));
    }

    /** A short, single-line form of a failure's detail for a ToolError message. */
    static String brief(String s, int max) {
        String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
        return t.length() <= max ? t : t.substring(0, max) + "…";
    }
}
