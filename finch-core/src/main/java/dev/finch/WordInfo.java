package dev.finch;

import dev.finch.ir.vocab.SyntaxSpec;
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

    /** Which of the variants this is. */
    WordKind kind();

    /**
     * A word of the shared vocabulary.
     *
     * @param signature all overloads joined by {@code |}, compact spelling
     * @param special   typed by a dedicated verifier rule (its signature is the documented shape only)
     * @param forms     the source syntax of the same name, in the languages that have a form of it (Lisp's
     *                  {@code (and a b)} short-circuits; Co-Forth's {@code and} is this word), often empty
     */
    record CoreWord(String name, String signature, List<String> overloads, String category, String doc, boolean special,
                    List<SyntaxSpec> forms) implements WordInfo {
        public CoreWord { overloads = List.copyOf(overloads); forms = List.copyOf(forms); }

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

    /** A named type of this session: the name and the structure it stands for (how it prints). */
    record NamedType(String name, String structure) implements WordInfo {
        @Override public WordKind kind() { return WordKind.NAMED_TYPE; }
    }

    /**
     * Source syntax: every form the name spells, one per language that has it (its name, or a part such as
     * {@code then}), each with its form, meaning and example. No signature, by design.
     */
    record Syntax(String name, List<SyntaxSpec> forms) implements WordInfo {
        public Syntax {
            forms = List.copyOf(forms);
            if (forms.isEmpty()) throw new IllegalArgumentException("syntax '" + name + "' has no form");
        }

        /** The languages that have a form of this name, in the order of {@link #forms()}. */
        public List<String> languages() { return forms.stream().flatMap(f -> f.languages().stream()).distinct().toList(); }

        /** The first form (the requested language's, when one was asked for). */
        public String form() { return forms.get(0).form(); }

        /** What the first form means. */
        public String doc() { return forms.get(0).doc(); }

        /** A runnable example of the first form. */
        public String example() { return forms.get(0).example(); }

        @Override public WordKind kind() { return WordKind.SYNTAX; }
    }
}
