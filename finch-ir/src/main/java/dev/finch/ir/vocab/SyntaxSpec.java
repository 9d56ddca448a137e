package dev.finch.ir.vocab;

import java.util.List;

/**
 * A piece of source syntax ({@code if}, {@code while}, {@code define}, …). Reported by discovery tools without a
 * runtime signature, because it has none.
 */
public record SyntaxSpec(String name, List<String> languages, String form, String doc) {
    public SyntaxSpec { languages = List.copyOf(languages); }
}
