package dev.finch.ir.print;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import java.util.List;

/**
 * Prints IR as canonical Co-Forth (contract: every executable IR operation has a canonical Co-Forth spelling).
 * The Co-Forth frontend parses the output back to an equal IR, origins aside, provided the names in the IR are
 * spellable as Co-Forth words (no whitespace or {@code [ ] { } , "}, not a keyword or number) and, as the verifier
 * requires anyway, every {@link Instr.LocalLoad} follows a {@link Instr.LocalStore} of its local in program order
 * and no {@link Instr.Call} in that word names a local. Stateless; every method is a pure function.
 */
public final class CoForthPrinter {
    /** Top-level code is wrapped at instruction boundaries past this width. */
    private static final int WIDTH = 100;

    private CoForthPrinter() { }

    /** Definitions first, one per line, then the main code. */
    public static String print(Module module) {
        StringBuilder b = new StringBuilder();
        for (WordDef w : module.words()) b.append(print(w)).append('\n');
        String line = "";
        for (Instr i : module.main().instrs()) {
            String s = print(i);
            if (!line.isEmpty() && line.length() + 1 + s.length() > WIDTH) {
                b.append(line).append('\n');
                line = "";
            }
            line = line.isEmpty() ? s : line + " " + s;
        }
        if (!line.isEmpty()) b.append(line).append('\n');
        return b.toString();
    }

    /** {@code : name ( sig ) body ;}, the signature omitted when it is not declared. */
    public static String print(WordDef word) {
        return join(":", word.name(), word.declared().map(f -> "( " + signature(f) + " )").orElse(""), print(word.body()), ";");
    }

    /** The instructions separated by single spaces. */
    public static String print(Block block) {
        StringBuilder b = new StringBuilder();
        for (Instr i : block.instrs()) {
            if (b.length() > 0) b.append(' ');
            b.append(print(i));
        }
        return b.toString();
    }

    /** One instruction's canonical spelling. */
    public static String print(Instr instr) {
        return switch (instr.kind()) {
            case PUSH -> literal(((Instr.Push) instr).literal());
            case CALL -> call((Instr.Call) instr);
            case IF -> { Instr.If i = (Instr.If) instr; yield branch("if", i.then(), i.otherwise()); }
            case IF_SOME -> { Instr.IfSome i = (Instr.IfSome) instr; yield branch("if-some", i.some(), i.none()); }
            case IF_OK -> { Instr.IfOk i = (Instr.IfOk) instr; yield join("if-ok", print(i.ok()), "else", print(i.err()), "then"); } // both arms, always
            case LOOP -> { Instr.Loop l = (Instr.Loop) instr; yield join("begin", print(l.test()), "while", print(l.body()), "repeat"); }
            case UNTIL -> join("begin", print(((Instr.Until) instr).body()), "until");
            case CASE -> {
                Instr.Case c = (Instr.Case) instr;
                StringBuilder b = new StringBuilder("case");
                for (Instr.Case.Arm arm : c.arms()) b.append(' ').append(join(Long.toString(arm.value()), "of", print(arm.body()), "endof"));
                c.otherwise().ifPresent(o -> b.append(' ').append(join("otherwise", print(o))));
                yield b.append(" endcase").toString();
            }
            case LIST -> join("[", print(((Instr.ListLit) instr).elements()), "]");
            case MAP -> join("map{", print(((Instr.MapLit) instr).entries()), "}map");
            case RECORD -> {
                StringBuilder b = new StringBuilder("{");
                for (Instr.RecordLit.Field f : ((Instr.RecordLit) instr).fields()) b.append(' ').append(join(f.name() + ":", print(f.value())));
                yield b.append(" }").toString();
            }
            case QUOTE -> "['] " + ((Instr.Quote) instr).word();
            case CLOSURE -> {
                Instr.Closure c = (Instr.Closure) instr;
                yield join("[:", "( " + signature(c.type()) + " )", print(c.body()), ";]");
            }
            case LOCAL_STORE -> ":> " + ((Instr.LocalStore) instr).name();
            case LOCAL_LOAD -> ((Instr.LocalLoad) instr).name();
            case PROPAGATE -> "?";
            case CONSTANT -> {
                Instr.Constant c = (Instr.Constant) instr;
                yield c.declared().map(t -> "constant<" + t + "> ").orElse("constant ") + c.name();
            }
        };
    }

    /** A signature in the D7 form {@code ins -- outs ! {caps} yields<Y,R>} (inside the parentheses). */
    public static String signature(Type.Fn fn) {
        StringBuilder b = new StringBuilder();
        for (Type t : fn.ins()) b.append(nested(t)).append(' ');
        b.append("--");
        for (Type t : fn.outs()) b.append(' ').append(nested(t));
        if (!fn.effects().isEmpty()) {
            b.append(" ! {");
            String sep = "";
            for (Capability c : fn.effects()) { b.append(sep).append(c); sep = ","; }
            b.append('}');
        }
        fn.yields().ifPresent(y -> b.append(' ').append(y));
        return b.toString();
    }

    /** A literal's spelling; floats always carry a '.' or an exponent so they never read back as ints. */
    public static String literal(Literal literal) {
        return switch (literal.kind()) {
            case INT -> Long.toString(((Literal.IntLit) literal).value());
            case FLOAT -> floatText(((Literal.FloatLit) literal).value());
            case STRING -> quote(((Literal.StringLit) literal).value());
            case BOOL -> ((Literal.BoolLit) literal).value() ? "true" : "false";
            case UNIT -> "unit";
            case SYMBOL -> "'" + ((Literal.SymbolLit) literal).name();
            case JSON -> ((Literal.JsonLit) literal).text();
        };
    }

    /** A string literal with the escapes the frontend decodes; controls and unpaired surrogates as backslash-u. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\t': b.append("\\t"); break;
                case '\r': b.append("\\r"); break;
                case '\0': b.append("\\0"); break;
                default:
                    boolean paired = Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                            : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
                    if (c < 0x20 || c == 0x7f || (Character.isSurrogate(c) && !paired)) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static String floatText(double v) {
        if (Double.isNaN(v)) return "+nan.0";
        if (Double.isInfinite(v)) return v > 0 ? "+inf.0" : "-inf.0";
        return Double.toString(v).replace('E', 'e');
    }

    private static String call(Instr.Call c) {
        List<Immediate> imm = c.immediates();
        String w = c.word();
        if ((w.equals("record-get") || w.equals("record-set")) && imm.size() == 1 && imm.get(0) instanceof Immediate.NameArg n) {
            return quote(n.name()) + " " + w;
        }
        if (imm.isEmpty()) return w;
        StringBuilder b = new StringBuilder(w).append('<');
        String sep = "";
        for (Immediate i : imm) {
            b.append(sep).append(switch (i.kind()) {
                case TYPE -> ((Immediate.TypeArg) i).type().toString();
                case NAME -> ((Immediate.NameArg) i).name();
            });
            sep = ",";
        }
        return b.append('>').toString();
    }

    private static String branch(String open, Block yes, Block no) {
        return no.isEmpty() ? join(open, print(yes), "then") : join(open, print(yes), "else", print(no), "then");
    }

    private static String nested(Type t) { return t instanceof Type.Fn ? "(" + t + ")" : t.toString(); }

    /** The non-empty parts separated by one space. */
    private static String join(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            if (p.isEmpty()) continue;
            if (b.length() > 0) b.append(' ');
            b.append(p);
        }
        return b.toString();
    }
}
