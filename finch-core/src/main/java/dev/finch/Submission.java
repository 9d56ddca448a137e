package dev.finch;

import dev.finch.vm.OutputSink;
import dev.finch.vm.boundary.EffectObserver;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One program submitted to a session. The source identity is attached by the host (a script path, a provider
 * response id, an editor buffer) and is never taken from the program text, so a program cannot forge its
 * provenance. A submission may state the VM revision and manifest generation it was composed against; a stale
 * one is refused before it runs.
 *
 * @param text               the program text
 * @param language           the language, or null to infer it (from the source id's extension, else: first
 *                           non-whitespace {@code (} means Lisp)
 * @param sourceId           the host-attached source identity, carried by every origin
 * @param expectedRevision   the VM revision the program was composed against, if stated
 * @param expectedGeneration the manifest generation the program was composed against, if stated
 * @param sink               receives {@code say} chunks as they execute
 * @param observers          per-run effect observers: each awaited host request before authorization, and each
 *                           terminal journal state
 */
public record Submission(String text, Language language, String sourceId, OptionalLong expectedRevision,
                         OptionalLong expectedGeneration, OutputSink sink, java.util.List<EffectObserver> observers) {
    public Submission(String text, Language language, String sourceId, OptionalLong expectedRevision,
                      OptionalLong expectedGeneration, OutputSink sink) {
        this(text, language, sourceId, expectedRevision, expectedGeneration, sink, java.util.List.of());
    }

    public Submission {
        observers = java.util.List.copyOf(observers);
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(expectedRevision, "expectedRevision");
        Objects.requireNonNull(expectedGeneration, "expectedGeneration");
        if (sink == null) sink = OutputSink.NONE;
    }

    /** A submission of {@code text} from {@code sourceId}, language inferred, no expectations, output not streamed. */
    public static Submission of(String text, String sourceId) {
        return new Submission(text, null, sourceId, OptionalLong.empty(), OptionalLong.empty(), OutputSink.NONE);
    }

    /** This submission in an explicit language (null: infer). */
    public Submission withLanguage(Language lang) {
        return new Submission(text, lang, sourceId, expectedRevision, expectedGeneration, sink, observers);
    }

    /** This submission, refused unless the session is still at {@code revision} and {@code generation}. */
    public Submission expecting(long revision, long generation) {
        return new Submission(text, language, sourceId, OptionalLong.of(revision), OptionalLong.of(generation), sink, observers);
    }

    /** This submission, streaming {@code say} chunks to {@code out}. */
    public Submission withSink(OutputSink out) {
        return new Submission(text, language, sourceId, expectedRevision, expectedGeneration, out, observers);
    }

    /** This submission with one more effect observer for its run. */
    public Submission withObserver(EffectObserver observer) {
        java.util.List<EffectObserver> all = new java.util.ArrayList<>(observers);
        all.add(observer);
        return new Submission(text, language, sourceId, expectedRevision, expectedGeneration, sink, all);
    }

    /**
     * The language this submission runs in: the stated one; else the one its source id's extension names
     * ({@code .nm}/{@code .norman}, {@code .lisp}, {@code .fth}/{@code .forth}, decisions D3); else the contract's
     * inference from the text.
     */
    public Language resolvedLanguage() {
        if (language != null) return language;
        Optional<Language> named = Language.forFileName(sourceId);
        return named.isPresent() ? named.get() : Language.infer(text);
    }
}
