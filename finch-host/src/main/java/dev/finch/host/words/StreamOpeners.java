package dev.finch.host.words;

import dev.finch.capabilities.ConcretePath;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.runtime.Ctx;

/**
 * The openers of the host words' own streams, in a class of their own: the library registers them when it is built,
 * and loading them initialises none of the host words (a fresh JVM's first program may use none).
 */
final class StreamOpeners {
    private StreamOpeners() { }

    /** Line streams: {@code file-lines-open}'s, reopened where they had got to in a restored run. */
    static final RunStreams.Opener LINES = new Lines();

    /** CSV streams: {@code csv-open}'s. */
    static final RunStreams.Opener CSV = new Csv();

    private static final class Lines implements RunStreams.Opener {
        @Override public String kind() { return "lines"; }

        @Override public RunStreams.Source open(Ctx ctx, ConcretePath path, String sheet) throws HostFailure { return HostWords.linesSource(ctx, path); }
    }

    private static final class Csv implements RunStreams.Opener {
        @Override public String kind() { return "csv"; }

        @Override public RunStreams.Source open(Ctx ctx, ConcretePath path, String sheet) throws HostFailure { return HostWords.csvSource(ctx, path); }
    }
}
