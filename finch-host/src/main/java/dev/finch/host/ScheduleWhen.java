package dev.finch.host;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * When a schedule runs: once at an instant ({@code 2026-12-08T09:00:00Z}), once after a delay from its creation
 * ({@code PT10S}, an ISO-8601 duration), or whenever a five-field Unix cron expression matches, in UTC
 * ({@code 0 9 * * 1-5}). Parsed with cron-utils.
 */
public sealed interface ScheduleWhen permits ScheduleWhen.At, ScheduleWhen.After, ScheduleWhen.Cron {
    /** The text this was read from, as a program wrote it. */
    String spelling();

    /**
     * The first time this fires for a schedule made at {@code created} that ran {@code runs} times, strictly after
     * {@code after} for a cron; a one-shot schedule fires once (none after its first run), whatever {@code after} is.
     */
    Optional<Instant> due(Instant created, long runs, Instant after);

    /** Once, at an instant. */
    record At(String spelling, Instant at) implements ScheduleWhen {
        @Override public Optional<Instant> due(Instant created, long runs, Instant after) { return runs == 0 ? Optional.of(at) : Optional.empty(); }
    }

    /** Once, a delay after the schedule was made. */
    record After(String spelling, Duration delay) implements ScheduleWhen {
        @Override public Optional<Instant> due(Instant created, long runs, Instant after) {
            return runs == 0 ? Optional.of(created.plus(delay)) : Optional.empty();
        }
    }

    /** Whenever a Unix cron expression matches, in UTC. */
    final class Cron implements ScheduleWhen {
        private final String spelling;
        private final ExecutionTime times;

        private Cron(String spelling, ExecutionTime times) {
            this.spelling = spelling;
            this.times = times;
        }

        @Override public String spelling() { return spelling; }

        @Override public Optional<Instant> due(Instant created, long runs, Instant after) {
            return times.nextExecution(after.atZone(ZoneOffset.UTC)).map(z -> z.toInstant());
        }

        @Override public String toString() { return "Cron[" + spelling + "]"; }
    }

    /** {@code text} read as an instant, a duration or a cron expression; empty when it is none (or a delay that is not positive). */
    static Optional<ScheduleWhen> parse(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.length() > 200) return Optional.empty();
        if (t.startsWith("P") || t.startsWith("p")) {
            try {
                Duration d = Duration.parse(t);
                return d.isNegative() || d.isZero() ? Optional.empty() : Optional.of(new After(t, d));
            } catch (DateTimeException e) {
                return Optional.empty();
            }
        }
        if (Character.isDigit(t.charAt(0)) && t.indexOf('T') > 0 && !t.contains(" ")) {
            try {
                return Optional.of(new At(t, OffsetDateTime.parse(t).toInstant()));
            } catch (DateTimeException e) {
                return Optional.empty();
            }
        }
        try {
            var cron = Parsers.UNIX.parse(t);
            cron.validate();
            return Optional.of(new Cron(t, ExecutionTime.forCron(cron)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The one parser of five-field Unix cron expressions (thread-safe). */
    final class Parsers {
        private Parsers() { }

        static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    }
}
