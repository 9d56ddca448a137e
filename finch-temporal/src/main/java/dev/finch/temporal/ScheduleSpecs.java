package dev.finch.temporal;

import dev.finch.host.ScheduleWhen;
import dev.finch.schedule.MissedRuns;
import dev.finch.schedule.SchedulePolicy;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleRange;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a Finch schedule becomes a Temporal Schedule: its {@link ScheduleWhen} a {@link ScheduleSpec} in UTC, its policy's
 * limits the schedule's state and policies.
 *
 * <ul>
 *   <li>A cron expression becomes calendar specs with the same fields, value for value. Unix cron runs a day that
 *       matches the day of the month <em>or</em> the day of the week when both are restricted (neither starts with
 *       {@code *}); a Temporal calendar spec needs both, so such a cron becomes two calendars, one per field.</li>
 *   <li>An instant or a delay becomes one calendar spec naming that second (rounded up to a whole second: Temporal
 *       schedules to the second) and a limit of one action.</li>
 *   <li>{@code maxRuns} is the schedule's limit of actions; {@code lifetime} its end.</li>
 *   <li>Overlap: a time that comes while the schedule's previous run still runs (or still waits for a worker) is
 *       skipped ({@code SKIP}), so runs missed while no worker polled come down to one.</li>
 *   <li>Missed runs: {@link MissedRuns#RUN_ONCE} lets the server catch up on times missed while it was down for a year
 *       (one run comes of them, by the overlap rule); {@link MissedRuns#SKIP} for no longer than the run counts as on
 *       time ({@code missedAfter}, at least Temporal's 10 s) — the run itself drops a run that started later.</li>
 * </ul>
 */
final class ScheduleSpecs {
    private ScheduleSpecs() { }

    /** Temporal's shortest catch-up window. */
    static final Duration MIN_CATCHUP = Duration.ofSeconds(10);

    /** {@code when} of a schedule made at {@code created} that first runs at {@code first}, under {@code policy}. */
    static Optional<ScheduleSpec> spec(ScheduleWhen when, Instant created, Instant first, SchedulePolicy policy) {
        List<ScheduleCalendarSpec> calendars;
        if (when instanceof ScheduleWhen.Cron) {
            Optional<List<ScheduleCalendarSpec>> cron = cron(when.spelling());
            if (cron.isEmpty()) return Optional.empty();
            calendars = cron.get();
        } else {
            calendars = List.of(at(first));
        }
        ScheduleSpec.Builder spec = ScheduleSpec.newBuilder().setCalendars(calendars).setTimeZoneName("UTC");
        policy.lifetime().ifPresent(l -> spec.setEndAt(created.plus(l)));
        return Optional.of(spec.build());
    }

    /** The schedule's state: at most one action for an instant or a delay, at most {@code maxRuns} for a cron. */
    static ScheduleState state(ScheduleWhen when, SchedulePolicy policy) {
        ScheduleState.Builder state = ScheduleState.newBuilder().setNote("finch schedule, policy " + policy.name());
        long actions = when instanceof ScheduleWhen.Cron ? policy.maxRuns() : 1;
        if (actions != Long.MAX_VALUE) state.setLimitedAction(true).setRemainingActions(actions);
        return state.build();
    }

    /** The schedule's policies: skip a time while the previous run runs; catch up as the missed rule says. */
    static io.temporal.client.schedules.SchedulePolicy policies(SchedulePolicy policy, Duration missedAfter) {
        Duration catchup = policy.missed() == MissedRuns.RUN_ONCE ? Duration.ofDays(365)
                : missedAfter.compareTo(MIN_CATCHUP) < 0 ? MIN_CATCHUP : missedAfter;
        return io.temporal.client.schedules.SchedulePolicy.newBuilder().setOverlap(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP)
                .setCatchupWindow(catchup).build();
    }

    /** One calendar spec matching {@code at}'s second (the next whole second when {@code at} has a fraction), in UTC. */
    static ScheduleCalendarSpec at(Instant at) {
        Instant second = at.getNano() == 0 ? at : at.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        ZonedDateTime t = second.atZone(ZoneOffset.UTC);
        return ScheduleCalendarSpec.newBuilder()
                .setSeconds(List.of(new ScheduleRange(t.getSecond())))
                .setMinutes(List.of(new ScheduleRange(t.getMinute())))
                .setHour(List.of(new ScheduleRange(t.getHour())))
                .setDayOfMonth(List.of(new ScheduleRange(t.getDayOfMonth())))
                .setMonth(List.of(new ScheduleRange(t.getMonthValue())))
                .setYear(List.of(new ScheduleRange(t.getYear())))
                .setDayOfWeek(ScheduleCalendarSpec.ALL_WEEK_DAYS)
                .setComment("once at " + second).build();
    }

    private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

    /**
     * A five-field Unix cron expression (as {@link ScheduleWhen#parse} accepts it) as calendar specs at second 0; empty
     * when a field uses a form this does not translate (then the schedule is refused rather than run at other times).
     */
    static Optional<List<ScheduleCalendarSpec>> cron(String spelling) {
        String[] f = spelling.strip().split("\\s+");
        if (f.length != 5) return Optional.empty();
        Optional<BitSet> minutes = field(f[0], 0, 59, null, 0);
        Optional<BitSet> hours = field(f[1], 0, 23, null, 0);
        Optional<BitSet> days = field(f[2], 1, 31, null, 0);
        Optional<BitSet> months = field(f[3], 1, 12, MONTHS, 1);
        Optional<BitSet> weekdays = field(f[4], 0, 7, DAYS, 0);
        if (minutes.isEmpty() || hours.isEmpty() || days.isEmpty() || months.isEmpty() || weekdays.isEmpty()) return Optional.empty();
        BitSet dow = weekdays.get();
        if (dow.get(7)) {                                     // 7 is Sunday too
            dow.clear(7);
            dow.set(0);
        }
        String comment = "cron " + spelling.strip();
        ScheduleCalendarSpec.Builder base = ScheduleCalendarSpec.newBuilder().setSeconds(List.of(new ScheduleRange(0)))
                .setMinutes(ranges(minutes.get())).setHour(ranges(hours.get())).setMonth(ranges(months.get())).setComment(comment);
        boolean anyDay = f[2].startsWith("*");
        boolean anyWeekday = f[4].startsWith("*");
        if (anyDay || anyWeekday) {
            return Optional.of(List.of(base.setDayOfMonth(ranges(days.get())).setDayOfWeek(ranges(dow)).build()));
        }
        ScheduleCalendarSpec byDay = ScheduleCalendarSpec.newBuilder(base.build()).setDayOfMonth(ranges(days.get()))
                .setDayOfWeek(ScheduleCalendarSpec.ALL_WEEK_DAYS).build();
        ScheduleCalendarSpec byWeekday = ScheduleCalendarSpec.newBuilder(base.build()).setDayOfMonth(ScheduleCalendarSpec.ALL_MONTH_DAYS)
                .setDayOfWeek(ranges(dow)).build();
        return Optional.of(List.of(byDay, byWeekday));
    }

    /** The values of one cron field: lists of {@code *}, {@code n}, {@code a-b}, each with an optional {@code /step}. */
    private static Optional<BitSet> field(String text, int min, int max, String[] names, int firstName) {
        BitSet values = new BitSet();
        for (String item : text.split(",", -1)) {
            String[] stepped = item.split("/", -1);
            if (stepped.length > 2) return Optional.empty();
            int step = 1;
            if (stepped.length == 2) {
                Optional<Integer> s = number(stepped[1], null, 0);
                if (s.isEmpty() || s.get() < 1) return Optional.empty();
                step = s.get();
            }
            String range = stepped[0];
            int lo;
            int hi;
            if (range.equals("*")) {
                lo = min;
                hi = max;
            } else {
                String[] ends = range.split("-", -1);
                if (ends.length > 2) return Optional.empty();
                Optional<Integer> a = number(ends[0], names, firstName);
                Optional<Integer> b = ends.length == 2 ? number(ends[1], names, firstName) : a;
                if (a.isEmpty() || b.isEmpty()) return Optional.empty();
                lo = a.get();
                hi = ends.length == 1 && stepped.length == 2 ? max : b.get();
            }
            if (lo < min || hi > max || lo > hi) return Optional.empty();
            for (int v = lo; v <= hi; v += step) values.set(v);
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(values);
    }

    private static Optional<Integer> number(String text, String[] names, int firstName) {
        if (names != null) {
            for (int i = 0; i < names.length; i++) if (names[i].equals(text.toUpperCase(Locale.ROOT))) return Optional.of(i + firstName);
        }
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(Character::isDigit)) return Optional.empty();
        return Optional.of(Integer.parseInt(text));
    }

    /** {@code values} as the fewest ranges of consecutive values. */
    private static List<ScheduleRange> ranges(BitSet values) {
        List<ScheduleRange> out = new ArrayList<>();
        for (int start = values.nextSetBit(0); start >= 0; ) {
            int end = values.nextClearBit(start) - 1;
            out.add(start == end ? new ScheduleRange(start) : new ScheduleRange(start, end));
            start = values.nextSetBit(end + 1);
        }
        return out;
    }
}
