package dev.finch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Session#inspectWord} reports about one name. Core words and definitions carry a signature; a
 * constant carries its type and value; {@link Syntax} deliberately has no signature (contract: source syntax is
 * reported without a pretend runtime signature).
 */
public sealed interface WordInfo {
    /** The name inspected. */
    String name();

    /** Which of the four variants this is. */
    WordKind kind();

    /**
     * A word of the shared vocabulary.
     *
     * @param signature all overloads joined by {@code |}, compact spelling
     * @param special   typed by a dedicated verifier rule (its signature is the documented shape only)
     */
    record CoreWord(String name, String signature, List<String> overloads, String category, String doc, boolean special)
            implements WordInfo {
        public CoreWord { overloads = List.copyOf(overloads); }

        @Override public WordKind kind() { return WordKind.CORE_WORD; }
    }

    /**
     * A persisted definition of this session.
     *
     * @param source the definition as canonical Co-Forth (whatever language defined it), when the VM kept its IR
     */
    record Definition(String name, String signature, Optional<String> source) implements WordInfo {
        public Definition { Objects.requireNonNull(source, "source"); }

        @Override public WordKind kind() { return WordKind.DEFINITION; }
    }

    /** A persisted constant: its compact type and its display (decisions D4). */
    record Constant(String name, String type, String display) implements WordInfo {
        @Override public WordKind kind() { return WordKind.CONSTANT; }
    }

    /** Source syntax: the languages that have it, its form and what it does. No signature, by design. */
    record Syntax(String name, List<String> languages, String form, String doc) implements WordInfo {
        public Syntax { languages = List.copyOf(languages); }

        @Override public WordKind kind() { return WordKind.SYNTAX; }
    }
}
