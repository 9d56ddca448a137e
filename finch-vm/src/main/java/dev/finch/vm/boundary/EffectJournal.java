package dev.finch.vm.boundary;

import java.util.ArrayList;
import java.util.List;

/**
 * The run's effect journal: one entry per awaited request, keyed by sequence, moving from {@code requested} to
 * {@code dispatched} and then to a terminal {@code acknowledged}, {@code denied} or {@code cancelled}. A
 * sequence is dispatched at most once; the journal is what proves it. It records each request's
 * {@link EffectRequest#receipt() receipt} (the envelope without its argument values).
 */
public final class EffectJournal {
    /** The states of an entry. */
    public enum State { REQUESTED, DISPATCHED, ACKNOWLEDGED, DENIED, CANCELLED }

    /** One request (a receipt, when it is the journal's) and its state. */
    public record Entry(EffectRequest request, State state) { }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void record(EffectRequest full, State state) {
        EffectRequest request = full.receipt();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).request().sequence() == request.sequence()) { entries.set(i, new Entry(request, state)); return; }
        }
        entries.add(new Entry(request, state));
    }

    /** The state of {@code sequence}, if it was requested. */
    public synchronized java.util.Optional<State> state(long sequence) {
        return entries.stream().filter(e -> e.request().sequence() == sequence).map(Entry::state).findFirst();
    }

    /** Every entry, in sequence order. */
    public synchronized List<Entry> entries() { return List.copyOf(entries); }

    /** How many requests were dispatched to a binding (acknowledged after dispatch included). */
    public synchronized long dispatchCount() {
        return entries.stream().filter(e -> e.state() == State.DISPATCHED || e.state() == State.ACKNOWLEDGED).count();
    }
}
