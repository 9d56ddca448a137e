package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Instr;

/**
 * Which threaded words compile as twins ({@link ModuleCompiler#twinned}): two copies of the same body, each one's
 * calls of the word itself going to the other. HotSpot's C2 inlines a method into itself one level deep
 * ({@code MaxRecursiveInlineLevel}), so a self-recursive word runs two levels of its recursion per JVM call; a pair
 * of methods that call each other inlines two levels of each, four in all, which halves the calls a recursion makes
 * (fib(27) as a word: 1.45–1.6× → 1.2–1.25× handwritten Java, CPU time). A twin is worth its size only when C2 would inline it at all, so only
 * small bodies qualify, and only those without closure literals or execution tokens (each copy would generate its
 * own adapters for them).
 */
final class Twins {
    private Twins() { }

    /**
     * Above this many IR nodes a body is not twinned: C2 inlines a hot callee only up to 325 bytes of bytecode
     * ({@code FreqInlineSize}); fib's body, 13 nodes, compiles to 197 bytes.
     */
    static final int MAX_NODES = 32;

    /** Whether threaded word {@code w} calls itself directly and is small and plain enough to twin. */
    static boolean eligible(CheckedWord w) {
        return ModuleCompiler.Loops.size(w.body()) <= MAX_NODES && plain(w.body()) && callsItself(w.body(), w.name());
    }

    private static boolean plain(CheckedBlock b) {
        for (Node n : b.nodes()) {
            if (n.kind() == Instr.Kind.CLOSURE || n.kind() == Instr.Kind.QUOTE) return false;
            for (CheckedBlock inner : Checked.children(n)) if (!plain(inner)) return false;
        }
        return true;
    }

    private static boolean callsItself(CheckedBlock b, String name) {
        for (Node n : b.nodes()) {
            if (n.kind() == Instr.Kind.CALL) {
                Checked.CallNode c = (Checked.CallNode) n;
                if (c.target().kind() == Checked.Target.Kind.WORD && c.target().name().equals(name)) return true;
            }
            for (CheckedBlock inner : Checked.children(n)) if (callsItself(inner, name)) return true;
        }
        return false;
    }
}
