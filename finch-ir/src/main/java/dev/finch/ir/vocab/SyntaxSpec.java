package dev.finch.ir.vocab;

import java.util.List;

/**
 * A piece of source syntax of one language ({@code if}, {@code while}, {@code define}, …). Reported by discovery tools
 * without a runtime signature, because it has none.
 *
 * @param name      what the form is looked up by (its opening keyword)
 * @param languages the languages whose grammar has this form ({@code forth}, {@code lisp}, {@code norman})
 * @param form      the form's shape, in the language's own spelling
 * @param doc       what it means, in one line
 * @param example   a short complete program (µNorman: a file) that uses it and runs
 * @param parts     the form's other keywords ({@code else}, {@code then}, …), which look it up too
 * @param aka       what other languages spell this form ({@code do … loop} for Co-Forth's {@code begin}): an unknown
 *                  name among them is answered with this form, by meaning ({@link SourceSyntax#byMeaning})
 */
public record SyntaxSpec(String name, List<String> languages, String form, String doc, String example, List<String> parts, List<String> aka) {
    public SyntaxSpec {
        languages = List.copyOf(languages);
        parts = List.copyOf(parts);
        aka = List.copyOf(aka);
    }

    /** Whether {@code word} names this form: its name or one of its parts. */
    public boolean spells(String word) { return name.equals(word) || parts.contains(word); }
}
