package dev.finch.verifier;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Test helper: builds IR from a tiny Co-Forth-like notation (not the real frontend). Tokens are separated by
 * spaces; each instruction's origin is {@code test:1:<token index>}.
 * <pre>
 * 42 1.5 "text" true false unit 'sym          literals
 * word  word&lt;T,tag&gt;  variant-get&lt;tag&gt;  empty-list&lt;T&gt;  record-get:f  record-set:f   calls (with immediates)
 * if … else … then   if-some … else … then   if-ok … else … then
 * begin … while … repeat   begin … until   case 1 of … endof otherwise … endcase
 * [ … ]   map{ … }map   { a: … b: … }   ['] w   [: ( ins -> outs ) … ;]
 * :&gt; x (store)   $x (load)   ?   constant name   constant&lt;T&gt; name
 * : name ( ins -> outs ) body ;   : name body ;      (definitions, top level only)
 * </pre>
 */
final class Ir {
    private final List<String> toks;
    private int pos;
    private final List<WordDef> words = new ArrayList<>();

    private Ir(String src) {
        toks = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char ch : src.toCharArray()) {
            if (ch == '"') quoted = !quoted;
            if (!quoted && Character.isWhitespace(ch)) {
                if (cur.length() > 0) { toks.add(cur.toString()); cur.setLength(0); }
            } else {
                cur.append(ch);
            }
        }
        if (cur.length() > 0) toks.add(cur.toString());
    }

    /** Finch's real vocabulary, as a session over it sees it. */
    static final dev.finch.ir.vocab.Vocabulary VOCABULARY = dev.finch.vm.engine.Vm.vocabulary();
    /** An empty session over Finch's words. */
    static final Environment EMPTY = Environment.of(VOCABULARY);

    static Module module(String src) {
        Ir p = new Ir(src);
        Block main = p.block(List.of(), true);
        return new Module("test", "forth", p.words, main);
    }

    static Verification verify(String src) { return Verifier.verify(module(src), EMPTY); }

    static Verification verify(String src, Type... stack) {
        return Verifier.verify(module(src), new Environment(Ir.VOCABULARY, Map.of(), Map.of(), List.of(stack)));
    }

    static Type t(String spelling) { return TypeSyntax.parse(spelling); }

    static Type.Fn sig(String spelling) { return TypeSyntax.parseSignature(spelling); }

    static Origin at(int index) { return Origin.of("test", 1, index); }

    private Origin here() { return at(pos); }

    private String next() {
        if (pos >= toks.size()) throw new IllegalArgumentException("unexpected end of test program");
        return toks.get(pos++);
    }

    private boolean peek(String s) { return pos < toks.size() && toks.get(pos).equals(s); }

    private Block block(List<String> terminators, boolean topLevel) {
        List<Instr> out = new ArrayList<>();
        while (pos < toks.size() && !terminators.contains(toks.get(pos))) {
            if (topLevel && peek(":")) { definition(); continue; }
            out.add(instr());
        }
        if (!terminators.isEmpty() && pos >= toks.size()) throw new IllegalArgumentException("missing " + terminators);
        return new Block(out);
    }

    private void definition() {
        Origin o = here();
        next();
        String name = next();
        Optional<Type.Fn> declared = Optional.empty();
        if (peek("(")) declared = Optional.of(sig(parenthesized()));
        Block body = block(List.of(";"), false);
        next();
        words.add(new WordDef(name, declared, body, o));
    }

    /** Reads {@code ( … )} with nesting and returns the inside. */
    private String parenthesized() {
        next();
        StringBuilder b = new StringBuilder();
        int depth = 1;
        while (true) {
            String tok = next();
            if (tok.equals("(")) depth++;
            if (tok.equals(")") && --depth == 0) return b.toString().trim();
            b.append(tok).append(' ');
        }
    }

    private Instr instr() {
        Origin o = here();
        String tok = next();
        switch (tok) {
            case "true": return new Instr.Push(new Literal.BoolLit(true), o);
            case "false": return new Instr.Push(new Literal.BoolLit(false), o);
            case "unit": return new Instr.Push(new Literal.UnitLit(), o);
            case "if": {
                Block a = block(List.of("else", "then"), false);
                Block b = Block.EMPTY;
                if (next().equals("else")) { b = block(List.of("then"), false); next(); }
                return new Instr.If(a, b, o);
            }
            case "if-some": case "if-ok": {
                Block a = block(List.of("else", "then"), false);
                Block b = Block.EMPTY;
                if (next().equals("else")) { b = block(List.of("then"), false); next(); }
                return tok.equals("if-some") ? new Instr.IfSome(a, b, o) : new Instr.IfOk(a, b, o);
            }
            case "begin": {
                Block a = block(List.of("while", "until"), false);
                if (next().equals("until")) return new Instr.Until(a, o);
                Block b = block(List.of("repeat"), false);
                next();
                return new Instr.Loop(a, b, o);
            }
            case "case": {
                List<Instr.Case.Arm> arms = new ArrayList<>();
                Optional<Block> otherwise = Optional.empty();
                while (!peek("endcase")) {
                    Origin ao = here();
                    if (peek("otherwise")) { next(); otherwise = Optional.of(block(List.of("endcase"), false)); break; }
                    long v = Long.parseLong(next());
                    if (!next().equals("of")) throw new IllegalArgumentException("expected of");
                    Block body = block(List.of("endof"), false);
                    next();
                    arms.add(new Instr.Case.Arm(v, body, ao));
                }
                next();
                return new Instr.Case(arms, otherwise, o);
            }
            case "[": { Block b = block(List.of("]"), false); next(); return new Instr.ListLit(b, o); }
            case "map{": { Block b = block(List.of("}map"), false); next(); return new Instr.MapLit(b, o); }
            case "{": {
                List<Instr.RecordLit.Field> fields = new ArrayList<>();
                while (!peek("}")) {
                    Origin fo = here();
                    String name = next();
                    if (!name.endsWith(":")) throw new IllegalArgumentException("expected field name, got " + name);
                    List<Instr> vals = new ArrayList<>();
                    while (!peek("}") && !(pos < toks.size() && toks.get(pos).endsWith(":") && !toks.get(pos).equals(":"))) vals.add(instr());
                    fields.add(new Instr.RecordLit.Field(name.substring(0, name.length() - 1), new Block(vals), fo));
                }
                next();
                return new Instr.RecordLit(fields, o);
            }
            case "[']": return new Instr.Quote(next(), o);
            case "[:": {
                Type.Fn type = sig(parenthesized());
                Block b = block(List.of(";]"), false);
                next();
                return new Instr.Closure(type, b, o);
            }
            case ":>": return new Instr.LocalStore(next(), o);
            case "?": return new Instr.Propagate(o);
            case "constant": return new Instr.Constant(next(), Optional.empty(), o);
            default:
                break;
        }
        if (tok.startsWith("constant<")) return new Instr.Constant(next(), Optional.of(t(tok.substring(9, tok.length() - 1))), o);
        if (tok.startsWith("\"")) return new Instr.Push(new Literal.StringLit(tok.substring(1, tok.length() - 1)), o);
        if (tok.startsWith("'") && tok.length() > 1) return new Instr.Push(new Literal.SymbolLit(tok.substring(1)), o);
        if (tok.startsWith("$") && tok.length() > 1) return new Instr.LocalLoad(tok.substring(1), o);
        if (tok.matches("-?[0-9]+")) return new Instr.Push(new Literal.IntLit(Long.parseLong(tok)), o);
        if (tok.matches("-?[0-9]+\\.[0-9]+")) return new Instr.Push(new Literal.FloatLit(Double.parseDouble(tok)), o);
        if (tok.startsWith("record-get:") || tok.startsWith("record-set:")) {
            return new Instr.Call(tok.substring(0, 10), List.of(new Immediate.NameArg(tok.substring(11))), o);
        }
        int lt = tok.indexOf('<');
        if (lt > 0 && tok.endsWith(">")) {
            String word = tok.substring(0, lt);
            List<String> args = dev.finch.ir.cap.Capability.splitTopLevel(tok.substring(lt + 1, tok.length() - 1), ',');
            List<Immediate> imms = new ArrayList<>();
            for (String a : args) {
                boolean name = word.equals("variant-get") || (word.equals("variant") && !imms.isEmpty());
                imms.add(name ? new Immediate.NameArg(a) : new Immediate.TypeArg(t(a)));
            }
            return new Instr.Call(word, imms, o);
        }
        return new Instr.Call(tok, o);
    }
}
