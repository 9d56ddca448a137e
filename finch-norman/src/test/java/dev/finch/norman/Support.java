package dev.finch.norman;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Shared helpers for the µNorman tests. */
final class Support {
    private Support() { }

    static NormanProgram check(String text) { return new Norman(SourceLoader.inMemory(Map.of())).check(text, "t.nm"); }

    static Lowering lower(String text) { return new Norman(SourceLoader.inMemory(Map.of())).lower(text, "t.nm", dev.finch.ir.checked.Environment.of(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary())); }

    static String resource(String name) {
        try (InputStream in = Support.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Every instruction of a block, nested blocks included, in order. */
    static List<Instr> flatten(Block b) {
        List<Instr> out = new ArrayList<>();
        for (Instr i : b.instrs()) {
            out.add(i);
            switch (i.kind()) {
                case IF: out.addAll(flatten(((Instr.If) i).then())); out.addAll(flatten(((Instr.If) i).otherwise())); break;
                case IF_SOME: out.addAll(flatten(((Instr.IfSome) i).some())); out.addAll(flatten(((Instr.IfSome) i).none())); break;
                case IF_OK: out.addAll(flatten(((Instr.IfOk) i).ok())); out.addAll(flatten(((Instr.IfOk) i).err())); break;
                case LIST: out.addAll(flatten(((Instr.ListLit) i).elements())); break;
                case RECORD: for (Instr.RecordLit.Field f : ((Instr.RecordLit) i).fields()) out.addAll(flatten(f.value())); break;
                case CLOSURE: out.addAll(flatten(((Instr.Closure) i).body())); break;
                default: break;
            }
        }
        return out;
    }

    /** The words called anywhere in a block. */
    static List<String> calls(Block b) {
        return flatten(b).stream().filter(i -> i instanceof Instr.Call).map(i -> ((Instr.Call) i).word()).toList();
    }
}
