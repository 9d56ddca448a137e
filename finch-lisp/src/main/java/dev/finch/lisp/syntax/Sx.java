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

    /** {@code ( … )}; {@code text} is the exact source text (annotations are re-read from it). */
    record SList(List<Sx> items, String text, Origin origin) implements Sx {
        public SList { items = List.copyOf(items); }
        public SList(List<Sx> items, Origin origin) { this(items, null, origin); }
        @Override public Kind kind() { return Kind.LIST; }
        @Override public Sx at(Origin o) { return new SList(items, text, o); }
        @Override public String toString() { return text != null ? text : Sx.print("(", items, ")"); }
    }

    /** {@code [ … ]}, used for annotations {@code [x : T]}; {@code typeText} is the source after the colon. */
    record SBracket(List<Sx> items, String typeText, Origin origin) implements Sx {
        public SBracket { items = List.copyOf(items); }
        @Override public Kind kind() { return Kind.BRACKET; }
        @Override public Sx at(Origin o) { return new SBracket(items, typeText, o); }
        @Override public String toString() { return Sx.print("[", items, "]"); }
    }

    /** {@code { :k v … }}, a record literal. */
    record SBraces(List<Sx> items, Origin origin) implements Sx {
        public SBraces { items = List.copyOf(items); }
        @Override public Kind kind() { return Kind.BRACES; }
        @Override public Sx at(Origin o) { return new SBraces(items, o); }
        @Override public String toString() { return Sx.print("{", items, "}"); }
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

    private static String print(String open, List<Sx> items, String close) {
        StringBuilder b = new StringBuilder(open);
        for (int i = 0; i < items.size(); i++) { if (i > 0) b.append(' '); b.append(items.get(i)); }
        return b.append(close).toString();
    }
}
