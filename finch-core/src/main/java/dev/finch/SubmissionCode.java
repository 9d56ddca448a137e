package dev.finch;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** What is wrong with a submission's text as a whole, before any frontend reads it. */
public enum SubmissionCode implements DiagnosticCode {
    MARKDOWN_FENCE("E-SUBMIT-001", "The submission starts with a Markdown code fence (``` or ~~~): submit the program itself, without the fence and its language tag.");

    private final String code;
    private final String meaning;

    SubmissionCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.PARSE; }

    @Override public String meaning() { return meaning; }

    /** The diagnostic of a submission that starts with a Markdown fence, or null when it does not. */
    static dev.finch.ir.diag.Diagnostic fenced(String text, String sourceId) {
        int i = 0;
        int line = 1, column = 1;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            if (text.charAt(i) == '\n') { line++; column = 1; } else column++;
            i++;
        }
        if (!text.startsWith("```", i) && !text.startsWith("~~~", i)) return null;
        int end = text.indexOf('\n', i);
        String fence = text.substring(i, end < 0 ? text.length() : end).strip();
        return MARKDOWN_FENCE.at(dev.finch.ir.diag.Origin.of(sourceId, line, column), "the submission starts with the Markdown fence `"
                + (fence.length() > 40 ? fence.substring(0, 40) + "…" : fence) + "`: submit the program itself, without the fence lines", "a program", fence);
    }
}
