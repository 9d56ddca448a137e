package dev.finch.schedule;

import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.host.ScheduleCode;
import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
import dev.finch.store.FinchStore;
import dev.finch.store.Schedules.Schedule;
import dev.finch.vm.boundary.HostFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One {@link dev.finch.Finch}'s scheduler: the schedules its programs made ({@code schedule-create}) under the host's
 * policies, kept in its store when it has one (else in itself), each armed on a {@link ScheduleTimer}. A run is a fresh
 * session with its policy's options, submitting the schedule's program in its language with source
 * {@code schedule:<id>}; its outcome goes to the policy's callback. A run is recorded as made before it runs, and only
 * by the scheduler whose record of it lands first, so neither a restart nor a second scheduler on the store makes it
 * twice. The Finch makes it, {@linkplain #start starts} it when built (re-arming what its store keeps; missed runs as
 * each policy says) and {@linkplain #close closes} it with itself.
 *
 * <p>A scheduler that {@linkplain Settings#runs() runs} nothing only keeps: the schedules its programs make go to the
 * store for another process on it ({@code finch schedules run}). One that {@linkplain Settings#refresh() refreshes}
 * reads its store again at that interval and arms what other processes kept there since.
 */
public final class Scheduler implements AutoCloseable {
    /** The most schedules a scheduler without a store keeps. */
    public static final int MAX_SCHEDULES = 1_000;

    /**
     * How a scheduler works beside its policies and timer.
     *
     * @param runs    false: it keeps schedules and runs none (another process on its store runs them)
     * @param refresh how often it reads its store again for schedules other processes kept; empty: only at start
     */
    public record Settings(boolean runs, Optional<Duration> refresh) {
        /** Runs its schedules; reads its store at start only. */
        public static final Settings DEFAULT = new Settings(true, Optional.empty());

        public Settings {
            java.util.Objects.requireNonNull(refresh, "refresh");
            if (refresh.isPresent() && (refresh.get().isNegative() || refresh.get().isZero())) {
                throw new IllegalArgumentException("a schedule refresh interval is positive");
            }
        }
    }

    private final SchedulePolicies policies;
    private final ScheduleTimer timer;
    private final ScheduleBook book;
    private final Function<SessionOptions, Session> sessions;
    private final Settings settings;
    /** The armed schedules: the alarm of each and when it goes off. */
    private final Map<String, Armed> armed = new HashMap<>();
    /** The schedules whose run is in progress here. */
    private final Set<String> running = new HashSet<>();
    private ScheduleTimer.Alarm refreshing;
    private boolean closed;

    private record Armed(Instant at, ScheduleTimer.Alarm alarm) { }

    /**
     * A scheduler of {@code policies} on {@code timer}, keeping schedules in {@code store} (null: in itself), making
     * each run's session with {@code sessions}.
     */
    public Scheduler(List<SchedulePolicy> policies, ScheduleTimer timer, FinchStore store, Function<SessionOptions, Session> sessions, Settings settings) {
        this.policies = SchedulePolicies.of(policies);
        this.timer = timer;
        this.book = store == null ? new ScheduleBook.Local(MAX_SCHEDULES) : new ScheduleBook.Stored(store);
        this.sessions = sessions;
        this.settings = java.util.Objects.requireNonNull(settings, "settings");
    }

    /**
     * Arms every kept schedule whose policy this scheduler has (one whose policy is not defined here stays kept, unarmed,
     * for a Finch that defines it). A run due while nothing ran is missed: its policy runs it once now or skips it. A
     * scheduler that only keeps does nothing here.
     */
    public void start() {
        if (!settings.runs()) return;
        Instant now = timer.now();
        for (Schedule s : book.all()) {
            SchedulePolicy p = policies.find(s.policy()).orElse(null);
            Optional<ScheduleWhen> when = ScheduleWhen.parse(s.when());
            if (p == null || when.isEmpty()) continue;
            Optional<Instant> due = due(s, when.get(), p);
            if (due.isPresent() && due.get().isBefore(now)) {
                if (p.missed() == MissedRuns.RUN_ONCE) {
                    arm(s.id(), now, true);
                    continue;
                }
                due = next(s, when.get(), p, now).filter(t -> !t.isBefore(now));
            }
            if (due.isEmpty()) book.remove(s.id());
            else arm(s.id(), due.get(), false);
        }
        // No lambda: this runs when a Finch starts, in a fresh JVM where linking one costs milliseconds.
        Optional<Duration> every = settings.refresh();
        if (every.isPresent()) refreshAfter(now, every.get());
    }

    /** The policy programs name {@code name}; {@code E-SCHEDULE-002} when the host defined none. */
    public SchedulePolicy policy(String name) throws HostFailure { return policies.get(name); }

    /**
     * Schedules {@code program}, in {@code language}, to run {@code when} under {@code policy}; {@code word} names the
     * defined word it calls when it was scheduled by name. The new schedule's id.
     */
    public String create(String policy, ScheduleWhen when, String program, Language language, Optional<String> word) throws HostFailure {
        SchedulePolicy p = policy(policy);
        Instant now = timer.now();
        Schedule s = new Schedule(SchedulePolicies.newId(), p.name(), when.spelling(),
                program, Optional.of(language.spelling()), word, now, 0, Optional.empty());
        Instant first = p.firstRun(when, now);
        synchronized (this) {
            if (closed) throw new HostFailure(ScheduleCode.UNAVAILABLE, "the scheduler is closed; nothing was scheduled");
            try {
                book.add(s);
            } catch (dev.finch.store.StoreException e) {
                if (e.code() == dev.finch.store.StoreCode.TOO_LARGE) {
                    throw new HostFailure(ScheduleCode.TOO_MANY, "the schedules kept are at their most; cancel one first", e);
                }
                throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be kept (the host has the cause); nothing was scheduled", e);
            } catch (RuntimeException e) {
                throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be kept (the host has the cause); nothing was scheduled", e);
            }
            if (settings.runs()) arm(s.id(), first, false);
        }
        return s.id();
    }

    /** The live schedules of {@code policy}, in id order, each with when it runs next (now, when it is due). */
    public List<ScheduleHost.Listed> list(String policy) throws HostFailure {
        SchedulePolicy p = policy(policy);
        List<ScheduleHost.Listed> out = new ArrayList<>();
        Instant now = timer.now();
        try {
            for (Schedule s : book.all()) {
                if (!s.policy().equals(p.name())) continue;
                Optional<Instant> next = ScheduleWhen.parse(s.when()).flatMap(w -> due(s, w, p));
                if (next.isEmpty()) continue;
                out.add(new ScheduleHost.Listed(s.id(), s.policy(), s.when(), s.program(), s.runs(), next.get().isBefore(now) ? now : next.get()));
            }
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedules could not be read (the host has the cause)", e);
        }
        return out;
    }

    /** Cancels the schedule {@code id} of {@code policy}; false when there is none (or it is another policy's). */
    public boolean cancel(String policy, String id) throws HostFailure {
        SchedulePolicy p = policy(policy);
        try {
            Optional<Schedule> s = id.isEmpty() || id.length() > 200 ? Optional.empty() : book.find(id);
            if (s.isEmpty() || !s.get().policy().equals(p.name())) return false;
            synchronized (this) {
                disarm(id);
            }
            return book.remove(id);
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be cancelled (the host has the cause)", e);
        }
    }

    /** Stops: no alarm goes off after this (a run in progress finishes); the kept schedules stay kept. */
    @Override public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            for (Armed a : armed.values()) a.alarm().cancel();
            armed.clear();
            if (refreshing != null) refreshing.cancel();
        }
        timer.close();
    }

    /** When {@code s} runs next after its last run (or its creation), within its policy's limits. */
    private static Optional<Instant> due(Schedule s, ScheduleWhen when, SchedulePolicy p) {
        return next(s, when, p, s.lastRun().orElse(s.created()));
    }

    private static Optional<Instant> next(Schedule s, ScheduleWhen when, SchedulePolicy p, Instant after) {
        return p.nextRun(when, s.created(), s.runs(), after);
    }

    private synchronized void arm(String id, Instant at, boolean missed) {
        if (closed) return;
        disarm(id);
        armed.put(id, new Armed(at, timer.at(at, () -> fire(id, missed))));
    }

    private void disarm(String id) {
        Armed a = armed.remove(id);
        if (a != null) a.alarm().cancel();
    }

    private synchronized void refreshAfter(Instant from, Duration every) {
        if (!closed) refreshing = timer.at(from.plus(every), () -> refresh(every));
    }

    /**
     * Reads the store again: arms each schedule of a policy defined here that another process kept since (one already
     * due runs now: it is late, not missed), and disarms each that is no longer kept. A store that fails is read again
     * at the next refresh.
     */
    private void refresh(Duration every) {
        Instant now = timer.now();
        try {
            List<Schedule> kept = book.all();
            Set<String> ids = new HashSet<>();
            for (Schedule s : kept) {
                ids.add(s.id());
                SchedulePolicy p = policies.find(s.policy()).orElse(null);
                Optional<ScheduleWhen> when = ScheduleWhen.parse(s.when());
                if (p == null || when.isEmpty()) continue;
                synchronized (this) {
                    if (armed.containsKey(s.id()) || running.contains(s.id())) continue;
                }
                Optional<Instant> due = due(s, when.get(), p);
                if (due.isPresent()) arm(s.id(), due.get().isBefore(now) ? now : due.get(), false);
            }
            synchronized (this) {
                for (String id : new ArrayList<>(armed.keySet())) if (!ids.contains(id)) disarm(id);
            }
        } catch (RuntimeException storeFailed) {
            // Read again at the next refresh.
        }
        refreshAfter(now, every);
    }

    /**
     * Makes one run of {@code id} if it is due: records it (unless another scheduler did), runs the program in a fresh
     * session, hands the outcome to the policy, and arms the next run or ends the schedule. A store that fails leaves the
     * schedule kept and unarmed until the next Finch.
     */
    private void fire(String id, boolean missed) {
        Schedule s;
        SchedulePolicy p;
        Instant now;
        ScheduleWhen when;
        synchronized (this) {
            if (closed || armed.remove(id) == null) return;
            running.add(id);
        }
        try {
            try {
                Optional<Schedule> kept = book.find(id);
                if (kept.isEmpty()) return;
                s = kept.get();
                p = policies.find(s.policy()).orElse(null);
                Optional<ScheduleWhen> w = ScheduleWhen.parse(s.when());
                if (p == null || w.isEmpty()) return;
                when = w.get();
                now = timer.now();
                // Made elsewhere since this was armed (another scheduler on the store): arm its next time instead.
                Optional<Instant> due = due(s, when, p);
                if (due.isEmpty()) return;
                if (due.get().isAfter(now)) {
                    arm(id, due.get(), false);
                    return;
                }
                if (!book.ran(id, s.runs() + 1, now)) {
                    book.find(id).flatMap(again -> due(again, when, p)).ifPresent(t -> arm(id, t.isBefore(now) ? now : t, false));
                    return;
                }
            } catch (RuntimeException storeFailed) {
                return;
            }
            run(s, p, now, missed);
            Schedule after = s.ran(now);
            Optional<Instant> next = next(after, when, p, now);
            try {
                if (next.isEmpty()) book.remove(id);
                else synchronized (this) {
                    if (book.find(id).isPresent()) arm(id, next.get(), false);
                }
            } catch (RuntimeException storeFailed) {
                // Kept as it is: the next Finch on the store arms it again.
            }
        } finally {
            synchronized (this) {
                running.remove(id);
            }
        }
    }

    /** Runs {@code s}'s program in a fresh session of its policy and hands the outcome to the policy's callback. */
    private void run(Schedule s, SchedulePolicy p, Instant now, boolean missed) {
        try {
            Session session = sessions.apply(p.session());
            Outcome outcome;
            try {
                Submission sub = Submission.of(s.program(), "schedule:" + s.id());
                Optional<Language> language = s.language().flatMap(Language::named);
                outcome = session.submit(language.isPresent() ? sub.withLanguage(language.get()) : sub);
            } finally {
                session.close();
            }
            p.onOutcome().accept(new ScheduledRun(s.id(), p.name(), s.runs() + 1, now, missed, outcome));
        } catch (RuntimeException hostFailed) {
            // The host's (its session options, its callback): the run counts as made, and the schedule goes on.
        }
    }

}
