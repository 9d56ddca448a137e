package dev.finch.vm;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Receives a run's response as it executes (called on the run's thread): every {@code say} chunk, and every event of
 * its output handles, in order ({@link #event}). A sink that only wants text implements {@link #say}; one that wants
 * the typed events overrides {@link #event} (or is made by {@link #events}).
 *
 * <p>A host refuses a kind of event with {@link #accepts}: the run asks before it records or delivers an event, and
 * the word that would make a refused one ({@code say}, {@code output-open}, …) fails with {@code E-OUTPUT-002};
 * nothing of it is recorded.
 */
@FunctionalInterface
public interface OutputSink {
    OutputSink NONE = new NoOutput();

    /** A {@code say} chunk (what {@link #event} delivers for {@link OutputEvent.Say} unless overridden). */
    void say(String chunk);

    /** One event of the run's response; by default a say chunk goes to {@link #say} and the others are ignored. */
    default void event(OutputEvent event) {
        if (event instanceof OutputEvent.Say s) say(s.text());
    }

    /** Whether this host takes events of {@code kind}; a refused kind fails the word that makes it ({@code E-OUTPUT-002}). */
    default boolean accepts(OutputEvent.Kind kind) { return true; }

    /** A sink that hands every event to {@code events}, accepting every kind. */
    static OutputSink events(Consumer<OutputEvent> events) {
        Objects.requireNonNull(events, "events");
        return new OutputSink() {
            @Override public void say(String chunk) { events.accept(new OutputEvent.Say(chunk)); }
            @Override public void event(OutputEvent event) { events.accept(event); }
        };
    }

    /** This sink, refusing the events of {@code refused} kinds (a host's policy: the words that make them fail). */
    default OutputSink refusing(java.util.Set<OutputEvent.Kind> refused) {
        java.util.Set<OutputEvent.Kind> no = java.util.Set.copyOf(refused);
        OutputSink self = this;
        return new OutputSink() {
            @Override public void say(String chunk) { self.say(chunk); }
            @Override public void event(OutputEvent event) { self.event(event); }
            @Override public boolean accepts(OutputEvent.Kind kind) { return !no.contains(kind) && self.accepts(kind); }
        };
    }
}
