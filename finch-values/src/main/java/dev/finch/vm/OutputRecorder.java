package dev.finch.vm;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The mutable side of one execution's {@link OutputLog} and its open output handles, kept by the run's root context
 * (on the thread that holds the run's baton). It knows what each event adds to the record, so that the run can charge
 * it to the output limit before recording it ({@link #cost}).
 */
public final class OutputRecorder {
    /** What an output-handle event costs in the record besides its text: a host's bookkeeping is not free. */
    public static final int EVENT_BYTES = 16;
    /** How many output handles a run may hold open at once. */
    public static final int MAX_OPEN = 1_000;

    private OutputLog log = OutputLog.EMPTY;
    /** Whether say text follows the last recorded entry (its end is the output's length when it is next needed). */
    private boolean sayOpen;
    /** Between two say/open/close entries: where the replace and the progress of each handle are ({@code handle*2+kind}). */
    private final Map<Long, Integer> segment = new HashMap<>();
    /** The open handles, in opening order, with their labels. */
    private final Map<Long, String> open = new LinkedHashMap<>();
    private long lastHandle;

    /** Say text was appended; it will end where the output ends when the next entry or snapshot needs it. */
    public void said() {
        if (!sayOpen) {
            sayOpen = true;
            segment.clear();
        }
    }

    /** What recording {@code e} adds to the record, in bytes (may be negative: a shorter replace of a coalesced one). */
    public long cost(OutputEvent e) {
        Integer at = e instanceof OutputEvent.Say ? null : sayOpen ? null : segment.get(slot(e));
        long size = size(e);
        if (at == null) return size;
        return size - size(((OutputLog.Handle) log.get(at)).event());
    }

    /** Records an output-handle event; {@code outputEnd} is the length of the output text so far. */
    public void record(OutputEvent e, int outputEnd) {
        if (e instanceof OutputEvent.Say) throw new IllegalArgumentException("say text is recorded by said()");
        if (sayOpen) {
            log = log.plus(new OutputLog.SayUpTo(outputEnd));
            sayOpen = false;
        }
        switch (e.kind()) {
            case OPEN, CLOSE -> {
                segment.clear();
                log = log.plus(new OutputLog.Handle(e));
            }
            case REPLACE, PROGRESS -> {
                Integer at = segment.get(slot(e));
                if (at != null) {
                    log = log.with(at, new OutputLog.Handle(e));
                } else {
                    segment.put(slot(e), log.size());
                    log = log.plus(new OutputLog.Handle(e));
                }
            }
            case SAY -> throw new AssertionError();
        }
    }

    /** The record so far, as an immutable snapshot; {@code outputEnd} is the length of the output text so far. */
    public OutputLog snapshot(int outputEnd) { return sayOpen ? log.plus(new OutputLog.SayUpTo(outputEnd)) : log; }

    /**
     * Everything this recorder holds, as a paused run saves it: the record's entries, whether say text follows the last
     * of them, where each handle's replace and progress are since the last say/open/close ({@code handle*2+kind} → entry),
     * the open handles with their labels in opening order, and the last handle's number.
     */
    public record State(OutputLog log, boolean sayOpen, Map<Long, Integer> segment, Map<Long, String> open, long lastHandle) {
        public State {
            segment = Map.copyOf(segment);
            open = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(open));
        }
    }

    /** This recorder's state ({@link State}). */
    public State state() { return new State(log, sayOpen, segment, open, lastHandle); }

    /** Restores the state of a run saved in another process: it records on exactly as it would have there. */
    public void restore(State saved) {
        log = saved.log();
        sayOpen = saved.sayOpen();
        segment.clear();
        segment.putAll(saved.segment());
        open.clear();
        open.putAll(saved.open());
        lastHandle = saved.lastHandle();
    }

    /** A new handle's number, recorded as open with {@code label}; null when {@link #MAX_OPEN} are open. */
    public Long open(String label) {
        if (open.size() >= MAX_OPEN) return null;
        long id = ++lastHandle;
        open.put(id, label);
        return id;
    }

    /** Whether handle {@code id} is open. */
    public boolean isOpen(long id) { return open.containsKey(id); }

    /** The label of open handle {@code id}. */
    public String label(long id) { return open.get(id); }

    /** Marks handle {@code id} closed. */
    public void close(long id) { open.remove(id); }

    /** The open handles, in opening order. */
    public java.util.List<Long> openHandles() { return java.util.List.copyOf(open.keySet()); }

    /** The number of the last handle opened (0: none). */
    public long lastHandle() { return lastHandle; }

    private static long slot(OutputEvent e) {
        if (e instanceof OutputEvent.Replace r) return r.handle() * 2;
        if (e instanceof OutputEvent.Progress p) return p.handle() * 2 + 1;
        return -1;
    }

    /** The bytes an event takes in the record: its text's UTF-8 bytes, plus {@link #EVENT_BYTES} for a handle's. */
    static long size(OutputEvent e) {
        return switch (e.kind()) {
            case SAY -> dev.finch.vm.value.Sizes.utf8(((OutputEvent.Say) e).text());
            case OPEN -> EVENT_BYTES + dev.finch.vm.value.Sizes.utf8(((OutputEvent.Open) e).label());
            case REPLACE -> EVENT_BYTES + dev.finch.vm.value.Sizes.utf8(((OutputEvent.Replace) e).text());
            case PROGRESS, CLOSE -> EVENT_BYTES;
        };
    }
}
