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

    /**
     * The blocks directly inside {@code i}, in order (a closure's body included); null parts are skipped. An
     * instruction that holds none (most of every program) answers the shared empty list.
     */
    static List<Block> children(Instr i) {
        return switch (i.kind()) {
            case IF -> of(((Instr.If) i).then(), ((Instr.If) i).otherwise());
            case IF_SOME -> of(((Instr.IfSome) i).some(), ((Instr.IfSome) i).none());
            case IF_OK -> of(((Instr.IfOk) i).ok(), ((Instr.IfOk) i).err());
            case LOOP -> of(((Instr.Loop) i).test(), ((Instr.Loop) i).body());
            case UNTIL -> of(((Instr.Until) i).body(), null);
            case CASE -> {
                Instr.Case c = (Instr.Case) i;
                List<Block> out = new ArrayList<>();
                if (c.arms() != null) for (Instr.Case.Arm a : c.arms()) if (a != null) add(out, a.body());
                if (c.otherwise() != null && c.otherwise().isPresent()) add(out, c.otherwise().get());
                yield out;
            }
            case LIST -> of(((Instr.ListLit) i).elements(), null);
            case MAP -> of(((Instr.MapLit) i).entries(), null);
            case RECORD -> {
                List<Block> out = new ArrayList<>();
                List<Instr.RecordLit.Field> fields = ((Instr.RecordLit) i).fields();
                if (fields != null) for (Instr.RecordLit.Field f : fields) if (f != null) add(out, f.value());
                yield out;
            }
            case CLOSURE -> of(((Instr.Closure) i).body(), null);
            case PUSH, CALL, QUOTE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> List.of(); // hold no block
        };
    }

    /** The present ones of {@code a} and {@code b}, in order. */
    private static List<Block> of(Block a, Block b) {
        List<Block> out = new ArrayList<>(2);
        add(out, a);
        add(out, b);
        return out;
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
