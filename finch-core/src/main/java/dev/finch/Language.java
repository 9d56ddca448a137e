package dev.finch;

import java.util.Locale;
import java.util.Optional;

/** A source language Finch accepts, with the file-name and inference rules of decisions D3. */
public enum Language {
    LISP("lisp"), FORTH("forth"), NORMAN("norman");

    private final String spelling;

    Language(String spelling) { this.spelling = spelling; }

    /** The name recorded in outcomes and accepted by {@code --lang}. */
    public String spelling() { return spelling; }

    @Override public String toString() { return spelling; }

    /** The language called {@code name} ({@code lisp}, {@code forth}, {@code norman}), if any. */
    public static Optional<Language> named(String name) {
        if (name == null) return Optional.empty();
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (Language l : values()) if (l.spelling.equals(n)) return Optional.of(l);
        return Optional.empty();
    }

    /** The language a file name implies (D3: .lisp, .fth/.forth, .nm/.norman), if its extension says. */
    public static Optional<Language> forFileName(String fileName) {
        if (fileName == null) return Optional.empty();
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".lisp")) return Optional.of(LISP);
        if (n.endsWith(".fth") || n.endsWith(".forth")) return Optional.of(FORTH);
        if (n.endsWith(".nm") || n.endsWith(".norman")) return Optional.of(NORMAN);
        return Optional.empty();
    }

    /**
     * The contract's rule for a submission that does not name its language: Lisp exactly when the first
     * non-whitespace character is {@code (}, otherwise Co-Forth.
     */
    public static Language infer(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (!Character.isWhitespace(c)) return c == '(' ? LISP : FORTH;
            i += Character.charCount(c);
        }
        return FORTH;
    }
}
