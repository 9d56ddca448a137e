package dev.finch.vm;

import java.util.Objects;

/**
 * One event of a run's response, in the order the run made it: a {@code say} chunk, or an event of a host-issued
 * output handle ({@code output-open}, {@code output-replace}, {@code output-progress}, {@code output-close}; the
 * contract's "rich replaceable/progress output"). A handle is named by its number within the run ({@code 1, 2, …} in
 * {@code output-open} order). The live {@link OutputSink} sees every event; an outcome records them with replaces and
 * progress coalesced ({@link OutputLog}).
 */
public sealed interface OutputEvent {
    /** The event kinds, for exhaustive switches and a host's refusal policy ({@link OutputSink#accepts}). */
    enum Kind {
        SAY, OPEN, REPLACE, PROGRESS, CLOSE;

        /** The JSON spelling: lowercase. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    Kind kind();

    /** Text appended to the response, exactly as said. */
    record Say(String text) implements OutputEvent {
        public Say { Objects.requireNonNull(text, "text"); }
        @Override public Kind kind() { return Kind.SAY; }
    }

    /** A handle was opened with a label (what a host shows beside it). */
    record Open(long handle, String label) implements OutputEvent {
        public Open { Objects.requireNonNull(label, "label"); }
        @Override public Kind kind() { return Kind.OPEN; }
    }

    /** The handle's text is now {@code text} (it replaces the previous text, not appends). */
    record Replace(long handle, String text) implements OutputEvent {
        public Replace { Objects.requireNonNull(text, "text"); }
        @Override public Kind kind() { return Kind.REPLACE; }
    }

    /** The handle's work is {@code done} of {@code total} ({@code 0 <= done <= total}, {@code total >= 1}). */
    record Progress(long handle, long done, long total) implements OutputEvent {
        @Override public Kind kind() { return Kind.PROGRESS; }
    }

    /** The handle was closed (by {@code output-close}, or by the VM when its run ended with it open). */
    record Close(long handle) implements OutputEvent {
        @Override public Kind kind() { return Kind.CLOSE; }
    }
}
