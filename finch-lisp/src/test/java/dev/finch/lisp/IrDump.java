package dev.finch.lisp;

import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;

/** A compact, Forth-like spelling of lowered IR for assertions in tests (not the canonical printer). */
final class IrDump {
    private IrDump() { }

    static String module(Module m) {
        StringBuilder b = new StringBuilder();
        for (WordDef w : m.words()) {
            b.append(": ").append(w.name()).append(" ( ").append(w.declared().map(Object::toString).orElse("?")).append(" ) ")
                    .append(block(w.body())).append(" ;\n");
        }
        return b.append(block(m.main())).toString().strip();
    }

    static String block(Block bl) {
        StringBuilder b = new StringBuilder();
        for (Instr i : bl.instrs()) {
            if (b.length() > 0) b.append(' ');
            b.append(instr(i));
        }
        return b.toString();
    }

    static String instr(Instr i) {
        switch (i.kind()) {
            case PUSH: {
                Literal l = ((Instr.Push) i).literal();
                if (l instanceof Literal.IntLit x) return Long.toString(x.value());
                if (l instanceof Literal.FloatLit x) return Double.toString(x.value());
                if (l instanceof Literal.StringLit x) return '"' + x.value() + '"';
                if (l instanceof Literal.BoolLit x) return Boolean.toString(x.value());
                if (l instanceof Literal.SymbolLit x) return "'" + x.name();
                return "unit";
            }
            case CALL: {
                Instr.Call c = (Instr.Call) i;
                return c.immediates().isEmpty() ? c.word() : c.word() + c.immediates();
            }
            case IF: return "if " + block(((Instr.If) i).then()) + " else " + block(((Instr.If) i).otherwise()) + " then";
            case IF_SOME: return "if-some " + block(((Instr.IfSome) i).some()) + " else " + block(((Instr.IfSome) i).none()) + " then";
            case IF_OK: return "if-ok " + block(((Instr.IfOk) i).ok()) + " else " + block(((Instr.IfOk) i).err()) + " then";
            case LOOP: return "begin " + block(((Instr.Loop) i).test()) + " while " + block(((Instr.Loop) i).body()) + " repeat";
            case UNTIL: return "begin " + block(((Instr.Until) i).body()) + " until";
            case CASE: {
                Instr.Case c = (Instr.Case) i;
                StringBuilder b = new StringBuilder("case");
                for (Instr.Case.Arm a : c.arms()) b.append(' ').append(a.value()).append(" of ").append(block(a.body())).append(" endof");
                c.otherwise().ifPresent(o -> b.append(" otherwise ").append(block(o)));
                return b.append(" endcase").toString();
            }
            case LIST: return "[ " + block(((Instr.ListLit) i).elements()) + " ]";
            case MAP: return "map{ " + block(((Instr.MapLit) i).entries()) + " }map";
            case RECORD: {
                StringBuilder b = new StringBuilder("{");
                for (Instr.RecordLit.Field f : ((Instr.RecordLit) i).fields()) b.append(' ').append(f.name()).append(": ").append(block(f.value()));
                return b.append(" }").toString();
            }
            case QUOTE: return "['] " + ((Instr.Quote) i).word();
            case CLOSURE: return "[: ( " + ((Instr.Closure) i).type() + " ) " + block(((Instr.Closure) i).body()) + " ;]";
            case LOCAL_STORE: return ":> " + ((Instr.LocalStore) i).name();
            case LOCAL_LOAD: return "@" + ((Instr.LocalLoad) i).name();
            case PROPAGATE: return "?";
            case CONSTANT: {
                Instr.Constant c = (Instr.Constant) i;
                return "constant " + c.name() + c.declared().map(t -> "<" + t + ">").orElse("");
            }
            default: throw new IllegalStateException();
        }
    }
}
