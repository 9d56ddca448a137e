package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.schedule.ManualScheduleTimer;
import dev.finch.schedule.MissedRuns;
import dev.finch.schedule.SchedulePolicy;
import dev.finch.schedule.ScheduledRun;
import dev.finch.store.FinchStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedules kept in the store outlive the Finch (and the process) that made them: the next Finch built on the store
 * arms them again, and a run missed while none ran follows its policy — run once at start, or skipped.
 */
class ScheduleRestartTest {
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final String WRITE = "memory.write(tree=global,path=**)";

    @TempDir Path dir;

    private final List<ScheduledRun> runs = new CopyOnWriteArrayList<>();

    private SchedulePolicy report(MissedRuns missed) {
        return SchedulePolicy.named("report").withGrant(WRITE).withMissed(missed).onOutcome(runs::add);
    }

    /** A Finch on {@code store} whose clock reads {@code now}, with policy {@code report} if {@code missed} is given. */
    private static Finch finch(FinchStore store, ManualScheduleTimer timer, SchedulePolicy... policies) {
        Finch.Builder b = Finch.builder().store(store).scheduleTimer(timer);
        for (SchedulePolicy p : policies) b.schedulePolicy(p);
        return b.build();
    }

    private static String create(Finch f, String when, String program) {
        Outcome o = f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)"))
                .submit(Submission.of("(say (schedule-create \"report\" \"" + when + "\" \"" + program.replace("\"", "\\\"") + "\"))", "make.lisp"));
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        return o.output();
    }

    @Test void aScheduleNotYetDueIsArmedAgainByTheNextFinchWithItsPolicysGrants() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            String id;
            try (Finch first = finch(store, new ManualScheduleTimer(T0), report(MissedRuns.RUN_ONCE))) {
                id = create(first, "PT1H", "(memory-put \"global\" \"k\" (json-of-int 1)) (say \"ran\")");
            }
            assertThat(runs).isEmpty();
            ManualScheduleTimer later = new ManualScheduleTimer(T0.plus(Duration.ofMinutes(30)));
            try (Finch second = finch(store, later, report(MissedRuns.RUN_ONCE))) {
                assertThat(later.pending()).containsExactly(T0.plus(Duration.ofHours(1)));
                assertThat(later.advance(Duration.ofMinutes(30))).isEqualTo(1);
            }
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.scheduleId()).isEqualTo(id);
                assertThat(r.missed()).isFalse();
                assertThat(r.outcome().status()).as(r.outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
                assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + id);
            });
            assertThat(store.memory().get(dev.finch.store.Memory.Space.global().at("k"))).isPresent();
            assertThat(store.schedules().all()).isEmpty();
        }
    }

    @Test void missedRunsRunOnceAtStartOrAreSkippedAsThePolicySays() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            try (Finch first = finch(store, new ManualScheduleTimer(T0), report(MissedRuns.RUN_ONCE))) {
                create(first, "PT1M", "(say \"one-shot\")");
                create(first, "*/10 * * * *", "(say \"cron\")");
            }
            // Down for an hour: six cron times and the one-shot missed. RUN_ONCE: each runs once, at start.
            ManualScheduleTimer t1 = new ManualScheduleTimer(T0.plus(Duration.ofHours(1)).plusSeconds(30));
            try (Finch second = finch(store, t1, report(MissedRuns.RUN_ONCE))) {
                assertThat(t1.advance(Duration.ZERO)).isEqualTo(2);
                assertThat(runs).extracting(r -> r.outcome().output()).containsExactlyInAnyOrder("one-shot", "cron");
                assertThat(runs).allSatisfy(r -> assertThat(r.missed()).isTrue());
                // The cron schedule goes on at its next time.
                assertThat(t1.pending()).containsExactly(T0.plus(Duration.ofMinutes(70)));
            }
            runs.clear();
            // Down again past 11:10 and 11:20, now SKIP: nothing runs at start, the cron waits for 11:30.
            ManualScheduleTimer t2 = new ManualScheduleTimer(T0.plus(Duration.ofMinutes(85)));
            try (Finch third = finch(store, t2, report(MissedRuns.SKIP))) {
                assertThat(t2.advance(Duration.ZERO)).isZero();
                assertThat(t2.pending()).containsExactly(T0.plus(Duration.ofMinutes(90)));
                assertThat(t2.advance(Duration.ofMinutes(5))).isEqualTo(1);
                assertThat(runs).singleElement().satisfies(r -> assertThat(r.missed()).isFalse());
            }
            assertThat(store.schedules().all()).singleElement().satisfies(s -> assertThat(s.runs()).isEqualTo(2));
        }
    }

    @Test void aMissedOneShotIsDroppedUnderSkipAndAScheduleOfAnUndefinedPolicyWaitsKept() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            String kept;
            try (Finch first = finch(store, new ManualScheduleTimer(T0), report(MissedRuns.SKIP))) {
                create(first, "PT1M", "(say \"missed\")");
                kept = create(first, "PT2H", "(say \"later\")");
            }
            ManualScheduleTimer t1 = new ManualScheduleTimer(T0.plus(Duration.ofHours(1)));
            try (Finch second = finch(store, t1, report(MissedRuns.SKIP))) {
                assertThat(t1.advance(Duration.ZERO)).isZero();
                assertThat(store.schedules().all()).extracting(s -> s.id()).containsExactly(kept);
            }
            // A Finch that does not define the policy leaves its schedules kept and unarmed.
            ManualScheduleTimer t2 = new ManualScheduleTimer(T0.plus(Duration.ofHours(3)));
            try (Finch third = finch(store, t2)) {
                assertThat(t2.pending()).isEmpty();
            }
            assertThat(store.schedules().all()).extracting(s -> s.id()).containsExactly(kept);
            assertThat(runs).isEmpty();
        }
    }

    @Test void aWordScheduledByNameRunsAfterARestartWithItsPolicysGrants() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            String id;
            try (Finch first = finch(store, new ManualScheduleTimer(T0), report(MissedRuns.RUN_ONCE))) {
                var s = first.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)"));
                Outcome made = s.submit(Submission.of("(define (note) (memory-put \"global\" \"by-word\" (json-of-int 7)) \"noted\") "
                        + "(say (schedule-create { :policy \"report\" :when \"PT1M\" :word \"note\" }))", "make.lisp"));
                assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
                id = made.output();
            }
            assertThat(store.schedules().find(id)).hasValueSatisfying(k -> {
                assertThat(k.word()).contains("note");
                assertThat(k.language()).contains("forth");
            });
            ManualScheduleTimer later = new ManualScheduleTimer(T0.plusSeconds(30));
            try (Finch second = finch(store, later, report(MissedRuns.RUN_ONCE))) {
                assertThat(later.advance(Duration.ofSeconds(30))).isEqualTo(1);
            }
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.outcome().status()).as(r.outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
                assertThat(r.outcome().stack()).extracting(e -> e.display()).containsExactly("\"noted\"");
            });
            assertThat(store.memory().get(dev.finch.store.Memory.Space.global().at("by-word"))).isPresent();
        }
    }

    @Test void aFinchThatKeepsSchedulesOnlyRunsNoneAndARefreshingOneRunsWhatOthersKeptSince() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            ManualScheduleTimer runner = new ManualScheduleTimer(T0);
            try (Finch running = Finch.builder().store(store).scheduleTimer(runner).scheduleRefresh(Duration.ofSeconds(5))
                    .schedulePolicy(report(MissedRuns.SKIP)).build()) {
                ManualScheduleTimer keeper = new ManualScheduleTimer(T0);
                String id;
                try (Finch keeping = Finch.builder().store(store).scheduleTimer(keeper).keepSchedulesOnly().schedulePolicy(report(MissedRuns.SKIP)).build()) {
                    id = create(keeping, "PT2S", "(say \"kept\")");
                    // The keeper lists what it kept, and arms nothing.
                    Outcome listed = keeping.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)"))
                            .submit(Submission.of("(say (show (schedule-list \"report\")))", "list.lisp"));
                    assertThat(listed.output()).contains(id, T0.plusSeconds(2).toString());
                    assertThat(keeper.pending()).isEmpty();
                    assertThat(keeper.advance(Duration.ofMinutes(1))).isZero();
                }
                assertThat(runs).isEmpty();
                // The running Finch finds it at its next refresh, late but not missed (its policy skips missed runs).
                runner.advance(Duration.ofSeconds(5));
                assertThat(runs).singleElement().satisfies(r -> {
                    assertThat(r.scheduleId()).isEqualTo(id);
                    assertThat(r.missed()).isFalse();
                    assertThat(r.outcome().output()).isEqualTo("kept");
                });
                assertThat(store.schedules().all()).isEmpty();
            }
        }
    }

    @Test void ofTwoSchedulersOnOneStoreOneMakesEachRun() {
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            ManualScheduleTimer t1 = new ManualScheduleTimer(T0);
            ManualScheduleTimer t2 = new ManualScheduleTimer(T0);
            try (Finch a = finch(store, t1, report(MissedRuns.RUN_ONCE).withMaxRuns(3));
                 Finch b = Finch.builder().store(store).scheduleTimer(t2).scheduleRefresh(Duration.ofMinutes(1))
                         .schedulePolicy(report(MissedRuns.RUN_ONCE).withMaxRuns(3)).build()) {
                create(a, "*/5 * * * *", "(say \"tick\")");
                // b finds it at its refresh; both have it armed from then on.
                t2.advance(Duration.ofMinutes(1));
                assertThat(t2.pending()).contains(T0.plus(Duration.ofMinutes(5)));
                // Each time it falls due, one or the other reaches it first; the other finds the run made.
                for (int i = 0; i < 4; i++) {
                    ManualScheduleTimer first = i % 2 == 0 ? t1 : t2;
                    ManualScheduleTimer second = i % 2 == 0 ? t2 : t1;
                    first.advance(Duration.ofMinutes(5));
                    second.advance(Duration.ofMinutes(5));
                }
            }
            assertThat(runs).extracting(ScheduledRun::run).containsExactly(1L, 2L, 3L);
            assertThat(runs).extracting(ScheduledRun::at).containsExactly(T0.plus(Duration.ofMinutes(5)), T0.plus(Duration.ofMinutes(10)),
                    T0.plus(Duration.ofMinutes(15)));
            assertThat(store.schedules().all()).isEmpty();
        }
    }

    @Test void aScheduleMadeByAnotherProcessRunsAfterItExitsWithItsPolicysGrants() throws Exception {
        Path state = dir.resolve("state");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process maker = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classPath, ScheduleMaker.class.getName(),
                state.toString()).redirectError(dir.resolve("maker.err").toFile()).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(maker.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) lines.add(line);
        }
        assertThat(maker.waitFor(3, TimeUnit.MINUTES)).as("the maker exited (a hang guard)").isTrue();
        assertThat(maker.exitValue()).as("maker: %s (stderr in %s)", lines, dir.resolve("maker.err")).isZero();
        String id = lines.get(lines.size() - 1);
        // The embedding process restarts: a new Finch on the same state directory, on the real clock. Whether the run
        // is due yet or was missed (RUN_ONCE) depends on how long the restart took; either way it runs once.
        CompletableFuture<ScheduledRun> ran = new CompletableFuture<>();
        try (Finch f = Finch.builder().stateDirectory(state)
                .schedulePolicy(SchedulePolicy.named("report").withGrant(WRITE).onOutcome(ran::complete)).build()) {
            ScheduledRun r = ran.get(3, TimeUnit.MINUTES); // a hang guard, not a bound on time
            assertThat(r.scheduleId()).isEqualTo(id);
            assertThat(r.outcome().status()).as(r.outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(r.outcome().output()).isEqualTo("ran");
            assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + id);
            assertThat(f.store().orElseThrow().memory().get(dev.finch.store.Memory.Space.global().at("done"))).isPresent();
        }
    }
}
