package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.limit.CompileBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The blocks of the IR, walked without recursion. {@link #checkNesting} runs before anything else looks at a module:
 * it refuses blocks nested deeper than the compile limit ({@code E-LIMIT-012}, phase verify), so every later pass —
 * the body checker, the rewriters, effect inference, and the VM's compiler, which recurse once per level — recurses at
 * most {@code maxNesting} levels, whatever a frontend (or a hand-built module) hands over.
 */
final class Blocks {
    private Blocks() { }

    /** The blocks directly inside {@code i}, in order (a closure's body included); null parts are skipped. */
    static List<Block> children(Instr i) {
        if (isLeaf(i.kind())) return List.of();
        List<Block> out = new ArrayList<>(2);
        boolean handled = switch (i.kind()) {
            case IF -> { add(out, ((Instr.If) i).then()); add(out, ((Instr.If) i).otherwise()); yield true; }
            case IF_SOME -> { add(out, ((Instr.IfSome) i).some()); add(out, ((Instr.IfSome) i).none()); yield true; }
            case IF_OK -> { add(out, ((Instr.IfOk) i).ok()); add(out, ((Instr.IfOk) i).err()); yield true; }
            case LOOP -> { add(out, ((Instr.Loop) i).test()); add(out, ((Instr.Loop) i).body()); yield true; }
            case UNTIL -> { add(out, ((Instr.Until) i).body()); yield true; }
            case CASE -> {
                Instr.Case c = (Instr.Case) i;
                if (c.arms() != null) for (Instr.Case.Arm a : c.arms()) if (a != null) add(out, a.body());
                if (c.otherwise() != null) c.otherwise().ifPresent(o -> add(out, o));
                yield true;
            }
            case LIST -> { add(out, ((Instr.ListLit) i).elements()); yield true; }
            case MAP -> { add(out, ((Instr.MapLit) i).entries()); yield true; }
            case RECORD -> {
                List<Instr.RecordLit.Field> fields = ((Instr.RecordLit) i).fields();
                if (fields != null) for (Instr.RecordLit.Field f : fields) if (f != null) add(out, f.value());
                yield true;
            }
            case CLOSURE -> { add(out, ((Instr.Closure) i).body()); yield true; }
            case PUSH, CALL, QUOTE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true; // hold no block
        };
        return out;
    }

    /** The instructions that hold no block (most of every program). */
    private static boolean isLeaf(Instr.Kind k) {
        return switch (k) {
            case PUSH, CALL, QUOTE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true;
            case IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, CLOSURE -> false;
        };
    }

    private static void add(List<Block> out, Block b) { if (b != null && b.instrs() != null) out.add(b); }

    /** Every instruction inside {@code b}, nested blocks (closure bodies too) included, in no particular order. */
    static void forEachInstr(Block b, Consumer<Instr> f) {
        if (b == null || b.instrs() == null) return;
        Deque<Block> work = new ArrayDeque<>();
        work.push(b);
        while (!work.isEmpty()) {
            for (Instr i : work.pop().instrs()) {
                if (i == null) continue;
                f.accept(i);
                for (Block c : children(i)) work.push(c);
            }
        }
    }

    /**
     * Refuses a body whose blocks nest deeper than {@code budget}'s {@code maxNesting}, and charges one unit of work
     * per instruction (so even a module that is never checked further has paid for being read).
     */
    static void checkNesting(Module module, CompileBudget budget) {
        int max = budget.limits().maxNesting();
        List<Block> bodies = new ArrayList<>();
        if (module.main() != null) bodies.add(module.main());
        if (module.words() != null) for (WordDef w : module.words()) if (w != null && w.body() != null) bodies.add(w.body());
        record Open(Block block, int depth) { }
        Deque<Open> work = new ArrayDeque<>();
        for (Block body : bodies) {
            if (body.instrs() == null) continue;
            work.push(new Open(body, 0));
            while (!work.isEmpty()) {
                Open o = work.pop();
                budget.charge(Phase.VERIFY, o.block().instrs().size() + 1L, Origin.UNKNOWN);
                for (Instr i : o.block().instrs()) {
                    if (i == null) continue;
                    List<Block> inner = children(i);
                    if (inner.isEmpty()) continue;
                    int depth = o.depth() + 1;
                    if (depth > max) budget.nesting(Phase.VERIFY, depth, i.origin() == null ? Origin.UNKNOWN : i.origin());
                    for (Block c : inner) work.push(new Open(c, depth));
                }
            }
        }
    }
}
