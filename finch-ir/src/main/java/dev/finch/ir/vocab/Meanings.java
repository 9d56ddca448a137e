package dev.finch.ir.vocab;

import java.util.ArrayList;
import java.util.List;

/**
 * What Finch calls what other languages name differently: an unknown name that a word's or a form's {@code aka} lists
 * ({@code display}, {@code print} and Forth's {@code .} are {@code say}; Scheme's {@code car} is {@code list-uncons};
 * Forth's {@code do … loop} is {@code begin … while … repeat}). Read from the vocabulary and the syntax table, the one
 * place each word and form is declared, so every frontend's "unknown name" and discovery answer alike.
 */
public final class Meanings {
    private Meanings() { }

    /**
     * Finch's spellings of {@code name}, as they are shown to a model: each word as {@code name : signature}, each form
     * of {@code language} by its form; empty when nothing declares it.
     */
    public static List<String> of(String name, String language, Vocabulary vocabulary) {
        List<String> out = new ArrayList<>();
        for (WordSpec w : vocabulary.byMeaning(name)) out.add(w.name() + " : " + w.signatureText());
        for (SyntaxSpec s : SourceSyntax.byMeaning(name, language)) out.add(s.form());
        return out;
    }

    /**
     * The sentence suffix that answers an unknown name by meaning — {@code ; in Finch that is `say : string -> ! {session.emit}`}
     * — or empty.
     */
    public static String hint(String name, String language, Vocabulary vocabulary) {
        List<String> found = of(name, language, vocabulary);
        if (found.isEmpty()) return "";
        StringBuilder b = new StringBuilder("; in Finch that is ");
        for (int i = 0; i < found.size(); i++) {
            if (i > 0) b.append(i == found.size() - 1 ? " or " : ", ");
            b.append('`').append(found.get(i)).append('`');
        }
        return b.toString();
    }
}
