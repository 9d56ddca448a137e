package dev.finch;

import java.util.Objects;

/**
 * One line of a search or vocabulary listing.
 *
 * @param summary the signature of a word or definition, the type of a constant, the form of syntax
 */
public record WordSummary(String name, WordKind kind, String summary, String doc) {
    public WordSummary {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        summary = summary == null ? "" : summary;
        doc = doc == null ? "" : doc;
    }
}
