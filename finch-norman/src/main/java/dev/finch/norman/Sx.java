package dev.finch.norman;

import dev.finch.ir.diag.Origin;
import java.util.List;

/** A datum as read: a list (parenthesised or bracketed, which mean the same), an atom, a string, or a quotation. */
public sealed interface Sx {
    /** The discriminator for switches. */
    enum Kind { LIST, ATOM, STRING, QUOTE }

    Kind kind();

    Origin origin();

    /** {@code ( … )} or {@code [ … ]}; {@code bracket} only keeps the spelling. */
    record SList(List<Sx> items, boolean bracket, Origin origin) implements Sx {
        public SList { items = List.copyOf(items); }
        @Override public Kind kind() { return Kind.LIST; }
        public int size() { return items.size(); }
        public Sx get(int i) { return items.get(i); }
        /** The head atom's text, or null when the list is empty or starts with something else. */
        public String head() { return items.isEmpty() || !(items.get(0) instanceof Atom a) ? null : a.text(); }
    }

    /** Any other token: a name, numeral, money amount, duration, {@code #t}, {@code ∞}. */
    record Atom(String text, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.ATOM; }
    }

    /** A string literal with its escapes already decoded. */
    record Str(String value, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.STRING; }
    }

    /** {@code 'datum}. */
    record Quote(Sx datum, Origin origin) implements Sx {
        @Override public Kind kind() { return Kind.QUOTE; }
    }
}
