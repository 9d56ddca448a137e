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
 * The one parser of the compact type spelling (the printer is {@link Type#toString()}).
 * <pre>
 * type   ::= fn | atom
 * fn     ::= atom* '->' atom* ['!' '{' cap (',' cap)* '}'] ['yields' '&lt;' type ',' type '&gt;']
 * atom   ::= prim | 'path' ['&lt;' root '&gt;'] | ctor '&lt;' type (',' type)* '&gt;' | 'record{' (name ':' type),* '}'
 *          | 'variant{' tag ['(' type ')'] ('|' ...)* '}' | '(' fn ')' | var | named
 * </pre>
 * A type variable is a lowercase letter optionally followed by digits; any other unknown name is an opaque named type.
 */
public final class TypeSyntax {
    private final String src;
    private int pos;

    private TypeSyntax(String src) { this.src = src; }

    /** Thrown for a malformed spelling; carries the offset of the problem. */
    public static final class TypeSyntaxException extends RuntimeException {
        private final int offset;
        public TypeSyntaxException(String message, int offset) { super(message, null, false, false); this.offset = offset; }
        public int offset() { return offset; }
    }

    /** Parses a whole type spelling, or throws {@link TypeSyntaxException}. */
    public static Type parse(String text) {
        TypeSyntax p = new TypeSyntax(text);
        Type t = p.type();
        p.ws();
        if (p.pos != p.src.length()) throw p.error("unexpected '" + p.src.substring(p.pos) + "' after type");
        return t;
    }

    /** Parses a whole type spelling; empty when malformed. */
    public static Optional<Type> tryParse(String text) {
        try { return Optional.of(parse(text)); } catch (TypeSyntaxException e) { return Optional.empty(); }
    }

    /** Parses a callable type (a signature); a bare atom list without an arrow is rejected. */
    public static Type.Fn parseSignature(String text) {
        Type t = parse(text);
        if (t instanceof Type.Fn f) return f;
        throw new TypeSyntaxException("expected a signature 'ins -> outs', found '" + text + "'", 0);
    }

    /** A type spelled where it nests inside another: callables are parenthesized. */
    static String nested(Type t) { return t instanceof Type.Fn ? "(" + t + ")" : t.toString(); }

    /** True when {@code name} spells a type variable. */
    public static boolean isVariableName(String name) { return name.matches("[a-z][0-9]*"); }

    private Type type() {
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
        return new Type.Fn(ins, outs, caps, yields);
    }

    private boolean startsAtom() {
        char c = src.charAt(pos);
        return c == '(' || Character.isLetter(c);
    }

    private Type atom() {
        ws();
        if (atEnd()) throw error("expected a type");
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
            default:
                Optional<Type.Prim> prim = Type.Prim.named(name);
                if (prim.isPresent()) return prim.get();
                if (isVariableName(name)) return new Type.Var(name);
                if (name.equals("yields")) throw error("'yields' needs a signature before it");
                return new Type.Named(name);
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
