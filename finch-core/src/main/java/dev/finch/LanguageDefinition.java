package dev.finch;

import dev.finch.ir.vocab.SyntaxSpec;
import java.util.List;

/**
 * What {@code get_language_definition} reports: the grammar of Lisp, Co-Forth and µNorman and the compact type
 * spelling ({@code grammar}, a fixed text), the source syntax (from {@code dev.finch.ir.vocab.SourceSyntax}) and the
 * core words by category (from {@code dev.finch.ir.vocab.Vocabulary}, the one source of truth), and {@link #text()},
 * all of it as one document — or one language's part of it.
 */
public record LanguageDefinition(String protocol, String grammar, List<SyntaxSpec> syntax, List<Category> categories,
                                 String text) {
    public LanguageDefinition {
        syntax = List.copyOf(syntax);
        categories = List.copyOf(categories);
    }

    /** The core words of one vocabulary category, in documentation order. */
    public record Category(String name, List<WordSummary> words) {
        public Category { words = List.copyOf(words); }
    }
}
