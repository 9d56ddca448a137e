package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.host.ScheduleWhen;
import dev.finch.schedule.MissedRuns;
import dev.finch.schedule.SchedulePolicy;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A Finch schedule's when as a Temporal schedule spec: a cron expression's calendars fire at exactly the times Finch's
 * own scheduler (cron-utils) runs it; an instant or a delay names its second, once; the policy's limits and missed-run
 * rule become the schedule's state and policies.
 */
class ScheduleSpecsTest {
    static final Instant T0 = Instant.parse("2026-12-07T10:17:23.250Z");

    @ParameterizedTest
    @ValueSource(strings = {"*/15 * * * *", "0 9 * * 1-5", "30 2 1,15 * *", "0 0 13 * 5", "5-50/10 8-18/2 * 1-6 SUN,SAT",
            "0 12 * JAN,jul MON", "0 0 * * 7", "0 0 */2 * *", "15 6 1 */3 *", "0 0 1-7 * 1", "59 23 31 12 *", "0 0 29 2 *",
            "7 * * * 0-3", "0 0 L * *", "* * * * *"})
    void aCronsCalendarsFireWhenFinchsSchedulerRunsIt(String cron) {
        ScheduleWhen when = ScheduleWhen.parse(cron).orElse(null);
        var calendars = ScheduleSpecs.cron(cron);
        if (when == null) {          // not a cron Finch takes ("L"): nothing to compare
            assertThat(calendars).as("a cron Finch refuses is not translated either").isEmpty();
            return;
        }
        assertThat(calendars).as("%s translates", cron).isPresent();
        List<Instant> finch = new ArrayList<>();
        List<Instant> temporal = new ArrayList<>();
        Instant a = T0;
        Instant b = T0;
        Instant until = T0.plus(Duration.ofDays(170 * 366));   // forty leap days
        for (int i = 0; i < 40; i++) {
            a = when.due(T0, i, a).orElseThrow();
            finch.add(a);
            b = CalendarTimes.next(calendars.get(), b, until).orElseThrow();
            temporal.add(b);
        }
        assertThat(temporal).as(cron).isEqualTo(finch);
        assertThat(calendars.get()).allSatisfy(c -> assertThat(c.getComment()).isEqualTo("cron " + cron));
    }

    @Test void bothDayFieldsRestrictedMeanEitherDayAsInUnixCron() {
        // Friday the 13th is not the rule: every 13th and every Friday are.
        assertThat(ScheduleSpecs.cron("0 0 13 * 5").orElseThrow()).hasSize(2);
        assertThat(ScheduleSpecs.cron("0 0 * * 5").orElseThrow()).hasSize(1);
    }

    @Test void anInstantOrADelayIsOneSecondAndOneAction() throws Exception {
        SchedulePolicy p = SchedulePolicy.named("report");
        ScheduleWhen delay = ScheduleWhen.parse("PT10S").orElseThrow();
        Instant first = p.firstRun(delay, T0);
        ScheduleSpec spec = ScheduleSpecs.spec(delay, T0, first, p).orElseThrow();
        assertThat(spec.getCalendars()).hasSize(1);
        assertThat(spec.getTimeZoneName()).isEqualTo("UTC");
        assertThat(spec.getEndAt()).isNull();
        // 10:17:33.250 rounds up to the next whole second: never before the time asked for.
        Instant due = Instant.parse("2026-12-07T10:17:34Z");
        assertThat(CalendarTimes.next(spec.getCalendars(), T0, T0.plus(Duration.ofDays(800)))).contains(due);
        assertThat(CalendarTimes.next(spec.getCalendars(), due, T0.plus(Duration.ofDays(800)))).as("once").isEmpty();
        ScheduleState state = ScheduleSpecs.state(delay, p);
        assertThat(state.isLimitedAction()).isTrue();
        assertThat(state.getRemainingActions()).isEqualTo(1);

        ScheduleWhen at = ScheduleWhen.parse("2027-01-02T03:04:05Z").orElseThrow();
        ScheduleSpec exact = ScheduleSpecs.spec(at, T0, p.firstRun(at, T0), p).orElseThrow();
        assertThat(CalendarTimes.next(exact.getCalendars(), T0, T0.plus(Duration.ofDays(800)))).contains(Instant.parse("2027-01-02T03:04:05Z"));
    }

    @Test void thePolicysLimitsAndMissedRuleBecomeTheSchedulesStateAndPolicies() {
        SchedulePolicy limited = SchedulePolicy.named("report").withMaxRuns(3).withLifetime(Duration.ofDays(2)).withMissed(MissedRuns.SKIP);
        ScheduleWhen cron = ScheduleWhen.parse("0 9 * * *").orElseThrow();
        ScheduleSpec spec = ScheduleSpecs.spec(cron, T0, T0, limited).orElseThrow();
        assertThat(spec.getEndAt()).isEqualTo(T0.plus(Duration.ofDays(2)));
        assertThat(ScheduleSpecs.state(cron, limited).getRemainingActions()).isEqualTo(3);
        var skip = ScheduleSpecs.policies(limited, Duration.ofMinutes(2));
        assertThat(skip.getOverlap()).isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
        assertThat(skip.getCatchupWindow()).isEqualTo(Duration.ofMinutes(2));
        assertThat(ScheduleSpecs.policies(limited, Duration.ofSeconds(1)).getCatchupWindow()).as("Temporal's least").isEqualTo(Duration.ofSeconds(10));

        SchedulePolicy open = SchedulePolicy.named("report");
        assertThat(ScheduleSpecs.state(cron, open).isLimitedAction()).isFalse();
        assertThat(ScheduleSpecs.spec(cron, T0, T0, open).orElseThrow().getEndAt()).isNull();
        assertThat(ScheduleSpecs.policies(open, Duration.ofMinutes(1)).getCatchupWindow()).isEqualTo(Duration.ofDays(365));
    }

    @Test void aCalendarMatchesOnlyItsRanges() {
        ScheduleCalendarSpec c = ScheduleSpecs.at(Instant.parse("2027-03-04T05:06:07Z"));
        assertThat(CalendarTimes.next(List.of(c), Instant.parse("2027-03-04T05:06:07Z"), Instant.parse("2030-01-01T00:00:00Z"))).isEmpty();
        assertThat(CalendarTimes.next(List.of(c), Instant.parse("2027-03-04T05:06:06Z"), Instant.parse("2030-01-01T00:00:00Z")))
                .contains(Instant.parse("2027-03-04T05:06:07Z"));
    }
}
