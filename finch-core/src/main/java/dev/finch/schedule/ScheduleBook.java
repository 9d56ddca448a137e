package dev.finch.schedule;

import dev.finch.store.FinchStore;
import dev.finch.store.Schedules;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** Where a scheduler keeps its schedules: the Finch's store (they outlive the process) or itself (they end with it). */
sealed interface ScheduleBook permits ScheduleBook.Stored, ScheduleBook.Local {
    void add(Schedules.Schedule s);

    Optional<Schedules.Schedule> find(String id);

    List<Schedules.Schedule> all();

    /** Records run {@code runs} of {@code id} if it had made {@code runs - 1}; false when it is gone or the run was recorded already. */
    boolean ran(String id, long runs, Instant at);

    boolean remove(String id);

    /** In a store. */
    record Stored(FinchStore store) implements ScheduleBook {
        @Override public void add(Schedules.Schedule s) { store.schedules().add(s); }

        @Override public Optional<Schedules.Schedule> find(String id) { return store.schedules().find(id); }

        @Override public List<Schedules.Schedule> all() { return store.schedules().all(); }

        @Override public boolean ran(String id, long runs, Instant at) { return store.schedules().ran(id, runs, at); }

        @Override public boolean remove(String id) { return store.schedules().remove(id); }
    }

    /** In this scheduler only, at most {@code max} of them. */
    final class Local implements ScheduleBook {
        private final ConcurrentSkipListMap<String, Schedules.Schedule> schedules = new ConcurrentSkipListMap<>();
        private final int max;

        Local(int max) { this.max = max; }

        @Override public synchronized void add(Schedules.Schedule s) {
            if (schedules.size() >= max) throw new StoreException(StoreCode.TOO_LARGE, "this Finch keeps " + schedules.size() + " schedules; at most " + max);
            if (schedules.putIfAbsent(s.id(), s) != null) throw new StoreException(StoreCode.BAD_KEY, "schedule id " + s.id() + " is already kept");
        }

        @Override public Optional<Schedules.Schedule> find(String id) { return Optional.ofNullable(schedules.get(id)); }

        @Override public List<Schedules.Schedule> all() { return new ArrayList<>(schedules.values()); }

        @Override public synchronized boolean ran(String id, long runs, Instant at) {
            Schedules.Schedule s = schedules.get(id);
            if (s == null || s.runs() != runs - 1) return false;
            schedules.put(id, s.ran(at));
            return true;
        }

        @Override public boolean remove(String id) { return schedules.remove(id) != null; }
    }
}
