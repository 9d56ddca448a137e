package dev.finch;

import dev.finch.ir.vocab.SyntaxSpec;
import java.util.List;

/**
 * What {@code get_language_definition} reports: the grammar of Lisp, Co-Forth and µNorman and the compact type
 * spelling ({@code grammar}, a fixed text), the source syntax (from {@code dev.finch.ir.vocab.SourceSyntax}) and the
 * core words by category (from {@code dev.finch.ir.vocab.Vocabulary}, the one source of truth), and {@link #text()},
 * all of it as one document — or one language's part of it. At {@link Detail#PRIMER} the same parts hold what the
 * primer selects from those sources: the grammar spans, the forms and the words it names.
 */
public record LanguageDefinition(String protocol, Detail detail, String grammar, List<SyntaxSpec> syntax, List<Category> categories,
                                 String text) {
    public LanguageDefinition {
        syntax = List.copyOf(syntax);
        categories = List.copyOf(categories);
    }

    /** How much of the language a definition holds. */
    public enum Detail {
        /** What a model needs on every turn (at most 12,000 characters for Lisp and Co-Forth, 6,000 for µNorman). */
        PRIMER,
        /** Everything: the whole grammar text, every form and every word. */
        FULL;

        /** The spelling of the tools' {@code detail} argument: {@code primer} or {@code full}. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        /** The detail spelled {@code s}, if any. */
        public static java.util.Optional<Detail> named(String s) {
            for (Detail d : values()) if (d.spelling().equals(s)) return java.util.Optional.of(d);
            return java.util.Optional.empty();
        }
    }

    /** The core words of one vocabulary category, in documentation order. */
    public record Category(String name, List<WordSummary> words) {
        public Category { words = List.copyOf(words); }
    }
}
