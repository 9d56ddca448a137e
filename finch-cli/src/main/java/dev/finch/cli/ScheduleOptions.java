package dev.finch.cli;

import dev.finch.SessionOptions;
import dev.finch.schedule.MissedRuns;
import dev.finch.schedule.SchedulePolicy;
import dev.finch.schedule.ScheduledRun;
import java.time.DateTimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * The schedule policies a command defines ({@code --schedule-policy}, repeatable): a program of {@code run} or
 * {@code repl} may schedule work only under one of them, and only with a grant of {@code schedule.create(policy=NAME)}
 * (defining a policy is availability, never a grant). A policy's grants are what each scheduled run receives where
 * the schedules run ({@code finch schedules run}, which defines its policies the same way).
 *
 * <p>{@code NAME[:ITEM;ITEM…]}: each ITEM is a capability its runs are granted ({@code memory.write(tree=global,path=**)}),
 * {@code max-runs=N}, {@code lifetime=DURATION} (ISO-8601, {@code P7D}) or {@code missed=run-once|skip}.
 */
final class ScheduleOptions {
    @Option(names = "--schedule-policy", paramLabel = "NAME[:ITEM;…]", description = "Define a schedule policy: programs may schedule work under it "
            + "(with a grant of schedule.create(policy=NAME)). Each ITEM is a grant its runs receive, max-runs=N, lifetime=DURATION (ISO-8601, P7D) "
            + "or missed=run-once|skip; repeatable.")
    List<String> specs = new ArrayList<>();

    /** The policies the flags define, their runs' sessions made from {@code base} and their outcomes handed to {@code onOutcome}. */
    List<SchedulePolicy> policies(SessionOptions base, Consumer<ScheduledRun> onOutcome) throws UsageException {
        List<SchedulePolicy> out = new ArrayList<>();
        for (String spec : specs) {
            SchedulePolicy p = parse(spec, base).onOutcome(onOutcome);
            for (SchedulePolicy q : out) {
                if (q.name().equals(p.name())) throw new UsageException("--schedule-policy defines " + p.name() + " twice");
            }
            out.add(p);
        }
        return out;
    }

    /** One {@code NAME[:ITEM;…]}; a usage error says what is wrong with it. */
    static SchedulePolicy parse(String spec, SessionOptions base) throws UsageException {
        int colon = spec.indexOf(':');
        String name = (colon < 0 ? spec : spec.substring(0, colon)).strip();
        SchedulePolicy p;
        try {
            p = SchedulePolicy.named(name).withSession(base);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--schedule-policy " + spec + ": " + e.getMessage());
        }
        if (colon < 0) return p;
        for (String raw : spec.substring(colon + 1).split(";")) {
            String item = raw.strip();
            if (item.isEmpty()) continue;
            try {
                if (item.startsWith("max-runs=")) {
                    p = p.withMaxRuns(Long.parseLong(item.substring("max-runs=".length())));
                } else if (item.startsWith("lifetime=")) {
                    p = p.withLifetime(Duration.parse(item.substring("lifetime=".length())));
                } else if (item.startsWith("missed=")) {
                    p = p.withMissed(missed(item.substring("missed=".length())));
                } else {
                    p = p.withGrant(item);
                }
            } catch (NumberFormatException e) {
                throw new UsageException("--schedule-policy " + name + ": max-runs takes a whole number, not '" + item.substring("max-runs=".length()) + "'");
            } catch (DateTimeException e) {
                throw new UsageException("--schedule-policy " + name + ": lifetime takes an ISO-8601 duration (P7D, PT12H), not '"
                        + item.substring("lifetime=".length()) + "'");
            } catch (IllegalArgumentException e) {
                throw new UsageException("--schedule-policy " + name + ": " + e.getMessage());
            }
        }
        return p;
    }

    private static MissedRuns missed(String text) {
        return switch (text.strip()) {
            case "run-once" -> MissedRuns.RUN_ONCE;
            case "skip" -> MissedRuns.SKIP;
            default -> throw new IllegalArgumentException("missed takes run-once or skip, not '" + text + "'");
        };
    }
}
