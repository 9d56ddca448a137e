package dev.finch.lisp.syntax;

import dev.finch.ir.diag.Origin;
import java.util.List;

/**
 * One datum of the read source: the syntax tree macros rewrite and the analyzer lowers. Every datum keeps its
 * origin; datums a macro template introduces carry the macro call site's origin.
 */
public sealed interface Sx {
    /** The discriminator for switches (Java 17 has no pattern switch). */
    enum Kind { LIST, BRACKET, BRACES, QUOTE, STRING, INT, FLOAT, KEYWORD, COLON, SYMBOL }

    Kind kind();

    Origin origin();

    /** The same datum with another origin (used for template-introduced datums). */
    Sx at(Origin origin);

    /**
     * Where a datum's text lies in its source: the shared source string and a range of it, so that reading never
     * copies a form's text (a nested form would copy it once per level); {@link #text()} cuts it out on demand.
     */
    record Span(SourceText source, int start, int end) {
        public Span {
            if (start < 0 || end < start || end > source.length()) throw new IllegalArgumentException("span " + start + ".." + end);
        }

        /** How many code points the span covers. */
        public int length() { return end - start; }

        /** The text the span covers (a copy, made now). */
        public String text() { return source.slice(start, end); }
    }

    /** {@code ( … )}; {@code span} locates its exact source text (annotations are re-read from it), null when a macro built it. */
    record SList(List<Sx> items, Span span, Origin origin) implements Sx {
        public SList { items = List.copyOf(items); }
        public SList(List<Sx> items, Origin origin) { this(items, null, origin); }
        /** The exact source text, or null for a list a macro built. */
        public String text() { return span == null ? null : span.text(); }
        @Override public Kind kind() { return Kind.LIST; }
        @Override public Sx at(Origin o) { return new SList(items, span, o); }
        @Override public String toString() { return span != null ? span.text() : Sx.print("(", items, ")"); }
    }

    /** {@code [ … ]}, used for annotations {@code [x : T]}; {@code typeSpan} locates the source after the colon (or is null). */
    record SBracket(List<Sx> items, Span typeSpan, Origin origin) implements Sx {
        public SBracket { items = List.copyOf(items); }
        /** The annotation's type spelling as written after the colon, stripped; null when there is none or a macro built it. */
        public String typeText() { return typeSpan == null ? null : typeSpan.text().strip(); }
        @Override public Kind kind() { return Kind.BRACKET; }
        @Override public Sx at(Origin o) { return new SBracket(items, typeSpan, o); }
        @Override public String toString() { return Sx.print("[", items, "]"); }
    }

    /**
     * {@code { :k v … }}, a record literal; also the capability set of a signature's {@code ! {…}}, which is re-read
     * from its exact source text ({@code span}; null when a macro built it).
     */
    record SBraces(List<Sx> items, Span span, Origin origin) implements Sx {
        public SBraces { items = List.copyOf(items); }
        public SBraces(List<Sx> items, Origin origin) { this(items, null, origin); }
        @Override public Kind kind() { return Kind.BRACES; }
        @Override public Sx at(Origin o) { return new SBraces(items, span, o); }
        /** The exact source text, or null for braces a macro built. */
        public String text() { return span == null ? null : span.text(); }
        @Override public String toString() { return span != null ? span.text() : Sx.print("{", items, "}"); }
    }

