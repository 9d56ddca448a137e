package dev.finch.schedule;

import dev.finch.SessionOptions;
import dev.finch.host.ScheduleCode;
import dev.finch.host.ScheduleWhen;
import dev.finch.vm.boundary.HostFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A schedule policy the host defines ({@code Finch.Builder.schedulePolicy}): a program may schedule work only under a
 * policy by name ({@code schedule.create(policy=NAME)}), and the policy — never the program — says what a scheduled run
 * may do and how long a schedule lasts.
 *
 * @param name     the name programs use: 1 to 64 of {@code A-Z a-z 0-9 _ . -}
 * @param session  the options of each run's fresh session: its grants (and roots); a run needs no approval for what
 *                 they grant and pauses on anything else (nobody continues it)
 * @param maxRuns  the most runs one schedule makes; then it ends
 * @param lifetime how long a schedule lasts from its creation; a run due later is not made, and the schedule ends
 * @param missed   what happens to runs missed while no Finch was running
 * @param onOutcome receives each scheduled run's outcome, on the scheduler's thread (keep it short)
 */
public record SchedulePolicy(String name, SessionOptions session, long maxRuns, Optional<Duration> lifetime, MissedRuns missed,
                             Consumer<ScheduledRun> onOutcome) {
    public SchedulePolicy {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_.-]{1,64}")) throw new IllegalArgumentException("a schedule policy's name is 1 to 64 of A-Z a-z 0-9 _ . -, not \"" + name + "\"");
        Objects.requireNonNull(session, "session");
        if (maxRuns < 1) throw new IllegalArgumentException("a schedule policy's maxRuns is at least 1");
        Objects.requireNonNull(lifetime, "lifetime");
        if (lifetime.isPresent() && (lifetime.get().isNegative() || lifetime.get().isZero())) {
            throw new IllegalArgumentException("a schedule policy's lifetime is positive");
        }
        Objects.requireNonNull(missed, "missed");
        Objects.requireNonNull(onOutcome, "onOutcome");
    }

    /** A policy named {@code name} whose runs have no grant, unbounded runs and lifetime, missed runs run once, outcomes dropped. */
    public static SchedulePolicy named(String name) {
        return new SchedulePolicy(name, SessionOptions.DEFAULT, Long.MAX_VALUE, Optional.empty(), MissedRuns.RUN_ONCE, r -> { });
    }

    /** This policy, its runs granted {@code grant} too (a capability, as {@link SessionOptions#withGrant}). */
    public SchedulePolicy withGrant(String grant) {
        var parsed = dev.finch.capabilities.CapabilitySpec.parse(Objects.requireNonNull(grant, "grant"));
        if (!parsed.isOk()) throw new IllegalArgumentException("malformed grant '" + grant + "': " + parsed.refusal().orElseThrow().message());
        return withSession(session.withGrant(grant));
    }

    /** This policy, its runs' sessions made with {@code options} (grants, roots, hosts). */
    public SchedulePolicy withSession(SessionOptions options) { return new SchedulePolicy(name, options, maxRuns, lifetime, missed, onOutcome); }

    /** This policy, a schedule making at most {@code runs} runs. */
    public SchedulePolicy withMaxRuns(long runs) { return new SchedulePolicy(name, session, runs, lifetime, missed, onOutcome); }

    /** This policy, a schedule lasting {@code lifetime} from its creation. */
    public SchedulePolicy withLifetime(Duration lifetime) {
        return new SchedulePolicy(name, session, maxRuns, Optional.of(Objects.requireNonNull(lifetime, "lifetime")), missed, onOutcome);
    }

    /** This policy, missed runs handled as {@code missed} says. */
    public SchedulePolicy withMissed(MissedRuns missed) { return new SchedulePolicy(name, session, maxRuns, lifetime, missed, onOutcome); }

    /**
     * When a schedule of this policy made at {@code created} runs first: {@code when}'s first time, which must be after
     * {@code created} and within the policy's lifetime.
     *
     * @throws HostFailure {@code E-SCHEDULE-001} when there is no such time
     */
    public Instant firstRun(ScheduleWhen when, Instant created) throws HostFailure {
        Optional<Instant> at = nextRun(when, created, 0, created);
        if (at.isEmpty() || !at.get().isAfter(created)) {
            throw new HostFailure(ScheduleCode.BAD_WHEN, "\"" + when.spelling() + "\" is not in the future"
                    + (lifetime.isPresent() ? " within the policy's lifetime of " + lifetime.get() : ""));
        }
        return at.get();
    }

    /**
     * When a schedule made at {@code created} that has run {@code runs} times runs next after {@code after}: empty once it
     * has made this policy's most runs or the time falls after its lifetime.
     */
    public Optional<Instant> nextRun(ScheduleWhen when, Instant created, long runs, Instant after) {
        if (runs >= maxRuns) return Optional.empty();
        Optional<Instant> at = when.due(created, runs, after);
        if (at.isPresent() && lifetime.isPresent() && at.get().isAfter(created.plus(lifetime.get()))) return Optional.empty();
        return at;
    }

    /** This policy, each run's outcome handed to {@code callback}. */
    public SchedulePolicy onOutcome(Consumer<ScheduledRun> callback) { return new SchedulePolicy(name, session, maxRuns, lifetime, missed, callback); }
}
