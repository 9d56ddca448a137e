package dev.finch.schedule;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One {@link dev.finch.Finch}'s scheduler: the schedules its programs made ({@code schedule-create}) under the host's
 * policies, kept in its store when it has one (else in itself), each armed on a {@link ScheduleTimer}. A run is a fresh
 * session with its policy's options, submitting the program with source {@code schedule:<id>}; its outcome goes to the
 * policy's callback. A run is recorded as made before it runs, so a restart never makes it twice. The Finch makes it,
 * {@linkplain #start starts} it when built (re-arming what its store keeps; missed runs as each policy says) and
 * {@linkplain #close closes} it with itself.
 */
public final class Scheduler implements ScheduleHost, AutoCloseable {
    /** The most schedules one scheduler keeps. */
    public static final int MAX_SCHEDULES = 1_000;

    private final SchedulePolicies policies;
    private final ScheduleTimer timer;
    private final ScheduleBook book;
    private final Function<SessionOptions, Session> sessions;
    /** The armed schedules: the alarm of each and when it goes off. */
    private final Map<String, Armed> armed = new HashMap<>();
    private boolean closed;

    private record Armed(Instant at, ScheduleTimer.Alarm alarm) { }

    /**
     * A scheduler of {@code policies} on {@code timer}, keeping schedules in {@code store} (null: in itself), making
     * each run's session with {@code sessions}.
     */
    public Scheduler(List<SchedulePolicy> policies, ScheduleTimer timer, FinchStore store, Function<SessionOptions, Session> sessions) {
        this.policies = SchedulePolicies.of(policies);
        this.timer = timer;
        this.book = store == null ? new ScheduleBook.Local() : new ScheduleBook.Stored(store);
        this.sessions = sessions;
    }

    /**
     * Arms every kept schedule whose policy this scheduler has (one whose policy is not defined here stays kept, unarmed,
     * for a Finch that defines it). A run due while nothing ran is missed: its policy runs it once now or skips it.
     */
    public void start() {
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
    }

    @Override public String create(String policy, ScheduleWhen when, String program) throws HostFailure {
        SchedulePolicy p = policies.get(policy);
        Instant now = timer.now();
        Schedule s = new Schedule(SchedulePolicies.newId(), p.name(), when.spelling(), program, now, 0, Optional.empty());
        Instant first = p.firstRun(when, now);
        synchronized (this) {
            if (closed) throw new HostFailure(ScheduleCode.UNAVAILABLE, "the scheduler is closed; nothing was scheduled");
            if (armed.size() >= MAX_SCHEDULES) {
                throw new HostFailure(ScheduleCode.TOO_MANY, "this Finch holds " + armed.size() + " schedules; at most " + MAX_SCHEDULES);
            }
            try {
                book.add(s);
            } catch (dev.finch.store.StoreException e) {
                if (e.code() == dev.finch.store.StoreCode.TOO_LARGE) {
                    throw new HostFailure(ScheduleCode.TOO_MANY, "the store keeps its most schedules; cancel one first", e);
                }
                throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be kept (the host has the cause); nothing was scheduled", e);
            } catch (RuntimeException e) {
                throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be kept (the host has the cause); nothing was scheduled", e);
            }
            arm(s.id(), first, false);
        }
        return s.id();
    }

    @Override public List<Listed> list(String policy) throws HostFailure {
        SchedulePolicy p = policies.get(policy);
        List<Listed> out = new ArrayList<>();
        try {
            for (Schedule s : book.all()) {
                if (!s.policy().equals(p.name())) continue;
                Armed a;
                synchronized (this) {
                    a = armed.get(s.id());
                }
                if (a != null) out.add(new Listed(s.id(), s.policy(), s.when(), s.program(), s.runs(), a.at()));
            }
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedules could not be read (the host has the cause)", e);
        }
        return out;
    }

    @Override public boolean cancel(String policy, String id) throws HostFailure {
        SchedulePolicy p = policies.get(policy);
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
        }
        timer.close();
    }

    /** When {@code s} runs next after its last run (or its creation), within its policy's limits. */
    private static Optional<Instant> due(Schedule s, ScheduleWhen when, SchedulePolicy p) {
        return next(s, when, p, s.lastRun().orElse(s.created()));
    }

    private static Optional<Instant> next(Schedule s, ScheduleWhen when, SchedulePolicy p, Instant after) {
        if (s.runs() >= p.maxRuns()) return Optional.empty();
        Optional<Instant> at = when.due(s.created(), s.runs(), after);
        if (at.isPresent() && p.lifetime().isPresent() && at.get().isAfter(s.created().plus(p.lifetime().get()))) return Optional.empty();
        return at;
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

    /**
     * Makes one run of {@code id}: records it, runs the program in a fresh session, hands the outcome to the policy, and
     * arms the next run or ends the schedule. A store that fails leaves the schedule kept and unarmed until the next Finch.
     */
    private void fire(String id, boolean missed) {
        Schedule s;
        SchedulePolicy p;
        Instant now;
        synchronized (this) {
            if (closed || armed.remove(id) == null) return;
        }
        try {
            Optional<Schedule> kept = book.find(id);
            if (kept.isEmpty()) return;
            s = kept.get();
            p = policies.find(s.policy()).orElse(null);
            if (p == null) return;
            now = timer.now();
            book.ran(id, s.runs() + 1, now);
        } catch (RuntimeException storeFailed) {
            return;
        }
        try {
            Session session = sessions.apply(p.session());
            Outcome outcome;
            try {
                outcome = session.submit(Submission.of(s.program(), "schedule:" + id));
            } finally {
                session.close();
            }
            p.onOutcome().accept(new ScheduledRun(id, p.name(), s.runs() + 1, now, missed, outcome));
        } catch (RuntimeException hostFailed) {
            // The host's (its session options, its callback): the run counts as made, and the schedule goes on.
        }
        Schedule after = s.ran(now);
        Optional<Instant> next = ScheduleWhen.parse(s.when()).flatMap(w -> next(after, w, p, now));
        try {
            if (next.isEmpty()) book.remove(id);
            else synchronized (this) {
                if (book.find(id).isPresent()) arm(id, next.get(), false);
            }
        } catch (RuntimeException storeFailed) {
            // Kept as it is: the next Finch on the store arms it again.
        }
    }
}
