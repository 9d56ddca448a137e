package dev.finch.schedule;

import dev.finch.store.FinchStore;
import dev.finch.store.Schedules;
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

    void ran(String id, long runs, Instant at);

    boolean remove(String id);

    /** In a store. */
    record Stored(FinchStore store) implements ScheduleBook {
        @Override public void add(Schedules.Schedule s) { store.schedules().add(s); }

        @Override public Optional<Schedules.Schedule> find(String id) { return store.schedules().find(id); }

        @Override public List<Schedules.Schedule> all() { return store.schedules().all(); }

        @Override public void ran(String id, long runs, Instant at) { store.schedules().ran(id, runs, at); }

        @Override public boolean remove(String id) { return store.schedules().remove(id); }
    }

    /** In this scheduler only. */
    final class Local implements ScheduleBook {
        private final ConcurrentSkipListMap<String, Schedules.Schedule> schedules = new ConcurrentSkipListMap<>();

        @Override public void add(Schedules.Schedule s) { schedules.put(s.id(), s); }

        @Override public Optional<Schedules.Schedule> find(String id) { return Optional.ofNullable(schedules.get(id)); }

        @Override public List<Schedules.Schedule> all() { return new ArrayList<>(schedules.values()); }

        @Override public void ran(String id, long runs, Instant at) {
            schedules.computeIfPresent(id, (k, s) -> new Schedules.Schedule(s.id(), s.policy(), s.when(), s.program(), s.created(), runs, Optional.of(at)));
        }

        @Override public boolean remove(String id) { return schedules.remove(id) != null; }
    }
}
