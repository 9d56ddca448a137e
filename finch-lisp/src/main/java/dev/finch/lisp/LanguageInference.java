package dev.finch.lisp;

/** The contract's first-character rule for submissions that omit their language. */
public final class LanguageInference {
    private LanguageInference() { }

    /** {@code "lisp"} when the first non-whitespace character is {@code (}, otherwise {@code "forth"}. */
    public static String infer(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!Character.isWhitespace(cp)) return cp == '(' ? "lisp" : "forth";
            i += Character.charCount(cp);
        }
        return "forth";
    }
}
