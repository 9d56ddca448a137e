package dev.finch.forth;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Random IR modules within the printer's documented preconditions: names are spellable words, locals are loaded
 * only after a store in program order, and calls never name a local.
 */
final class IrGen {
    private static final Origin O = Origin.UNKNOWN;
    static final List<String> WORDS = List.of("dup", "drop", "swap", "+", "-", "*", "/", "<>", "=", ">=", "say", "int-to-string",
            "string-append", "1+", "2dup", "my-word", "execute", "list-append", "map-get", "x->y", "ok?", "!", "@", ".", "s", "'", "a'b", "\\x");
    private static final List<String> DEFINED = List.of("sq", "helper", "w2", "go!", "inc");
    private static final List<String> LOCALS = List.of("a", "n", "total", "acc-1", "v");
    private static final List<String> CONSTANTS = List.of("limit", "pi", "base-url");
    private static final List<String> FIELDS = List.of("name", "age", "city", "_x", "if", "first-name", "A1");
    private static final List<String> TAGS = List.of("none", "some", "ok_2", "red", "Big");
    private static final List<String> SYMBOLS = List.of("sym", "a", "x-y", "+", "then", "nil?", "é");
    private static final List<String> JSON = List.of("{\"a\":1}", "{\"first name\":\"Ada\",\"tags\":[\"x\",true,null,-1.5e3]}",
            "{\"k\":{\"n\":{}},\"e\":[],\"s\":\"q\\\"\\\\\\n\\u0001é\"}", "{\"}\":\"{\"}");
    private static final List<String> NASTY = List.of("", " ", "\"", "\\", "\\n", "\n", "\t", "\r\n", "\0", "\u0001", "\u007f",
            "é", "€", "😀", "\ud800", "\udc00x", "record-get", "\" say", ")", "( x )", "\\ c", "{\"a\":1}", "[1, 2]", "\\u0041",
            "'sym", ": f ;", "\u2028", "\u00a0");
    private static final List<Capability> CAPS = List.of(Capability.SESSION_EMIT, Capability.parse("fs.read(${workspace}/**)").orElseThrow(),
            Capability.of("mcp.call", "server", "tool"), Capability.of("process.run", "git"), Capability.of("net.http"),
            // Templates over a word's parameters (issue 36) print and read back like any capability.
            Capability.of("fs.read", "${workspace}/$0"), Capability.of("fs.write", "${project}/$1/**"), Capability.of("tool.call", "$0", "$1"));

    private final Random r;
    private List<String> locals = new ArrayList<>();

    IrGen(Random r) { this.r = r; }

