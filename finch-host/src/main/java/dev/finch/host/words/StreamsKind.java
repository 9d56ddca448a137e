package dev.finch.host.words;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.vm.boundary.RunState;

/**
 * The run-state kind of a run's streams ({@link RunStreams#KIND}), a class of its own: the library registers it when it
 * is built, and loading it loads neither {@link RunStreams} nor the JSON types its saved form uses — a fresh JVM whose
 * first program opens no stream never loads them.
 */
final class StreamsKind implements RunState.Kind<RunStreams> {
    static final StreamsKind INSTANCE = new StreamsKind();

    private StreamsKind() { }

    @Override public String name() { return "streams"; }

    @Override public RunStreams fresh() { return RunStreams.fresh(); }

    @Override public RunStreams restore(JsonNode saved) { return RunStreams.restore(saved); }
}
