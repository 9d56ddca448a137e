package dev.finch.temporal;

import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleRange;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * When calendar specs fire, as Temporal documents them: a second matches a calendar when every field matches (a range
 * {@code start..end} every {@code step}; no year range matches every year; day of week 0 is Sunday), and a schedule's
 * calendars fire at every second any of them matches, in UTC. The tests' reading of a schedule, not the server's.
 */
final class CalendarTimes {
    private CalendarTimes() { }

    /** The first second after {@code after} and not after {@code until} that one of {@code calendars} matches. */
    static Optional<Instant> next(List<ScheduleCalendarSpec> calendars, Instant after, Instant until) {
        LocalDate day = after.atZone(ZoneOffset.UTC).toLocalDate();
        LocalDate last = until.atZone(ZoneOffset.UTC).toLocalDate();
        for (; !day.isAfter(last); day = day.plusDays(1)) {
            Instant best = null;
            for (ScheduleCalendarSpec c : calendars) {
                if (!matches(c.getYear(), day.getYear(), true) || !matches(c.getMonth(), day.getMonthValue(), false)
                        || !matches(c.getDayOfMonth(), day.getDayOfMonth(), false) || !matches(c.getDayOfWeek(), day.getDayOfWeek().getValue() % 7, false)) {
                    continue;
                }
                Instant t = firstInDay(c, day, after);
                if (t != null && (best == null || t.isBefore(best))) best = t;
            }
            if (best != null) return best.isAfter(until) ? Optional.empty() : Optional.of(best);
        }
        return Optional.empty();
    }

    private static Instant firstInDay(ScheduleCalendarSpec c, LocalDate day, Instant after) {
        for (int h = 0; h < 24; h++) {
            if (!matches(c.getHour(), h, false)) continue;
            for (int m = 0; m < 60; m++) {
                if (!matches(c.getMinutes(), m, false)) continue;
                for (int s = 0; s < 60; s++) {
                    if (!matches(c.getSeconds(), s, false)) continue;
                    Instant t = day.atTime(h, m, s).toInstant(ZoneOffset.UTC);
                    if (t.isAfter(after)) return t;
                }
            }
        }
        return null;
    }

    static boolean matches(List<ScheduleRange> ranges, int value, boolean emptyIsAll) {
        if (ranges.isEmpty()) return emptyIsAll;
        for (ScheduleRange r : ranges) {
            int end = Math.max(r.getEnd(), r.getStart());
            int step = Math.max(r.getStep(), 1);
            if (value >= r.getStart() && value <= end && (value - r.getStart()) % step == 0) return true;
        }
        return false;
    }
}
