package dev.finch.vm;

/** Receives {@code say} chunks in order, as they execute (called on the run's thread). */
@FunctionalInterface
public interface OutputSink {
    OutputSink NONE = chunk -> { };

    void say(String chunk);
}