    Module module() {
        List<WordDef> words = new ArrayList<>();
        List<String> names = new ArrayList<>(DEFINED);
        java.util.Collections.shuffle(names, r);
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            locals = new ArrayList<>();
            Optional<Type.Fn> sig = r.nextInt(4) == 0 ? Optional.empty() : Optional.of(fn(2));
            words.add(new WordDef(names.get(i), sig, block(3), O));
        }
        locals = new ArrayList<>();
        return new Module("src", "forth", words, block(3));
    }

    Block block(int depth) {
        int n = r.nextInt(depth <= 0 ? 3 : 6);
        List<Instr> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(instr(depth));
        return new Block(out);
    }

    Instr instr(int depth) {
        int choice = r.nextInt(depth <= 0 ? 8 : 22);
        switch (choice) {
            case 0: case 1: return new Instr.Push(literal(), O);
            case 2: return new Instr.Call(pick(WORDS), O);
            case 3: return new Instr.Call(pick(r.nextBoolean() ? DEFINED : CONSTANTS), O);
            case 4: {
                String name = pick(LOCALS);
                if (!locals.contains(name)) locals.add(name);
                return new Instr.LocalStore(name, O);
            }
            case 5: return locals.isEmpty() ? new Instr.Propagate(O) : new Instr.LocalLoad(pick(locals), O);
            case 6: return fused();
            case 7: return parameterized();
            case 8: return new Instr.If(block(depth - 1), block(depth - 1), O);
            case 9: return new Instr.IfSome(block(depth - 1), block(depth - 1), O);
            case 10: return new Instr.IfOk(block(depth - 1), block(depth - 1), O);
            case 11: return new Instr.Loop(block(depth - 1), block(depth - 1), O);
            case 12: return new Instr.Until(block(depth - 1), O);
            case 13: {
                List<Instr.Case.Arm> arms = new ArrayList<>();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) arms.add(new Instr.Case.Arm(anyLong(), block(depth - 1), O));
                return new Instr.Case(arms, r.nextBoolean() ? Optional.empty() : Optional.of(block(depth - 1)), O);
            }
            case 14: return new Instr.ListLit(block(depth - 1), O);
            case 15: return new Instr.MapLit(block(depth - 1), O);
            case 16: {
                List<String> names = new ArrayList<>(FIELDS);
                java.util.Collections.shuffle(names, r);
                List<Instr.RecordLit.Field> fields = new ArrayList<>();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) fields.add(new Instr.RecordLit.Field(names.get(i), block(depth - 1), O));
                return new Instr.RecordLit(fields, O);
            }
            case 17: return new Instr.Quote(pick(r.nextBoolean() ? WORDS : DEFINED), O);
            case 18: return new Instr.Closure(fn(1), block(depth - 1), O);
            case 19: return new Instr.Propagate(O);
            case 20: return new Instr.Constant(pick(CONSTANTS), r.nextBoolean() ? Optional.empty() : Optional.of(type(2)), O);
            default: return new Instr.Push(literal(), O);
        }
    }

    private Instr fused() {
        String field = r.nextBoolean() ? pick(FIELDS) : nasty();
        return new Instr.Call(r.nextBoolean() ? "record-get" : "record-set", List.of(new Immediate.NameArg(field)), O);
    }

    private Instr parameterized() {
        switch (r.nextInt(3)) {
            case 0: return new Instr.Call("variant", List.of(new Immediate.TypeArg(type(2)), new Immediate.NameArg(pick(TAGS))), O);
            case 1: return new Instr.Call("variant-get", List.of(new Immediate.NameArg(pick(TAGS))), O);
            default: return new Instr.Call("empty-list", List.of(new Immediate.TypeArg(type(2))), O);
        }
    }

    Literal literal() {
        switch (r.nextInt(8)) {
            case 0: return new Literal.IntLit(anyLong());
            case 1: return new Literal.FloatLit(anyDouble());
            case 2: case 3: return new Literal.StringLit(nasty());
            case 4: return new Literal.BoolLit(r.nextBoolean());
            case 5: return new Literal.UnitLit();
            case 6: return new Literal.SymbolLit(pick(SYMBOLS));
            default: return new Literal.JsonLit(pick(JSON));
        }
    }

    private String nasty() {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) b.append(r.nextInt(3) == 0 ? (char) r.nextInt(0x10000) : pick(NASTY));
        return b.toString();
    }

    private long anyLong() {
        switch (r.nextInt(5)) {
            case 0: return Long.MIN_VALUE;
            case 1: return Long.MAX_VALUE;
            case 2: return r.nextLong();
            default: return r.nextInt(2001) - 1000;
        }
    }

    private double anyDouble() {
        switch (r.nextInt(8)) {
            case 0: return Double.NaN;
            case 1: return r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            case 2: return -0.0;
            case 3: return Double.MIN_VALUE;
            case 4: return r.nextBoolean() ? Double.MAX_VALUE : -Double.MAX_VALUE;
            case 5: return Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL) * (r.nextBoolean() ? 1 : -1);
            default: return (r.nextInt(20001) - 10000) / 8.0;
        }
    }

    // ------------------------------------------------------------------------------------------------ types

    Type.Fn fn(int depth) {
        List<Type> ins = new ArrayList<>();
        List<Type> outs = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) ins.add(type(depth - 1));
        for (int i = r.nextInt(3); i > 0; i--) outs.add(type(depth - 1));
        TreeSet<Capability> caps = new TreeSet<>();
        for (int i = r.nextInt(3); i > 0; i--) caps.add(pick(CAPS));
        Optional<Type.Yields> y = r.nextInt(4) == 0 ? Optional.of(new Type.Yields(type(depth - 1), type(depth - 1))) : Optional.empty();
        return new Type.Fn(ins, outs, caps, y);
    }

    Type type(int depth) {
        int choice = r.nextInt(depth <= 0 ? 4 : 17);
        switch (choice) {
            case 0: return Type.Prim.values()[r.nextInt(Type.Prim.values().length)];
            case 1: return new Type.Var(pick(List.of("a", "b", "k2", "z10")));
            case 2: return new Type.Named(pick(List.of("agent-result", "capability-grant", "Thing", "foo_bar")));
            case 3: return r.nextBoolean() ? Type.PathT.WORKSPACE_PATH : new Type.PathT(pick(List.of("host-machine", "tmp.d", "a_b")));
            case 4: return new Type.OptionT(type(depth - 1));
            case 5: return new Type.ResultT(type(depth - 1), type(depth - 1));
            case 6: return new Type.ListT(type(depth - 1));
            case 7: return new Type.MapT(type(depth - 1), type(depth - 1));
            case 8: {
                Map<String, Type> fields = new TreeMap<>();
                for (int i = r.nextInt(4); i > 0; i--) fields.put(pick(FIELDS), type(depth - 1));
                return new Type.RecordT(fields);
            }
            case 9: {
                Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                List<String> names = new ArrayList<>(TAGS);
                java.util.Collections.shuffle(names, r);
                for (int i = 1 + r.nextInt(3); i > 0; i--) tags.put(names.get(i), r.nextBoolean() ? Optional.empty() : Optional.of(type(depth - 1)));
                return new Type.VariantT(tags);
            }
            case 10: return new Type.TaskT(type(depth - 1));
            case 11: return new Type.FiberT(type(depth - 1), type(depth - 1));
            case 12: return new Type.StreamT(type(depth - 1));
            case 13: return new Type.ResourceT(type(depth - 1));
            case 14: case 15: return fn(depth - 1);
            default: return Type.Prim.INT;
        }
    }

    private <T> T pick(List<T> xs) { return xs.get(r.nextInt(xs.size())); }
}
