package dev.finch.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import dev.finch.vm.boundary.HostResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The schedule words over the in-process scheduler: on a timer moved by hand (every run that falls due, and only
 * those), and on the real clock with a one-second delay. A scheduled run is a fresh session with its policy's grants and
 * source {@code schedule:<id>}; its outcome goes to the policy's callback.
 */
class ScheduleWordsTest {
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final String GRANT = "schedule.create(policy=report)";

    private final List<ScheduledRun> runs = new CopyOnWriteArrayList<>();
    private final ManualScheduleTimer timer = new ManualScheduleTimer(T0);

    private SchedulePolicy report() {
        return SchedulePolicy.named("report").withGrant("memory.write(tree=global,path=**)").withGrant("memory.read(tree=global,path=**)")
                .onOutcome(runs::add);
    }

    private Finch finch(SchedulePolicy... policies) {
        Finch.Builder b = Finch.builder().scheduleTimer(timer);
        for (SchedulePolicy p : policies) b.schedulePolicy(p);
        return b.build();
    }

    private static Outcome lisp(Session s, String src) { return s.submit(Submission.of(src, "p.lisp")); }

    private static Session granted(Finch f) { return f.newSession(SessionOptions.DEFAULT.withGrant(GRANT)); }

    @Test void aDelayedRunIsAFreshSessionWithThePolicysGrantsAndTheScheduleAsItsSource() {
        try (Finch f = finch(report())) {
            Session s = granted(f);
            Outcome made = lisp(s, "(say (schedule-create \"report\" \"PT10S\" \"(memory-put \\\"global\\\" \\\"k\\\" (json-of-int 7)) (say \\\"ran\\\")\"))");
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            String id = made.output();
            assertThat(id).startsWith("sch-");
            assertThat(timer.advance(Duration.ofSeconds(9))).isZero();
            assertThat(runs).isEmpty();
            assertThat(timer.advance(Duration.ofSeconds(1))).isEqualTo(1);
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.scheduleId()).isEqualTo(id);
                assertThat(r.policy()).isEqualTo("report");
                assertThat(r.run()).isEqualTo(1);
                assertThat(r.at()).isEqualTo(T0.plusSeconds(10));
                assertThat(r.missed()).isFalse();
                assertThat(r.outcome().status()).as(r.outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
                assertThat(r.outcome().output()).isEqualTo("ran");
                assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + id);
            });
            // The policy's grant wrote memory; the creating session, which holds no memory grant, reads it with one.
            Outcome read = lisp(f.newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=global,path=**)")),
                    "(say (show (memory-get \"global\" \"k\")))");
            assertThat(read.output()).isEqualTo("{\"tag\":\"some\",\"value\":7}");
            // A one-shot schedule is done after its run: nothing listed, nothing pending.
            assertThat(lisp(s, "(say (show (schedule-list \"report\")))").output()).isEqualTo("[]");
            assertThat(timer.pending()).isEmpty();
        }
    }

    @Test void aCronScheduleRunsEachTimeItMatchesUpToThePolicysMaxRuns() {
        try (Finch f = finch(report().withMaxRuns(3))) {
            Outcome made = lisp(granted(f), "(say (schedule-create \"report\" \"*/5 * * * *\" \"(say \\\"tick\\\")\"))");
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(timer.advance(Duration.ofHours(1))).isEqualTo(3);
            assertThat(runs).extracting(ScheduledRun::at).containsExactly(T0.plusSeconds(300), T0.plusSeconds(600), T0.plusSeconds(900));
            assertThat(runs).extracting(ScheduledRun::run).containsExactly(1L, 2L, 3L);
            assertThat(timer.pending()).isEmpty();
        }
    }

    @Test void aScheduleEndsWithThePolicysLifetime() {
        try (Finch f = finch(report().withLifetime(Duration.ofMinutes(3)))) {
            lisp(granted(f), "(schedule-create \"report\" \"* * * * *\" \"(say \\\"tick\\\")\")");
            assertThat(timer.advance(Duration.ofHours(1))).isEqualTo(3);
            assertThat(runs).extracting(ScheduledRun::at).last().isEqualTo(T0.plusSeconds(180));
            // A delay past the lifetime is refused when the schedule is made.
            Outcome late = lisp(granted(f), "(schedule-create \"report\" \"PT4M\" \"(say \\\"late\\\")\")");
            assertThat(late.diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-001");
        }
    }

    @Test void schedulesAreListedAndCancelledByPolicyInCoForthToo() {
        try (Finch f = finch(report(), SchedulePolicy.named("other").onOutcome(runs::add))) {
            Session s = f.newSession(SessionOptions.DEFAULT.withGrant(GRANT).withGrant("schedule.create(policy=other)"));
            String a = forth(s, "\"report\" \"PT1M\" \"\\\"a\\\" say\" schedule-create say").output();
            String b = forth(s, "\"report\" \"2026-12-07T10:02:00Z\" \"\\\"b\\\" say\" schedule-create say").output();
            String c = forth(s, "\"other\" \"PT1M\" \"\\\"c\\\" say\" schedule-create say").output();
            Outcome listed = lisp(s, "(say (show (schedule-list \"report\")))");
            assertThat(listed.status()).as(listed.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(listed.output()).contains("\"id\":\"" + a + "\"", "\"next\":\"" + T0.plusSeconds(60) + "\"",
                    "\"id\":\"" + b + "\"", "\"next\":\"" + T0.plusSeconds(120) + "\"", "\"when\":\"PT1M\"", "\"runs\":0")
                    .doesNotContain(c);
            // Another policy's schedule is not cancelled through this one; a cancelled one is gone.
            assertThat(forth(s, "\"report\" \"" + c + "\" schedule-cancel show say").output()).isEqualTo("false");
            assertThat(forth(s, "\"report\" \"" + a + "\" schedule-cancel show say").output()).isEqualTo("true");
            assertThat(forth(s, "\"report\" \"" + a + "\" schedule-cancel show say").output()).isEqualTo("false");
            assertThat(timer.advance(Duration.ofMinutes(5))).isEqualTo(2);
            assertThat(runs).extracting(r -> r.outcome().output()).containsExactly("c", "b");
        }
    }

    @Test void aPolicyTheHostDidNotDefineAndABadWhenOrProgramAreRefused() {
        try (Finch f = finch(report())) {
            Session s = f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=*)"));
            assertThat(lisp(s, "(schedule-create \"nightly\" \"PT1M\" \"(say 1)\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-002");
            assertThat(lisp(s, "(schedule-list \"nightly\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-002");
            assertThat(lisp(s, "(schedule-create \"report\" \"tomorrow\" \"(say 1)\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-001");
            assertThat(lisp(s, "(schedule-create \"report\" \"PT0S\" \"(say 1)\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-001");
            assertThat(lisp(s, "(schedule-create \"report\" \"2026-12-07T09:00:00Z\" \"(say 1)\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-001");
            assertThat(lisp(s, "(schedule-create \"report\" \"61 * * * *\" \"(say 1)\")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-001");
            assertThat(lisp(s, "(schedule-create \"report\" \"PT1M\" \"  \")").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-003");
            assertThat(timer.pending()).isEmpty();
        }
    }

    @Test void theRequirementIsInferredFromALiteralPolicyPreviewedAndAskedFor() {
        try (Finch f = finch(report())) {
            Session s = f.newSession();
            String src = "(schedule-create \"report\" \"PT1M\" \"(say 1)\")";
            CheckResult preview = s.check(Submission.of(src, "p.lisp"));
            assertThat(preview.inferredCapabilities()).containsExactly(GRANT);
            Outcome asked = lisp(s, src);
            assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(asked.requiredCapabilities()).containsExactly(GRANT);
            assertThat(timer.pending()).isEmpty();
            // A grant of another policy is not enough.
            Outcome other = lisp(f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=other)")), src);
            assertThat(other.status()).isEqualTo(Outcome.Status.SUSPENDED);
        }
    }

    /**
     * The paired no-grant cases of the three words (NoGrantTest's sessions define no policy): without a grant each
     * pauses at the word with its concrete requirement and the output before it, dispatching nothing; approved once it
     * completes; denied it fails with E-HOST-001, still dispatching nothing. In deferred-host mode the embedder answers.
     */
    @Test void eachWordPausesWithoutAGrantCompletesApprovedAndDispatchesNothingDenied() {
        try (Finch f = finch(report())) {
            Map<String, String> cases = new LinkedHashMap<>();
            cases.put("schedule-create", "(say (schedule-create \"report\" \"PT1M\" \"(say 1)\"))");
            cases.put("schedule-list", "(say (show (list-length (schedule-list \"report\"))))");
            cases.put("schedule-cancel", "(say (show (schedule-cancel \"report\" \"sch-none\")))");
            for (var c : cases.entrySet()) {
                Session s = f.newSession();
                List<Instant> armed = timer.pending();
                Outcome paused = lisp(s, "(say \"before\") " + c.getValue());
                assertThat(paused.status()).as(c.getKey()).isEqualTo(Outcome.Status.SUSPENDED);
                assertThat(paused.requiredCapabilities()).as(c.getKey()).containsExactly(GRANT);
                assertThat(paused.output()).isEqualTo("before");
                assertThat(timer.pending()).as("nothing dispatched before approval").isEqualTo(armed);
                Outcome denied = s.deny(paused.executionId(), "no");
                assertThat(denied.diagnostics().get(0).code()).isEqualTo("E-HOST-001");
                assertThat(timer.pending()).isEqualTo(armed);
                Outcome again = lisp(s, "(say \"before\") " + c.getValue());
                Outcome approved = s.approve(again.executionId(), Scope.ONCE);
                assertThat(approved.status()).as(approved.toString()).isEqualTo(Outcome.Status.COMPLETED);
            }
            assertThat(timer.pending()).hasSize(1);
            // Deferred: the embedder answers the request, and nothing is scheduled here.
            Session deferred = f.newSession(SessionOptions.DEFAULT.withDeferredHost(true).withGrant(GRANT));
            Outcome asked = lisp(deferred, cases.get("schedule-create"));
            var pending = deferred.pendingRequest(asked.executionId()).orElseThrow();
            assertThat(pending.operation()).isEqualTo("schedule-create");
            Outcome answered = deferred.respond(asked.executionId(), HostResponse.result(pending.sequence(), Value.of("sch-elsewhere")));
            assertThat(answered.output()).isEqualTo("sch-elsewhere");
            assertThat(timer.pending()).hasSize(1);
        }
    }

    @Test void aRunNeedingAGrantItsPolicyDoesNotGivePausesAndIsReported() {
        try (Finch f = finch(SchedulePolicy.named("bare").onOutcome(runs::add))) {
            lisp(f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=bare)")),
                    "(schedule-create \"bare\" \"PT1S\" \"(memory-put \\\"global\\\" \\\"k\\\" (json-of-int 1))\")");
            timer.advance(Duration.ofSeconds(1));
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.outcome().status()).isEqualTo(Outcome.Status.SUSPENDED);
                assertThat(r.outcome().requiredCapabilities()).containsExactly("memory.write(tree=global,path=k)");
            });
        }
    }

    @Test void closingTheFinchStopsItsScheduler() {
        Finch f = finch(report());
        lisp(granted(f), "(schedule-create \"report\" \"PT1S\" \"(say 1)\")");
        f.close();
        assertThat(timer.advance(Duration.ofMinutes(1))).isZero();
        assertThat(runs).isEmpty();
    }

    @Test void onTheRealClockADelayedRunHappens() throws Exception {
        CompletableFuture<ScheduledRun> ran = new CompletableFuture<>();
        try (Finch f = Finch.builder().schedulePolicy(SchedulePolicy.named("soon").onOutcome(ran::complete)).build()) {
            Outcome made = f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=soon)"))
                    .submit(Submission.of("\"soon\" \"PT1S\" \"\\\"real\\\" say\" schedule-create say", "p.fs").withLanguage(Language.FORTH));
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            ScheduledRun r = ran.get(120, TimeUnit.SECONDS); // a hang guard, not a bound on time
            assertThat(r.outcome().status()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(r.outcome().output()).isEqualTo("real");
            assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + made.output());
        }
    }

    // -------------------------------------------------------------------------------------- the record forms

    /** A Lisp string literal of {@code text}. */
    private static String q(String text) { return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    @Test void aRecordNamesTheProgramsLanguageAndAMicroNormanProgramRunsAsMicroNorman() {
        try (Finch f = finch(report())) {
            Session s = granted(f);
            // µNorman text starts with '(' too: only the record's language makes it µNorman (as Lisp it would not lower).
            String norman = "(define twice (x) (* x 2)) (twice 21)";
            Outcome made = lisp(s, "(say (schedule-create { :policy \"report\" :when \"PT10S\" :program " + q(norman) + " :language \"norman\" }))");
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(made.inferredCapabilities()).as("a record's policy is known when the run asks").contains("schedule.create(policy=*)");
            // Co-Forth's record, with "" for the contract's rule: Lisp here.
            Outcome guessed = forth(s, "{ language: \"\" policy: \"report\" program: \"(say \\\"guessed\\\")\" when: \"PT20S\" } schedule-create say");
            assertThat(guessed.status()).as(guessed.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(timer.advance(Duration.ofSeconds(20))).isEqualTo(2);
            assertThat(runs.get(0).scheduleId()).isEqualTo(made.output());
            assertThat(runs.get(0).outcome().status()).as(runs.get(0).outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(runs.get(0).outcome().language()).isEqualTo("norman");
            assertThat(runs.get(0).outcome().stack()).extracting(e -> e.type() + " " + e.display()).containsExactly("float 42.0");
            assertThat(runs.get(1).outcome().language()).isEqualTo("lisp");
            assertThat(runs.get(1).outcome().output()).isEqualTo("guessed");
        }
    }

    @Test void aRecordsLanguageMustBeOneFinchReadsAndItsPolicyIsAskedForWhenTheRunReachesIt() {
        try (Finch f = finch(report())) {
            Session s = granted(f);
            Outcome bad = lisp(s, "(schedule-create { :policy \"report\" :when \"PT10S\" :program \"(say 1)\" :language \"python\" })");
            assertThat(bad.diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-003");
            // Without a grant the run pauses at the word for the policy the record holds.
            Outcome asked = lisp(f.newSession(), "(schedule-create { :policy \"report\" :when \"PT10S\" :word \"nothing\" })");
            assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(asked.requiredCapabilities()).containsExactly(GRANT);
            assertThat(timer.pending()).isEmpty();
        }
    }

    @Test void aWordScheduledByNameRunsWithWhatItReachesAfterItsSessionIsGone() {
        try (Finch f = finch(report())) {
            Session s = granted(f);
            Outcome defined = lisp(s, "(define greeting \"hello\") (define (shout t) (string-append t \"!\")) "
                    + "(define (report) (say (shout greeting)) (memory-put \"global\" \"r\" (json-of-int 1)) (* 6 7))");
            assertThat(defined.status()).as(defined.toString()).isEqualTo(Outcome.Status.COMPLETED);
            Outcome made = lisp(s, "(say (schedule-create { :policy \"report\" :when \"PT1M\" :word \"report\" }))");
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            // Redefining a word afterwards changes nothing the schedule kept.
            lisp(s, "(define (shout t) t)");
            s.close();
            assertThat(timer.advance(Duration.ofMinutes(1))).isEqualTo(1);
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.outcome().status()).as(r.outcome().toString()).isEqualTo(Outcome.Status.COMPLETED);
                assertThat(r.outcome().output()).isEqualTo("hello!");
                assertThat(r.outcome().stack()).extracting(e -> e.type() + " " + e.display()).containsExactly("int 42");
                assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + made.output());
                assertThat(r.outcome().language()).isEqualTo("forth");
            });
        }
    }

    @Test void aWordOfTheSameProgramIsScheduledByNameInCoForth() {
        try (Finch f = finch(report())) {
            Outcome made = forth(granted(f), ": part ( -- string ) \"part\" ; : whole ( -- string int ) part \" whole\" string-append dup say 2 ;\n"
                    + "{ policy: \"report\" when: \"PT5S\" word: \"whole\" } schedule-create say");
            assertThat(made.status()).as(made.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(lisp(granted(f), "(say (show (schedule-list \"report\")))").output()).contains(": whole ( -- string int", ": part ( -- string )");
            timer.advance(Duration.ofSeconds(5));
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.outcome().output()).isEqualTo("part whole");
                assertThat(r.outcome().stack()).extracting(e -> e.display()).containsExactly("\"part whole\"", "2");
            });
        }
    }

    @Test void aWordThatIsUnknownTakesInputsOrCannotBeKeptApartIsRefusedWithItsCode() {
        try (Finch f = finch(report())) {
            Session s = granted(f);
            lisp(s, "(define (inc n) (+ n 1)) (define numbers (list 1 2 3)) (define (count) (list-length numbers)) "
                    + "(define (base) 1) (define (uses-base) (+ (base) 1))");
            lisp(s, "(define (base) 2)");
            Map<String, String> refused = new LinkedHashMap<>();
            refused.put("nothing", "E-SCHEDULE-006");
            refused.put("numbers", "E-SCHEDULE-006");
            refused.put("string-append", "E-SCHEDULE-006");
            refused.put("", "E-SCHEDULE-006");
            refused.put("inc", "E-SCHEDULE-007");
            refused.put("count", "E-SCHEDULE-008");
            refused.put("uses-base", "E-SCHEDULE-008");
            for (var c : refused.entrySet()) {
                Outcome o = lisp(s, "(schedule-create { :policy \"report\" :when \"PT1M\" :word " + q(c.getKey()) + " })");
                assertThat(o.diagnostics()).as(c.getKey()).extracting(d -> d.code()).containsExactly(c.getValue());
            }
            assertThat(lisp(s, "(schedule-create { :policy \"report\" :when \"PT1M\" :word \"count\" })").diagnostics().get(0).message())
                    .contains("constant \"numbers\"");
            assertThat(lisp(s, "(schedule-create { :policy \"report\" :when \"PT1M\" :word \"uses-base\" })").diagnostics().get(0).message())
                    .contains("\"base\"", "redefined");
            // An undefined policy is refused before the word is looked at.
            assertThat(lisp(f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=*)")),
                    "(schedule-create { :policy \"nightly\" :when \"PT1M\" :word \"nothing\" })").diagnostics().get(0).code()).isEqualTo("E-SCHEDULE-002");
            assertThat(timer.pending()).isEmpty();
        }
    }

    private static Outcome forth(Session s, String src) { return s.submit(Submission.of(src, "p.fs").withLanguage(Language.FORTH)); }

    @Test void aScheduleHostOfTheBuildersTakesTheWordsInsteadOfTheFinchsScheduler() {
        List<String> asked = new CopyOnWriteArrayList<>();
        dev.finch.host.ScheduleHost elsewhere = new dev.finch.host.ScheduleHost() {
            @Override public String create(String policy, dev.finch.host.ScheduleWhen when, Work work) {
                // A Finch session hands a schedule host program text only, its language resolved (a word as Co-Forth).
                Work.Program p = (Work.Program) work;
                asked.add("create " + policy + " " + when.spelling() + " " + p.text().strip() + " " + p.language().orElse("?"));
                return "sch-elsewhere";
            }

            @Override public List<Listed> list(String policy) {
                asked.add("list " + policy);
                return List.of(new Listed("sch-elsewhere", policy, "PT1M", "(say 1)", 0, T0));
            }

            @Override public boolean cancel(String policy, String id) {
                asked.add("cancel " + policy + " " + id);
                return true;
            }
        };
        try (Finch f = Finch.builder().scheduleHost(elsewhere).build()) {
            Session s = granted(f);
            assertThat(lisp(s, "(say (schedule-create \"report\" \"PT1M\" \"(say 1)\"))").output()).isEqualTo("sch-elsewhere");
            assertThat(lisp(s, "(say (show (schedule-list \"report\")))").output()).contains("\"id\":\"sch-elsewhere\"", "\"next\":\"" + T0 + "\"");
            assertThat(lisp(s, "(say (show (schedule-cancel \"report\" \"sch-elsewhere\")))").output()).isEqualTo("true");
            assertThat(forth(s, ": tick ( -- ) \"tick\" say ; { policy: \"report\" when: \"PT1M\" word: \"tick\" } schedule-create say").diagnostics()).isEmpty();
        }
        assertThat(asked).hasSize(4).startsWith("create report PT1M (say 1) lisp", "list report", "cancel report sch-elsewhere");
        assertThat(asked.get(3)).startsWith("create report PT1M ").contains(": tick").endsWith(" forth");
        // Its policies live on the host: a builder that also defines one (or a timer) is refused.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Finch.builder().scheduleHost(elsewhere).schedulePolicy(report()).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("schedule host");
    }
}
