package dev.finch.ir;

import dev.finch.ir.checked.Environment;

/**
 * A source language's frontend: parses and lowers one submission into IR. Implementations never throw for
 * anything a program can contain; every problem is a diagnostic in the {@link Lowering}.
 */
public interface Frontend {
    /** The language name recorded in outcomes ({@code forth}, {@code lisp}, {@code norman}). */
    String language();

    /**
     * Lowers {@code text}. {@code sourceId} is the host-attached source identity that every origin carries;
     * {@code env} is the session dictionary and stack, for frontends that type their source themselves.
     */
    Lowering lower(String text, String sourceId, Environment env);
}
