package dev.finch;

/** What a name in the discovery tools denotes; source syntax is the one kind without a runtime signature. */
public enum WordKind {
    /** A word of the shared vocabulary ({@code dev.finch.ir.vocab.Vocabulary}). */
    CORE_WORD("core-word"),
    /** A word a committed submission defined in this session (from Lisp or Co-Forth). */
    DEFINITION("definition"),
    /** A constant a committed submission defined in this session. */
    CONSTANT("constant"),
    /** A type a committed submission named ({@code type<T> name}, {@code (define-type name T)}): an alias of its structure. */
    NAMED_TYPE("named-type"),
    /** Source syntax such as {@code while}, {@code define} or {@code if}: a form, not a callable. */
    SYNTAX("syntax");

    private final String spelling;

    WordKind(String spelling) { this.spelling = spelling; }

    /** The JSON spelling. */
    public String spelling() { return spelling; }

    @Override public String toString() { return spelling; }
}
