package dev.finch.forth;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.print.CoForthPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Test helpers over IR: an indented text dump (for golden files) and origin erasure (for equality). */
final class Ir {
    private Ir() { }

    /** An empty session over Finch's real vocabulary (the frontend reads which words take parameters from it). */
    static final dev.finch.ir.checked.Environment ENV = dev.finch.ir.checked.Environment.of(dev.finch.vm.engine.Vm.vocabulary());

    /** One line per node, children indented, origins as {@code @line:column}. */
    static String dump(Module m) {
        StringBuilder b = new StringBuilder("module ").append(m.language()).append(' ').append(m.source()).append('\n');
        for (WordDef w : m.words()) {
            b.append("word ").append(w.name()).append(w.declared().map(f -> " (" + f + ")").orElse("")).append(at(w.origin())).append('\n');
            block(b, w.body(), 1);
        }
        b.append("main\n");
        block(b, m.main(), 1);
        return b.toString();
    }

    private static void block(StringBuilder b, Block block, int depth) {
        for (Instr i : block.instrs()) instr(b, i, depth);
    }

    private static void line(StringBuilder b, int depth, String text) { b.append("  ".repeat(depth)).append(text).append('\n'); }

    private static void part(StringBuilder b, int depth, String label, Block block) {
        line(b, depth, label);
        block(b, block, depth + 1);
    }

    private static void instr(StringBuilder b, Instr i, int depth) {
        String at = at(i.origin());
        boolean handled = switch (i.kind()) {
            case PUSH -> {
                Literal l = ((Instr.Push) i).literal();
                line(b, depth, "push " + l.getClass().getSimpleName() + " " + CoForthPrinter.literal(l) + at);
                yield true;
            }
            case CALL -> {
                Instr.Call c = (Instr.Call) i;
                line(b, depth, "call " + c.word() + (c.immediates().isEmpty() ? "" : " " + c.immediates()) + at);
                yield true;
            }
            case IF -> { line(b, depth, "if" + at); part(b, depth + 1, "then", ((Instr.If) i).then()); part(b, depth + 1, "else", ((Instr.If) i).otherwise()); yield true; }
            case IF_SOME -> { line(b, depth, "if-some" + at); part(b, depth + 1, "some", ((Instr.IfSome) i).some()); part(b, depth + 1, "none", ((Instr.IfSome) i).none()); yield true; }
            case IF_OK -> { line(b, depth, "if-ok" + at); part(b, depth + 1, "ok", ((Instr.IfOk) i).ok()); part(b, depth + 1, "err", ((Instr.IfOk) i).err()); yield true; }
            case LOOP -> { line(b, depth, "loop" + at); part(b, depth + 1, "test", ((Instr.Loop) i).test()); part(b, depth + 1, "body", ((Instr.Loop) i).body()); yield true; }
            case UNTIL -> { line(b, depth, "until" + at); part(b, depth + 1, "body", ((Instr.Until) i).body()); yield true; }
            case CASE -> {
                Instr.Case c = (Instr.Case) i;
                line(b, depth, "case" + at);
                for (Instr.Case.Arm a : c.arms()) part(b, depth + 1, "arm " + a.value() + at(a.origin()), a.body());
                c.otherwise().ifPresent(o -> part(b, depth + 1, "otherwise", o));
                yield true;
            }
            case LIST -> { line(b, depth, "list" + at); block(b, ((Instr.ListLit) i).elements(), depth + 1); yield true; }
            case MAP -> { line(b, depth, "map" + at); block(b, ((Instr.MapLit) i).entries(), depth + 1); yield true; }
            case RECORD -> {
                line(b, depth, "record" + at);
                for (Instr.RecordLit.Field f : ((Instr.RecordLit) i).fields()) part(b, depth + 1, "field " + f.name() + at(f.origin()), f.value());
                yield true;
            }
            case QUOTE -> { line(b, depth, "quote " + ((Instr.Quote) i).word() + at); yield true; }
            case CLOSURE -> { line(b, depth, "closure (" + ((Instr.Closure) i).type() + ")" + at); block(b, ((Instr.Closure) i).body(), depth + 1); yield true; }
            case LOCAL_STORE -> { line(b, depth, "store " + ((Instr.LocalStore) i).name() + at); yield true; }
            case LOCAL_LOAD -> { line(b, depth, "load " + ((Instr.LocalLoad) i).name() + at); yield true; }
            case PROPAGATE -> { line(b, depth, "propagate" + at); yield true; }
            case CONSTANT -> {
                Instr.Constant c = (Instr.Constant) i;
                line(b, depth, "constant " + c.name() + c.declared().map(t -> " : " + t).orElse("") + at);
                yield true;
            }
        };
    }

