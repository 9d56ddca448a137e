package dev.finch.vm;

import io.vavr.collection.Vector;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of an execution's response as an outcome records them: immutable and cheap to take at every pause (a
 * persistent sequence shared with earlier snapshots, like {@link Output}). The say text is not copied: a say entry
 * holds where its text ends in the execution's {@link Output}, and {@link #events} cuts it out when asked.
 *
 * <p>What is kept: every {@code say}, {@code output-open} and {@code output-close} in order, consecutive say chunks
 * joined into one {@link OutputEvent.Say}; between two of those, only the last {@code output-replace} and the last
 * {@code output-progress} of each handle (at the place of the first of its kind there). So a loop that replaces or
 * advances a handle costs a constant amount of the record, however long it runs; the live sink still sees every event.
 */
public final class OutputLog {
    /** No events (no entries: a run that records none loads no persistent collection's classes). */
    public static final OutputLog EMPTY = new OutputLog(null);

    /** A recorded entry: a say that ends at an offset of the output text, or an output-handle event. */
    public sealed interface Entry { }

    /** Say text up to {@code end} (UTF-16 units into the output), from the end of the previous say entry. */
    public record SayUpTo(int end) implements Entry { }

    /** An event of an output handle (never a say). */
    public record Handle(OutputEvent event) implements Entry { }

    /** The entries; null for {@link #EMPTY}. */
    private final Vector<Entry> entries;

    private OutputLog(Vector<Entry> entries) { this.entries = entries; }

    /** What the output-handle entries take in the record, in bytes ({@link OutputRecorder#size}). */
    public long handleBytes() {
        long n = 0;
        if (entries == null) return n;
        for (Entry e : entries) if (e instanceof Handle h) n += OutputRecorder.size(h.event());
        return n;
    }

    /** The number of recorded entries. */
    public int size() { return entries == null ? 0 : entries.size(); }

    /** The recorded events in order, say text cut from {@code text} (the execution's output, which this log indexes). */
    public List<OutputEvent> events(CharSequence text) {
        if (entries == null || entries.isEmpty()) return text.length() == 0 ? List.of() : List.of(new OutputEvent.Say(text.toString()));
        String all = text.toString();
        List<OutputEvent> out = new ArrayList<>(entries.size());
        int from = 0;
        for (Entry e : entries) {
            if (e instanceof SayUpTo s) {
                int end = Math.min(s.end(), all.length());
                if (end > from) out.add(new OutputEvent.Say(all.substring(from, end)));
                from = Math.max(from, end);
            } else {
                out.add(((Handle) e).event());
            }
        }
        if (from < all.length()) out.add(new OutputEvent.Say(all.substring(from)));
        return List.copyOf(out);
    }

    /** A log of {@code events} (say text given by the events themselves), as a saved run restores it. */
    public static OutputLog of(List<OutputEvent> events) {
        if (events.isEmpty()) return EMPTY;
        Vector<Entry> v = Vector.empty();
        int end = 0;
        for (OutputEvent e : events) {
            if (e instanceof OutputEvent.Say s) {
                end += s.text().length();
                v = v.append(new SayUpTo(end));
            } else {
                v = v.append(new Handle(e));
            }
        }
        return new OutputLog(v);
    }

    /** The recorded entries in order, as a saved run keeps them ({@link #ofEntries}). */
    public List<Entry> entries() { return entries == null ? List.of() : entries.asJava(); }

    /** The log of exactly {@code entries}, as {@link #entries()} gave them. */
    public static OutputLog ofEntries(List<Entry> entries) { return entries.isEmpty() ? EMPTY : new OutputLog(Vector.ofAll(entries)); }

    @Override public String toString() { return "OutputLog[" + size() + " entries]"; }

    /** This log with {@code e} appended. */
    OutputLog plus(Entry e) { return new OutputLog(entries == null ? Vector.of(e) : entries.append(e)); }

    /** This log with entry {@code index} replaced by {@code e}. */
    OutputLog with(int index, Entry e) { return new OutputLog(all().update(index, e)); }

    /** The last entry, or null. */
    Entry last() { return entries == null || entries.isEmpty() ? null : entries.last(); }

    /** The entry at {@code index}. */
    Entry get(int index) { return all().get(index); }

    private Vector<Entry> all() { return entries == null ? Vector.empty() : entries; }
}
