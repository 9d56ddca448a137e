package dev.finch.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Schedules that outlive a process: what a program asked to run later ({@code schedule-create}), under which of the
 * host's policies, and how far it got. A {@link dev.finch.Finch} on the store loads them when it is built and arms them
 * again; a run records itself ({@link #ran}) and a schedule that is done or cancelled is deleted. The store keeps them;
 * what a {@code when} means is the scheduler's, so it is kept as the program spelled it.
 */
public interface Schedules {
    /**
     * One schedule.
     *
     * @param id       the schedule's id (1 to 200 characters): a run's source is {@code schedule:<id>}
     * @param policy   the name of the host's policy it runs under (1 to 200 characters)
     * @param when     when it runs, as the program spelled it (an instant, a delay or a cron expression)
     * @param program  the program text a run submits (at most {@link #MAX_PROGRAM_CHARS} characters)
     * @param language the program's language as {@code dev.finch.Language} spells it ({@code lisp}, {@code forth},
     *                 {@code norman}); empty for a schedule kept before the store knew it, whose language the contract's
     *                 rule infers from the text
     * @param word     the defined word a schedule made by name calls (its program holds the word's definitions); empty
     *                 for a program given as text
     * @param created  when it was made (a delay counts from here)
     * @param runs     how many runs it made
     * @param lastRun  when it last ran, if it did
     */
    record Schedule(String id, String policy, String when, String program, Optional<String> language, Optional<String> word, Instant created,
                    long runs, Optional<Instant> lastRun) {
        /** The longest program a store keeps, in characters. */
        public static final int MAX_PROGRAM_CHARS = 64 * 1024;

        public Schedule {
            StoreChecks.id("a schedule id", id);
            StoreChecks.id("a schedule policy", policy);
            StoreChecks.chars("a schedule's when", when, StoreLimits.MAX_ID_CHARS);
            StoreChecks.chars("a scheduled program", program, MAX_PROGRAM_CHARS);
            Objects.requireNonNull(language, "language");
            if (language.isPresent()) StoreChecks.id("a scheduled program's language", language.get());
            Objects.requireNonNull(word, "word");
            if (word.isPresent()) StoreChecks.id("a scheduled word", word.get());
            if (created == null) throw new StoreException(StoreCode.BAD_KEY, "a schedule's creation time is missing");
            if (runs < 0) throw new StoreException(StoreCode.BAD_KEY, "a schedule's runs are " + runs + "; at least 0");
            Objects.requireNonNull(lastRun, "lastRun");
        }

        /** A schedule of program text whose language the contract's rule infers (no language kept, no word). */
        public Schedule(String id, String policy, String when, String program, Instant created, long runs, Optional<Instant> lastRun) {
            this(id, policy, when, program, Optional.empty(), Optional.empty(), created, runs, lastRun);
        }

        /** This schedule after one more run, at {@code at}. */
        public Schedule ran(Instant at) { return new Schedule(id, policy, when, program, language, word, created, runs + 1, Optional.of(at)); }
    }

    /** Keeps a new schedule; {@code E-STORE-004} when its id is taken, {@code E-STORE-003} past {@link StoreLimits#maxSchedules()}. */
    void add(Schedule schedule);

    /** The schedule {@code id}, if it is kept. */
    Optional<Schedule> find(String id);

    /** Every kept schedule, in id order (at most {@link StoreLimits#maxSchedules()}). */
    List<Schedule> all();

    /**
     * Records that {@code id} made its {@code runs}-th run at {@code at}, only if it had made {@code runs - 1}: false when
     * it is no longer kept (cancelled) or another scheduler on the store already recorded that run — so of two
     * schedulers that both find it due, one runs it.
     */
    boolean ran(String id, long runs, Instant at);

    /** Deletes {@code id}: cancelled, or done; true when it was kept. */
    boolean remove(String id);
}
