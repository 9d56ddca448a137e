package dev.finch.ir.type;

import dev.finch.ir.cap.Capability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The one parser of the compact type spelling (the printer is {@code Type.toString()}).
 * <pre>
 * type   ::= fn | atom
 * fn     ::= atom* '->' atom* ['!' '{' cap (',' cap)* '}'] ['yields' '&lt;' type ',' type '&gt;']
 * atom   ::= prim | 'path' ['&lt;' root '&gt;'] | ctor '&lt;' type (',' type)* '&gt;' | 'record{' (name ':' type),* '}'
 *          | 'variant{' tag ['(' type ')'] ('|' ...)* '}' | 'rec&lt;' named ',' type '&gt;' | '(' fn ')' | var | named
 * </pre>
 * A type variable is a lowercase letter optionally followed by digits; any other unknown name is an opaque named type.
 *
 * <p>The parser is recursive descent, one level per nested type, so it is bounded: a spelling nested deeper than
 * {@link #MAX_NESTING} is malformed whoever parses it (a saved image, a host's value, a frontend), and a frontend
 * parses with its submission's tighter limits ({@link #parse(String, int, long)}), refusing what crosses them with the
 * compile limits' own diagnostics. The verifier never infers a type deeper than this either, so every type Finch
 * prints reads back.
 */
public final class TypeSyntax {
    /** The deepest any type spelling may nest (a type inside a constructor, a field, a payload or parentheses). */
    public static final int MAX_NESTING = 256;

    private final String src;
    private final int maxNesting;
    private final long maxSize;
    /** What a name that is no built-in type or variable stands for: a named type ({@link TypeNames}) or an opaque one. */
    private final java.util.function.Function<String, Type> names;
    private int pos;
    private int depth = -1;
    private long size;

    private TypeSyntax(String src, int maxNesting, long maxSize, java.util.function.Function<String, Type> names) {
        this.src = src;
        this.maxNesting = maxNesting;
        this.maxSize = maxSize;
        this.names = names;
    }

    /** What is wrong with a spelling: malformed, or beyond a bound the caller set. */
    public enum Problem { MALFORMED, TOO_DEEP, TOO_LARGE }

    /** Thrown for a malformed spelling; carries the offset of the problem (and, past a bound, what was measured). */
    public static final class TypeSyntaxException extends RuntimeException {
        private final int offset;
        private final Problem problem;
        private final long measured;

        public TypeSyntaxException(String message, int offset) { this(message, offset, Problem.MALFORMED, 0); }

        TypeSyntaxException(String message, int offset, Problem problem, long measured) {
            super(message, null, false, false);
            this.offset = offset;
            this.problem = problem;
            this.measured = measured;
        }

        public int offset() { return offset; }

        public Problem problem() { return problem; }

        /** The nesting depth or node count that crossed the bound ({@link Problem#TOO_DEEP}, {@link Problem#TOO_LARGE}); else 0. */
        public long measured() { return measured; }
    }

    /** Parses a whole type spelling, or throws {@link TypeSyntaxException}; nesting is bounded by {@link #MAX_NESTING}. */
    public static Type parse(String text) { return parse(text, MAX_NESTING, Long.MAX_VALUE); }

    /**
     * Parses a whole type spelling nested at most {@code maxNesting} levels (and never more than {@link #MAX_NESTING})
     * with at most {@code maxSize} nodes; beyond either it throws a {@link TypeSyntaxException} whose
     * {@link TypeSyntaxException#problem()} says which, as soon as the bound is crossed.
     */
    public static Type parse(String text, int maxNesting, long maxSize) { return parse(text, maxNesting, maxSize, Type.Named::new); }

    /**
     * {@link #parse(String, int, long)}, where a name that is no built-in type and no type variable is what
     * {@code names} answers for it: the structure a session named ({@link TypeNames#resolver}) or {@link Type.Named},
     * an opaque type. Named types are expanded here, while parsing, so nothing downstream ever sees their names.
     */
    public static Type parse(String text, int maxNesting, long maxSize, java.util.function.Function<String, Type> names) {
        TypeSyntax p = new TypeSyntax(text, Math.min(maxNesting, MAX_NESTING), maxSize, names);
        Type t = p.type();
        p.ws();
        if (p.pos != p.src.length()) throw p.error("unexpected '" + clip(p.src.substring(p.pos)) + "' after type");
        return t;
    }

    /** Parses a callable type (a signature) within the given bounds; see {@link #parse(String, int, long)}. */
    public static Type.Fn parseSignature(String text, int maxNesting, long maxSize) { return parseSignature(text, maxNesting, maxSize, Type.Named::new); }

    /** {@link #parseSignature(String, int, long)} with named types resolved by {@code names} (see {@link #parse(String, int, long, java.util.function.Function)}). */
    public static Type.Fn parseSignature(String text, int maxNesting, long maxSize, java.util.function.Function<String, Type> names) {
        Type t = parse(text, maxNesting, maxSize, names);
        if (t instanceof Type.Fn f) return f;
        throw new TypeSyntaxException("expected a signature 'ins -> outs', found '" + clip(text) + "'", 0);
    }

    /** At most 60 characters of {@code s}, for a message. */
    private static String clip(String s) { return s.length() <= 60 ? s : s.substring(0, 57) + "..."; }

    /** Parses a whole type spelling; empty when malformed. */
    public static Optional<Type> tryParse(String text) {
        try { return Optional.of(parse(text)); } catch (TypeSyntaxException e) { return Optional.empty(); }
    }

    /** Parses a callable type (a signature); a bare atom list without an arrow is rejected. */
    public static Type.Fn parseSignature(String text) { return parseSignature(text, MAX_NESTING, Long.MAX_VALUE); }

    /** A type spelled where it nests inside another: callables are parenthesized. */
    static String nested(Type t) { return t instanceof Type.Fn ? "(" + t + ")" : t.toString(); }

    /** True when {@code name} spells a type variable. */
    public static boolean isVariableName(String name) { return name.matches("[a-z][0-9]*"); }

    /** A type one level deeper than the one being parsed (the top-level type is level 0). */
    private Type type() {
        if (++depth > maxNesting) {
            throw new TypeSyntaxException("the type nests deeper than " + maxNesting + " levels", pos, Problem.TOO_DEEP, depth);
        }
        Type t = typeHere();
        depth--;
        return t;
    }

    /** Counts one node of the type being built. */
    private void node() {
        if (++size > maxSize) throw new TypeSyntaxException("the type has more than " + maxSize + " parts", pos, Problem.TOO_LARGE, size);
    }

    private Type typeHere() {
        int start = pos;
        List<Type> ins = new ArrayList<>();
        while (true) {
            ws();
            if (peek("->")) break;
            if (atEnd() || !startsAtom()) {
                if (ins.size() == 1) return ins.get(0);
                if (ins.isEmpty()) throw error("expected a type");
                throw error("expected '->' after the input types");
            }
            ins.add(atom());
        }
        expect("->");
        List<Type> outs = new ArrayList<>();
        while (true) {
            ws();
            if (atEnd() || !startsAtom() || peek("yields<") || peekWord("yields")) break;
            outs.add(atom());
        }
        TreeSet<Capability> caps = new TreeSet<>();
        ws();
        if (peek("!")) {
            pos++;
            ws();
            expect("{");
            int close = matching(pos - 1, '{', '}');
            String inner = src.substring(pos, close);
            List<String> parts = Capability.splitTopLevel(inner, ',');
            if (parts == null) throw error("unbalanced capability list");
            for (String part : parts) {
                if (part.isBlank()) continue;
                caps.add(Capability.parse(part).orElseThrow(() -> error("malformed capability '" + part.strip() + "'")));
            }
            pos = close + 1;
        }
        ws();
        Optional<Type.Yields> yields = Optional.empty();
        if (peek("yields")) {
            pos += "yields".length();
            ws();
            expect("<");
            Type y = type();
            ws();
            expect(",");
            Type r = type();
            ws();
            expect(">");
            yields = Optional.of(new Type.Yields(y, r));
        }
        if (start > pos) throw error("internal");
        node();
        return new Type.Fn(ins, outs, caps, yields);
    }

    private boolean startsAtom() {
        char c = src.charAt(pos);
        return c == '(' || Character.isLetter(c);
    }

    private Type atom() {
        ws();
        if (atEnd()) throw error("expected a type");
        node();
        if (src.charAt(pos) == '(') {
            pos++;
            Type t = type();
            ws();
            expect(")");
            return t;
        }
        String name = name();
        switch (name) {
            case "record": return record();
            case "variant": return variant();
            case "path":
                if (peek("<")) { pos++; ws(); String root = rootName(); ws(); expect(">"); return new Type.PathT(root); }
                return Type.PATH;
            case "option": { List<Type> a = args(1); return new Type.OptionT(a.get(0)); }
            case "result": { List<Type> a = args(2); return new Type.ResultT(a.get(0), a.get(1)); }
            case "list": { List<Type> a = args(1); return new Type.ListT(a.get(0)); }
            case "map": { List<Type> a = args(2); return new Type.MapT(a.get(0), a.get(1)); }
            case "task": { List<Type> a = args(1); return new Type.TaskT(a.get(0)); }
            case "fiber": { List<Type> a = args(2); return new Type.FiberT(a.get(0), a.get(1)); }
            case "stream": { List<Type> a = args(1); return new Type.StreamT(a.get(0)); }
            case "resource": { List<Type> a = args(1); return new Type.ResourceT(a.get(0)); }
            case "rec":
                if (!peek("<")) return new Type.Named(name);
                {
                    pos++;
                    ws();
                    String bound = name();
                    if (isVariableName(bound) || Type.Prim.named(bound).isPresent()) throw error("a recursive type's name must be a named type, not '" + bound + "'");
                    ws();
                    expect(",");
                    Type body = type();
                    ws();
                    expect(">");
                    return new Type.Named(bound, Optional.of(body));
                }
            default:
                Optional<Type.Prim> prim = Type.Prim.named(name);
                if (prim.isPresent()) return prim.get();
                if (isVariableName(name)) return new Type.Var(name);
                if (name.equals("yields")) throw error("'yields' needs a signature before it");
                return names.apply(name);
        }
    }

    private Type record() {
        ws();
        expect("{");
        Map<String, Type> fields = new TreeMap<>();
        ws();
        if (peek("}")) { pos++; return new Type.RecordT(fields); }
        while (true) {
            ws();
            String field = name();
            ws();
            expect(":");
            Type t = type();
            if (fields.put(field, t) != null) throw error("duplicate record field '" + field + "'");
            ws();
            if (peek(",")) { pos++; continue; }
            expect("}");
            return new Type.RecordT(fields);
        }
    }

    private Type variant() {
        ws();
        expect("{");
        Map<String, Optional<Type>> tags = new LinkedHashMap<>();
        while (true) {
            ws();
            String tag = name();
            ws();
            Optional<Type> payload = Optional.empty();
            if (peek("(")) {
                pos++;
                payload = Optional.of(type());
                ws();
                expect(")");
                ws();
            }
            if (tags.put(tag, payload) != null) throw error("duplicate variant tag '" + tag + "'");
            if (peek("|")) { pos++; continue; }
            expect("}");
            return new Type.VariantT(tags);
        }
    }

    private List<Type> args(int n) {
        ws();
        expect("<");
        List<Type> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i > 0) { ws(); expect(","); }
            out.add(type());
        }
        ws();
        expect(">");
        return out;
    }

    private String name() {
        int start = pos;
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (Character.isLetterOrDigit(c) || c == '_' || (c == '-' && pos > start && pos + 1 < src.length()
                    && Character.isLetterOrDigit(src.charAt(pos + 1)) && src.charAt(pos + 1) != '>')) pos++;
            else break;
        }
        if (start == pos) throw error("expected a name");
        return src.substring(start, pos);
    }

    private String rootName() {
        int start = pos;
        while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || "-._".indexOf(src.charAt(pos)) >= 0)) pos++;
        if (start == pos) throw error("expected a root name");
        return src.substring(start, pos);
    }

    private int matching(int openAt, char open, char close) {
        int depth = 0;
        for (int i = openAt; i < src.length(); i++) {
            if (src.charAt(i) == open) depth++;
            else if (src.charAt(i) == close && --depth == 0) return i;
        }
        throw error("missing '" + close + "'");
    }

    private void ws() { while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) pos++; }

    private boolean atEnd() { return pos >= src.length(); }

    private boolean peek(String s) { return src.startsWith(s, pos); }

    private boolean peekWord(String s) {
        return src.startsWith(s, pos) && (pos + s.length() == src.length() || !Character.isLetterOrDigit(src.charAt(pos + s.length())));
    }

    private void expect(String s) {
        if (!peek(s)) throw error("expected '" + s + "'" + (atEnd() ? " at end" : " at '" + src.charAt(pos) + "'"));
        pos += s.length();
    }

    private TypeSyntaxException error(String message) { return new TypeSyntaxException(message, pos); }
}
