package dev.finch.vm.runtime;

import dev.finch.vm.value.Frame;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.VmCode;

/** Traps raised from generated code's cold paths. */
public final class Traps {
    private Traps() { }

    public static RuntimeException tooDeep(Ctx ctx, String word, Origin origin) {
        return new FinchTrap(VmCode.DEPTH_LIMIT, origin, "calls nested deeper than " + ctx.maxDepth + " (in '" + word + "'): runaway recursion?");
    }

    /**
     * {@code t} placed at {@code origin} when it is a memory-limit refusal made where no origin was known (by a value
     * being built, or text being written, on the word's behalf): the word's call site is where it happened.
     */
    public static FinchTrap at(FinchTrap t, String word, Origin origin) {
        if (t.code() != VmCode.MEMORY_LIMIT || !t.diagnostic().origin().equals(Origin.UNKNOWN)) return t;
        return new FinchTrap(VmCode.MEMORY_LIMIT, origin, word + ": " + t.getMessage());
    }

    public static RuntimeException badFrame(Frame f) {
        return new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "a saved frame of '" + f.word() + "' names no resume point " + f.point());
    }
}
