package dev.finch.vm.runtime;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.VmCode;

/** Traps raised from generated code's cold paths. */
public final class Traps {
    private Traps() { }

    public static RuntimeException tooDeep(Ctx ctx, String word, Origin origin) {
        return new FinchTrap(VmCode.DEPTH_LIMIT, origin, "calls nested deeper than " + ctx.maxDepth + " (in '" + word + "'): runaway recursion?");
    }

    public static RuntimeException badFrame(Frame f) {
        return new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "a saved frame of '" + f.word() + "' names no resume point " + f.point());
    }
}