    /** {@code 'datum}. */
    record SQuote(Sx datum, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.QUOTE; }
        @Override public Sx at(Origin o) { return new SQuote(datum, o); }
        @Override public String toString() { return "'" + datum; }
    }

    /** A string literal, escapes already decoded. */
    record SString(String value, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.STRING; }
        @Override public Sx at(Origin o) { return new SString(value, o); }
        @Override public String toString() { return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"'; }
    }

    record SInt(long value, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.INT; }
        @Override public Sx at(Origin o) { return new SInt(value, o); }
        @Override public String toString() { return Long.toString(value); }
    }

    record SFloat(double value, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.FLOAT; }
        @Override public Sx at(Origin o) { return new SFloat(value, o); }
        @Override public String toString() { return Double.toString(value); }
    }

    /** {@code :name} (record field keys and variant tags); {@code name} excludes the colon. */
    record SKeyword(String name, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.KEYWORD; }
        @Override public Sx at(Origin o) { return new SKeyword(name, o); }
        @Override public String toString() { return ":" + name; }
    }

    /** A lone {@code :} (the annotation separator). */
    record SColon(Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.COLON; }
        @Override public Sx at(Origin o) { return new SColon(o); }
        @Override public String toString() { return ":"; }
    }

    /** A symbol; {@code true}/{@code false} are symbols too, recognised by the analyzer. */
    record SSymbol(String name, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.SYMBOL; }
        @Override public Sx at(Origin o) { return new SSymbol(name, o); }
        @Override public String toString() { return name; }
    }

    /** True when {@code sx} is the symbol {@code name}. */
    static boolean isSymbol(Sx sx, String name) { return sx instanceof SSymbol s && s.name().equals(name); }

    /** The head symbol's name of a list, or null. */
    static String head(Sx sx) {
        if (sx instanceof SList l && !l.items().isEmpty() && l.items().get(0) instanceof SSymbol s) return s.name();
        return null;
    }

    /** A name or piece of source for a message: at most 60 characters, with its length when cut. */
    static String quote(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "… (" + text.length() + " characters)";
    }

    /**
     * The datum spelled for a message in at most about {@code max} characters ("…" marks a cut): its source text
     * when that is short, else printed only as far as needed — never the whole of a large or macro-shared tree.
     */
    static String abbreviate(Sx sx, int max) {
        if (sx instanceof SList l && l.span() != null && l.span().length() <= max) return l.span().text();
        StringBuilder b = new StringBuilder();
        printBounded(sx, b, max);
        if (b.length() > max) {
            b.setLength(Math.max(0, max - 1));
            b.append('…');
        }
        return b.toString();
    }

    /** Appends {@code sx} until {@code b} is longer than {@code max}; each level appends before it recurses, so it stops within {@code max} levels. */
    private static void printBounded(Sx sx, StringBuilder b, int max) {
        if (b.length() > max) return;
        switch (sx.kind()) {
            case LIST: case BRACKET: case BRACES: {
                List<Sx> items = sx instanceof SList l ? l.items() : sx instanceof SBracket br ? br.items() : ((SBraces) sx).items();
                String open = sx.kind() == Kind.LIST ? "(" : sx.kind() == Kind.BRACKET ? "[" : "{";
                b.append(open);
                for (int i = 0; i < items.size(); i++) {
                    if (b.length() > max) return;
                    if (i > 0) b.append(' ');
                    printBounded(items.get(i), b, max);
                }
                b.append(open.equals("(") ? ')' : open.equals("[") ? ']' : '}');
                return;
            }
            case QUOTE:
                b.append('\'');
                printBounded(((SQuote) sx).datum(), b, max);
                return;
            case STRING: {
                String v = ((SString) sx).value();
                String head = v.length() > max ? v.substring(0, max + 1) : v;
                b.append(new SString(head, sx.origin()));
                return;
            }
            case SYMBOL: case KEYWORD: {
                String name = sx instanceof SSymbol s ? s.name() : ":" + ((SKeyword) sx).name();
                b.append(name, 0, Math.min(name.length(), max + 1 - Math.min(b.length(), max)));
                return;
            }
            default:
                b.append(sx);
        }
    }

    /** How many datums {@code sx} holds (itself included), counted without recursion and only until the count passes {@code cap}. */
    static long size(Sx sx, long cap) {
        java.util.ArrayDeque<Sx> todo = new java.util.ArrayDeque<>();
        todo.push(sx);
        long n = 0;
        while (!todo.isEmpty() && n <= cap) {
            Sx x = todo.pop();
            n++;
            switch (x.kind()) {
                case LIST: for (Sx i : ((SList) x).items()) todo.push(i); break;
                case BRACKET: for (Sx i : ((SBracket) x).items()) todo.push(i); break;
                case BRACES: for (Sx i : ((SBraces) x).items()) todo.push(i); break;
                case QUOTE: todo.push(((SQuote) x).datum()); break;
                default:
            }
        }
        return n;
    }

    /**
     * How many levels of lists and quotes {@code sx} has, as the reader counts nesting (an atom has none, {@code (a)}
     * one, {@code '(a)} two), measured without recursion; the walk stops as soon as it finds more than {@code cap}.
     */
    static int depth(Sx sx, int cap) {
        java.util.ArrayDeque<Sx> todo = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<Integer> levels = new java.util.ArrayDeque<>();
        todo.push(sx);
        levels.push(0);
        int deepest = 0;
        while (!todo.isEmpty()) {
            Sx x = todo.pop();
            int above = levels.pop();
            List<Sx> kids = switch (x.kind()) {
                case LIST -> ((SList) x).items();
                case BRACKET -> ((SBracket) x).items();
                case BRACES -> ((SBraces) x).items();
                case QUOTE -> List.of(((SQuote) x).datum());
                default -> null;
            };
            if (kids == null) continue;
            int level = above + 1;
            if (level > deepest) {
                deepest = level;
                if (deepest > cap) return deepest;
            }
            for (Sx k : kids) {
                todo.push(k);
                levels.push(level);
            }
        }
        return deepest;
    }

    private static String print(String open, List<Sx> items, String close) {
        StringBuilder b = new StringBuilder(open);
        for (int i = 0; i < items.size(); i++) { if (i > 0) b.append(' '); b.append(items.get(i)); }
        return b.append(close).toString();
    }
}