    private static String at(Origin o) { return " @" + o.line() + ":" + o.column(); }

    // ------------------------------------------------------------------------------------------------ erasure

    static Module erase(Module m) {
        List<WordDef> words = new ArrayList<>();
        for (WordDef w : m.words()) words.add(new WordDef(w.name(), w.declared(), erase(w.body()), Origin.UNKNOWN));
        return new Module("src", m.language(), words, erase(m.main()));
    }

    static Block erase(Block b) {
        List<Instr> out = new ArrayList<>();
        for (Instr i : b.instrs()) out.add(erase(i));
        return new Block(out);
    }

    static Instr erase(Instr i) {
        Origin u = Origin.UNKNOWN;
        return switch (i.kind()) {
            case PUSH -> new Instr.Push(((Instr.Push) i).literal(), u);
            case CALL -> new Instr.Call(((Instr.Call) i).word(), ((Instr.Call) i).immediates(), u);
            case IF -> new Instr.If(erase(((Instr.If) i).then()), erase(((Instr.If) i).otherwise()), u);
            case IF_SOME -> new Instr.IfSome(erase(((Instr.IfSome) i).some()), erase(((Instr.IfSome) i).none()), u);
            case IF_OK -> new Instr.IfOk(erase(((Instr.IfOk) i).ok()), erase(((Instr.IfOk) i).err()), u);
            case LOOP -> new Instr.Loop(erase(((Instr.Loop) i).test()), erase(((Instr.Loop) i).body()), u);
            case UNTIL -> new Instr.Until(erase(((Instr.Until) i).body()), u);
            case CASE -> {
                Instr.Case c = (Instr.Case) i;
                List<Instr.Case.Arm> arms = new ArrayList<>();
                for (Instr.Case.Arm a : c.arms()) arms.add(new Instr.Case.Arm(a.value(), erase(a.body()), u));
                Optional<Block> o = c.otherwise().map(Ir::erase);
                yield new Instr.Case(arms, o, u);
            }
            case LIST -> new Instr.ListLit(erase(((Instr.ListLit) i).elements()), u);
            case MAP -> new Instr.MapLit(erase(((Instr.MapLit) i).entries()), u);
            case RECORD -> {
                List<Instr.RecordLit.Field> fields = new ArrayList<>();
                for (Instr.RecordLit.Field f : ((Instr.RecordLit) i).fields()) fields.add(new Instr.RecordLit.Field(f.name(), erase(f.value()), u));
                yield new Instr.RecordLit(fields, u);
            }
            case QUOTE -> new Instr.Quote(((Instr.Quote) i).word(), u);
            case CLOSURE -> new Instr.Closure(((Instr.Closure) i).type(), erase(((Instr.Closure) i).body()), u);
            case LOCAL_STORE -> new Instr.LocalStore(((Instr.LocalStore) i).name(), u);
            case LOCAL_LOAD -> new Instr.LocalLoad(((Instr.LocalLoad) i).name(), u);
            case PROPAGATE -> new Instr.Propagate(u);
            case CONSTANT -> new Instr.Constant(((Instr.Constant) i).name(), ((Instr.Constant) i).declared(), u);
        };
    }
}
