package dev.finch.vm;

/** {@link OutputSink#NONE}: drops every chunk. A class, not a lambda: a fresh JVM's first submission loads it. */
final class NoOutput implements OutputSink {
    @Override
    public void say(String chunk) { }
}
