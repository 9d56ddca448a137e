package dev.finch.ir.vocab;

import java.util.List;

/**
 * How the verifier types a call of a word. {@link #ORDINARY} words are typed by their declared overloads alone;
 * every other constant names one dedicated verifier rule, because the word's type depends on an immediate or on
 * the value below it. The verifier switches over this enum exhaustively, so adding a rule here fails to compile
 * until the rule exists. {@link #immediates()} is the shape of the static arguments the word is written with, which
 * the Co-Forth frontend parses ({@code variant<T,tag>}) and the printer writes back.
 */
public enum Typing {
    /** Typed by its declared overloads; may carry one optional output ascription {@code word<T>}. */
    ORDINARY(List.of()),
    /** {@code execute}: calls the function value on top with the values below it. */
    EXECUTE(List.of()),
    /** {@code step-spawn}: starts a closure of no inputs and one output as a concurrent step. */
    STEP_SPAWN(List.of()),
    /** {@code fiber-new}: a fiber over a closure of no inputs and at most one output that yields. */
    FIBER_NEW(List.of()),
    /** {@code defer-cpu}: starts a pure closure of no inputs and one output as a CPU task on the worker pool. */
    DEFER_CPU(List.of()),
    /** {@code variant<T,tag>}: builds a value of the closed variant T. */
    VARIANT(List.of(Immediate.TYPE, Immediate.TAG)),
    /** {@code variant-get<tag>}: the payload of one tag, as an option. */
    VARIANT_GET(List.of(Immediate.TAG)),
    /** {@code empty-list<T>}: the empty list of T. */
    EMPTY_LIST(List.of(Immediate.TYPE)),
    /** {@code empty-map<K,V>}: the empty map from K to V. */
    EMPTY_MAP(List.of(Immediate.TYPE, Immediate.TYPE)),
    /** {@code "field" record-get}: one field of the record below, as an option. */
    RECORD_GET(List.of(Immediate.FIELD)),
    /** {@code "field" record-set}: the record below with one field replaced. */
    RECORD_SET(List.of(Immediate.FIELD));

    /** The kind of one static argument. */
    public enum Immediate {
        /** A type in the compact spelling. */
        TYPE,
        /** A tag of a closed variant. */
        TAG,
        /** A record field name, written as the string literal right before the word in Co-Forth. */
        FIELD
    }

    private final List<Immediate> immediates;

    Typing(List<Immediate> immediates) { this.immediates = immediates; }

    /** The static arguments, in order; empty when the word takes none. */
    public List<Immediate> immediates() { return immediates; }

    /** True when the word's static arguments are written in angle brackets in Co-Forth ({@code name<…>}). */
    public boolean bracketed() { return !immediates.isEmpty() && !immediates.contains(Immediate.FIELD); }
}
