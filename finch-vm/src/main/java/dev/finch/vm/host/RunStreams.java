package dev.finch.vm.host;

import dev.finch.capabilities.ConcretePath;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The streams one run holds open ({@code file-lines-open}, {@code csv-open}, {@code workbook-open}, …), by number. A
 * stream is what it reads and how far it has got — its kind, its file (and sheet), the number of items it has given —
 * so a paused run that holds one is saved with it ({@link #saved}) and its restored run opens the file again where the
 * stream had got to ({@link #restore}): the source is reopened on its first read there and the items already given
 * are skipped. Reading the rest of a file the run was allowed to open asks for nothing new.
 */
public final class RunStreams {
    /** What a stream reads: how its source opens. */
    public enum Kind {
        LINES("lines"), CSV("csv"), WORKBOOK("workbook");

        private final String spelling;

        Kind(String spelling) { this.spelling = spelling; }

        /** The name a stream value shows ({@code lines#1}). */
        public String spelling() { return spelling; }

        /** The kind spelled {@code s}. */
        public static Kind of(String s) {
            for (Kind k : values()) if (k.spelling.equals(s)) return k;
            throw new IllegalArgumentException("no stream kind '" + s + "'");
        }

        Source open(Ctx ctx, ConcretePath path, String sheet) throws HostFailure {
            return switch (this) {
                case LINES -> HostWords.linesSource(ctx, path);
                case CSV -> HostWords.csvSource(ctx, path);
                case WORKBOOK -> WorkbookWords.rowsSource(ctx, path, sheet);
            };
        }
    }

    /** A source of stream items; closed by stream-close or at the end of the run. */
    public interface Source extends AutoCloseable {
        /** The next item as an option (none at the end). */
        Object next(Origin o);

        @Override void close();
    }

    /** An open stream as a saved run keeps it: its number, what it reads, and how many items it has given. */
    public record Saved(long id, Kind kind, ConcretePath path, String sheet, long taken) { }

    /** One open stream: its source (null until it is reopened in a restored run) and how far it has got. */
    private static final class Open {
        final Kind kind;
        final ConcretePath path;
        final String sheet;
        Source source;
        long taken;

        Open(Kind kind, ConcretePath path, String sheet, Source source, long taken) {
            this.kind = kind;
            this.path = path;
            this.sheet = sheet;
            this.source = source;
            this.taken = taken;
        }
    }

    private final Map<Long, Open> open = new LinkedHashMap<>();
    private long last;

    /** Holds {@code source}, just opened on {@code path}, as a new stream; answers its number. */
    long add(Kind kind, ConcretePath path, String sheet, Source source) {
        long id = ++last;
        open.put(id, new Open(kind, path, sheet, source, 0));
        return id;
    }

    /** Whether stream {@code id} is open. */
    boolean isOpen(long id) { return open.containsKey(id); }

    /** The next item of open stream {@code id}, reopening its source first in a restored run. */
    Object next(Ctx ctx, long id, Origin at) {
        Open s = open.get(id);
        if (s.source == null) reopen(ctx, s, at);
        Object item = s.source.next(at);
        if (item instanceof OptionValue o && o.isSome()) s.taken++;
        return item;
    }

    /** Closes stream {@code id}; false when it is not open. */
    boolean close(long id) {
        Open s = open.remove(id);
        if (s == null) return false;
        if (s.source != null) s.source.close();
        return true;
    }

    /** Closes every stream (at the end of the run). */
    void closeAll() {
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

    /** The open streams as a saved run keeps them, in opening order. */
    public List<Saved> saved() {
        List<Saved> out = new ArrayList<>();
        open.forEach((id, s) -> out.add(new Saved(id, s.kind, s.path, s.sheet, s.taken)));
        return out;
    }

    /** The number of the last stream opened (0: none). */
    public long last() { return last; }

    /** Restores the streams of a saved run: each opens its file again at its first read. */
    public void restore(List<Saved> saved, long lastOpened) {
        open.clear();
        for (Saved s : saved) open.put(s.id(), new Open(s.kind(), s.path(), s.sheet(), null, s.taken()));
        last = lastOpened;
    }

    private static void reopen(Ctx ctx, Open s, Origin at) {
        Source source;
        try {
            source = s.kind.open(ctx, s.path, s.sheet);
        } catch (HostFailure f) {
            throw new FinchTrap(f.code(), at, "the run was restored and its " + s.kind.spelling() + " stream of " + s.path
                    + " could not be opened again: " + f.getMessage());
        }
        try {
            for (long i = 0; i < s.taken; i++) {
                Object skipped = source.next(at);
                if (!(skipped instanceof OptionValue o && o.isSome())) {
                    throw new FinchTrap(HostCode.IO, at, "the run was restored and " + s.path + " has fewer items than its "
                            + s.kind.spelling() + " stream had read (" + s.taken + "): the file changed");
                }
            }
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
        s.source = source;
    }
}
