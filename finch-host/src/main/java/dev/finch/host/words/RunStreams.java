package dev.finch.host.words;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.ConcretePath;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.boundary.RunState;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.StreamValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The streams one run holds open ({@code file-lines-open}, {@code csv-open}, {@code workbook-open}, …), by number: a
 * {@link RunState} of the run's boundary. A stream is what it reads and how far it has got — its kind, its file (and
 * sheet), the number of items it has given — so a paused run that holds one is saved with it ({@link #save}) and its
 * restored run opens the file again where the stream had got to: the source is reopened on its first read there, by the
 * {@link Opener} of its kind (a word library's extension), and the items already given are skipped. Reading the rest of
 * a file the run was allowed to open asks for nothing new.
 */
public final class RunStreams implements RunState {
    /** The run state's kind: every run's streams. */
    public static final RunState.Kind<RunStreams> KIND = StreamsKind.INSTANCE;

    /** A source of stream items; closed by stream-close or at the end of the run. */
    public interface Source extends AutoCloseable {
        /** The next item as an option (none at the end). */
        Object next(Origin o);

        @Override void close();
    }

    /** How one kind of stream opens its source (a word library's extension, named by the kind a stream value shows). */
    public interface Opener {
        /** The kind's name ({@code lines}, {@code csv}, {@code workbook}, …): what a stream value shows ({@code lines#1}). */
        String kind();

        /** A new source reading {@code path} (and {@code sheet}, when the kind has sheets). */
        Source open(Ctx ctx, ConcretePath path, String sheet) throws HostFailure;
    }

    /** One open stream: its source (null until it is reopened in a restored run) and how far it has got. */
    private static final class Open {
        final String kind;
        final ConcretePath path;
        final String sheet;
        Source source;
        long taken;

        Open(String kind, ConcretePath path, String sheet, Source source, long taken) {
            this.kind = kind;
            this.path = path;
            this.sheet = sheet;
            this.source = source;
            this.taken = taken;
        }
    }

    private final Map<Long, Open> open = new LinkedHashMap<>();
    private long last;

    /** A run's streams before it opens any. */
    static RunStreams fresh() { return new RunStreams(); }

    /** The streams of {@code ctx}'s run. */
    public static RunStreams of(Ctx ctx) { return RunHost.of(ctx).state(KIND); }

    /** Holds {@code source}, just opened by {@code opener} on {@code path}, as a new stream of {@code ctx}'s run: its value. */
    public static StreamValue open(Ctx ctx, Opener opener, ConcretePath path, String sheet, Source source) {
        RunStreams streams = of(ctx);
        long id = ++streams.last;
        streams.open.put(id, new Open(opener.kind(), path, sheet, source, 0));
        return new StreamValue(RunHost.of(ctx).executionId(), id, opener.kind());
    }

    /** Whether stream {@code id} is open. */
    public boolean isOpen(long id) { return open.containsKey(id); }

    /** The next item of open stream {@code id}, reopening its source first in a restored run. */
    public Object next(Ctx ctx, long id, Origin at) {
        Open s = open.get(id);
        if (s.source == null) reopen(ctx, s, at);
        Object item = s.source.next(at);
        if (item instanceof OptionValue o && o.isSome()) s.taken++;
        return item;
    }

    /** Closes stream {@code id}; false when it is not open. */
    public boolean close(long id) {
        Open s = open.remove(id);
        if (s == null) return false;
        if (s.source != null) s.source.close();
        return true;
    }

    @Override public void close() {
        for (Open s : open.values()) {
            if (s.source == null) continue;
            try {
                s.source.close();
            } catch (RuntimeException ignored) {
                // Best effort at the end of a run.
            }
        }
        open.clear();
    }

    /** {@code {"last":n,"open":[{"id","kind","path","sheet"?,"taken"}…]}}: what each reads and how far it has got. */
    @Override public JsonNode save() {
        if (last == 0) return null;
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("last", last);
        ArrayNode streams = o.putArray("open");
        open.forEach((id, s) -> {
            ObjectNode st = streams.addObject().put("id", id).put("kind", s.kind).put("path", s.path.toString()).put("taken", s.taken);
            if (s.sheet != null) st.put("sheet", s.sheet);
        });
        return o;
    }

    static RunStreams restore(JsonNode saved) {
        RunStreams r = new RunStreams();
        r.last = saved.path("last").asLong(0);
        for (JsonNode o : saved.path("open")) {
            var path = ConcretePath.parse(o.path("path").asText());
            if (!path.isOk() || !o.path("kind").isTextual()) throw new IllegalArgumentException("a saved stream has no readable path or kind");
            r.open.put(o.get("id").asLong(), new Open(o.get("kind").asText(), path.value(), o.has("sheet") ? o.get("sheet").asText() : null, null,
                    o.path("taken").asLong()));
        }
        return r;
    }

    private static void reopen(Ctx ctx, Open s, Origin at) {
        Opener opener = null;
        for (Opener o : dev.finch.vm.word.Extensions.all(Opener.class)) if (o.kind().equals(s.kind)) opener = o;
        if (opener == null) {
            throw new FinchTrap(HostCode.IO, at, "the run was restored and its " + s.kind + " stream of " + s.path
                    + " cannot be opened again: no word library here reads " + s.kind + " streams");
        }
        Source source;
        try {
            source = opener.open(ctx, s.path, s.sheet);
        } catch (HostFailure f) {
            throw new FinchTrap(f.code(), at, "the run was restored and its " + s.kind + " stream of " + s.path
                    + " could not be opened again: " + f.getMessage());
        }
        try {
            for (long i = 0; i < s.taken; i++) {
                Object skipped = source.next(at);
                if (!(skipped instanceof OptionValue o && o.isSome())) {
                    throw new FinchTrap(HostCode.IO, at, "the run was restored and " + s.path + " has fewer items than its "
                            + s.kind + " stream had read (" + s.taken + "): the file changed");
                }
            }
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
        s.source = source;
    }
}
