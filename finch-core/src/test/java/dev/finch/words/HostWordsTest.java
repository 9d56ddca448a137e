package dev.finch.words;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.WordInfo;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import dev.finch.vm.declare.WordFailure;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Words an embedder writes in Java, end to end: installed on {@code Finch.builder()} (or into one session), declared
 * once beside their code, listed by discovery, callable from Lisp and Co-Forth in both tiers, passing the host
 * boundary when they name a capability, and never crashing a run whatever their code does.
 */
class HostWordsTest {

    /** The host's words: a pure one, one with authority, and some that misbehave. */
    public static final class Weather {
        static final AtomicInteger FORECASTS = new AtomicInteger();

        @Word(name = "celsius", doc = "Degrees Fahrenheit in Celsius.")
        @Overload(sig = "float -> float")
        public static double celsius(double f) { return (f - 32) * 5 / 9; }

        @Word(name = "shout", doc = "The text in capitals, with an exclamation mark.", category = WordSpec.Category.STRING)
        @Overload(sig = "string -> string")
        public static String shout(String s) { return s.toUpperCase(java.util.Locale.ROOT) + "!"; }

        @Word(name = "forecast", doc = "Tomorrow's forecast for a city, from the host's weather service.")
        @Overload(sig = "string -> string ! {host.call(forecast)}")
        public static String forecast(String city) {
            FORECASTS.incrementAndGet();
            if (city.isEmpty()) throw new WordFailure("no city given");
            return "sunny in " + city;
        }

        @Word(name = "broken", doc = "Always throws.")
        @Overload(sig = "int -> int")
        public static long broken(long x) { throw new IllegalStateException("the host's bug"); }

        @Word(name = "liar", doc = "Answers the wrong kind of value.")
        @Overload(sig = "int -> list<int>")
        public static Object liar(long x) { return "not a list"; }
    }

    private static final Finch FINCH = Finch.builder().words(Weather.class).build();

    @BeforeEach void reset() { Weather.FORECASTS.set(0); }

    private static Outcome run(Session s, String program) {
        return s.submit(Submission.of(program, "test"));
    }

    private static List<String> stack(Outcome o) { return o.stack().stream().map(StackEntry::display).toList(); }

    private static String code(Outcome o) { return o.diagnostics().stream().map(Diagnostic::code).findFirst().orElse("none"); }

    @Test void aPureWordIsCallableFromLispAndCoForthInBothTiers() {
        for (Finch.Tier tier : Finch.Tier.values()) {
            Finch f = Finch.builder().words(Weather.class).tier(tier).build();
            Session s = f.newSession();
            assertThat(stack(run(s, "212.0 celsius"))).as("%s", tier).containsExactly("100.0");
            assertThat(stack(run(s, "(shout \"hi\")"))).as("%s", tier).containsExactly("100.0", "\"HI!\"");
            assertThat(stack(run(s, ": loud ( string -- string ) shout shout ; \"a\" loud"))).as("%s", tier).endsWith("\"A!!\"");
            assertThat(stack(run(s, "(define (warm [f : float]) : bool (> (celsius f) 20.0)) (warm 80.0)"))).as("%s", tier).endsWith("true");
        }
    }

    @Test void µNormanCallsAHostsWordAsAPredefinedFunction() {
        Session s = FINCH.newSession();
        Outcome o = s.submit(Submission.of("(define loud (t) (shout (shout t)))\n(loud \"hey\")", "agent.nm").withLanguage(dev.finch.Language.NORMAN));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(o)).containsExactly("\"HEY!!\"");
        Outcome c = s.submit(Submission.of("(celsius 212)", "c.nm").withLanguage(dev.finch.Language.NORMAN));
        assertThat(stack(c)).endsWith("100.0");
        // With authority: the µNorman function's call pauses at the host boundary like an ask would.
        Outcome paused = s.submit(Submission.of("(define weather (city) (forecast city))\n(weather \"Oslo\")", "w.nm")
                .withLanguage(dev.finch.Language.NORMAN));
        assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(paused.requiredCapabilities()).containsExactly("host.call(forecast)");
        assertThat(stack(s.approve(paused.executionId(), Scope.ONCE))).endsWith("\"sunny in Oslo\"");
        // A word µNorman cannot spell (int, list<int>) is not one of its functions; its own definitions shadow the host's.
        assertThat(code(s.submit(Submission.of("(broken 1)", "b.nm").withLanguage(dev.finch.Language.NORMAN)))).isEqualTo("E-NORMAN-102");
        Outcome shadow = s.submit(Submission.of("(define shout (t) t)\n(shout \"quiet\")", "s.nm").withLanguage(dev.finch.Language.NORMAN));
        assertThat(stack(shadow)).endsWith("\"quiet\"");
    }

    @Test void itsTypeIsCheckedLikeAnyWord() {
        Outcome o = run(FINCH.newSession(), "\"hot\" celsius");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-VERIFY-002");
        assertThat(code(run(FINCH.newSession(), "(shout 1)"))).isEqualTo("E-TYPE-001");
    }

    @Test void discoveryListsItWithItsDeclaration() {
        Session s = FINCH.newSession();
        WordInfo info = s.inspectWord("forecast").orElseThrow();
        assertThat(info).isInstanceOf(WordInfo.CoreWord.class);
        assertThat(((WordInfo.CoreWord) info).signature()).isEqualTo("string -> string ! {host.call(forecast)}");
        assertThat(s.searchWord("weather")).extracting(w -> w.name()).contains("forecast");
        assertThat(s.getLanguageDefinition().text()).contains("`celsius : float -> float`");
        assertThat(stack(run(s, "(json-stringify (vm-vocabulary))")).get(0)).contains("forecast");
        assertThat(FINCH.vocabulary().word("shout").orElseThrow().origin()).isEqualTo(WordSpec.Provenance.HOST);
    }

    @Test void aWordWithACapabilityPausesForApprovalAndRunsOnceAfterIt() {
        Session s = FINCH.newSession();
        Outcome o = run(s, "\"Oslo\" forecast");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("host.call(forecast)");
        assertThat(o.inferredCapabilities()).contains("host.call(forecast)");
        assertThat(Weather.FORECASTS.get()).as("nothing runs before approval").isZero();
        Outcome done = s.approve(o.executionId(), Scope.ONCE);
        assertThat(stack(done)).containsExactly("\"sunny in Oslo\"");
        assertThat(Weather.FORECASTS.get()).isEqualTo(1);
    }

    @Test void aGrantLetsItThroughAndADenialStopsIt() {
        Session granted = FINCH.newSession(SessionOptions.DEFAULT.withGrant("host.call(forecast)"));
        assertThat(stack(run(granted, "(forecast \"Lima\")"))).containsExactly("\"sunny in Lima\"");
        Session s = FINCH.newSession();
        Outcome o = run(s, "\"Oslo\" forecast");
        assertThat(code(s.deny(o.executionId(), "no"))).isEqualTo("E-HOST-001");
        assertThat(Weather.FORECASTS.get()).isEqualTo(1);
    }

    @Test void aDeferredHostAnswersItInstead() {
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withGrant("host.call(*)").withDeferredHost(true));
        Outcome o = run(s, "\"Oslo\" forecast");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        var request = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(request.operation()).isEqualTo("forecast");
        assertThat(request.arguments()).containsExactly("\"Oslo\"");
        Outcome done = s.respond(o.executionId(), new HostResponse.Result(request.sequence(), "rain from the remote host"));
        assertThat(stack(done)).containsExactly("\"rain from the remote host\"");
        assertThat(Weather.FORECASTS.get()).as("the local method never ran").isZero();
    }

    @Test void whateverItsCodeDoesTheRunEndsInADiagnostic() {
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withGrant("host.call(forecast)"));
        Outcome failure = run(s, "\"\" forecast");
        assertThat(code(failure)).isEqualTo("E-HOST-017");
        assertThat(failure.diagnostics().get(0).message()).contains("no city given");
        Outcome thrown = run(s, "1 broken");
        assertThat(code(thrown)).isEqualTo("E-HOST-017");
        // What the host's code threw goes to the host's log, never into the program's diagnostic (issue 35 item 8).
        assertThat(thrown.diagnostics().get(0).message()).contains("`broken` failed").doesNotContain("IllegalStateException").doesNotContain("the host's bug");
        assertThat(code(run(s, "(liar 1)"))).isEqualTo("E-HOST-017");
        assertThat(s.vmRevision()).as("failed runs commit nothing").isZero();
    }

    @Test void installingWordsIntoASessionMovesItsManifestGeneration() {
        Session s = Finch.create().newSession();
        assertThat(code(run(s, "\"x\" shout"))).isEqualTo("E-VERIFY-003");
        long before = s.manifestGeneration();
        run(s, "1 2");
        long revision = s.vmRevision();
        assertThat(s.installWords(List.of(Weather.class))).isEqualTo(before + 1);
        assertThat(s.manifestGeneration()).isEqualTo(before + 1);
        assertThat(s.vmRevision()).as("installing is no run").isEqualTo(revision);
        assertThat(stack(s)).containsExactly("1", "2");
        Outcome stale = s.submit(Submission.of("\"x\" shout", "t").expecting(revision, before));
        assertThat(code(stale)).isEqualTo("E-SESSION-002");
        Outcome fresh = s.submit(Submission.of("\"x\" shout", "t").expecting(revision, before + 1));
        assertThat(stack(fresh)).containsExactly("1", "2", "\"X!\"");
        assertThatThrownBy(() -> s.installWords(List.of(Weather.class))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declared twice");
    }

    @Test void aSessionWithInstalledWordsIsSavedAndRestoredWithThem() {
        Finch finch = dev.finch.persist.Images.keyed();
        Session s = finch.newSession();
        s.installWords(List.of(Weather.class));
        Outcome o = run(s, "(string-append (shout \"a\") (forecast \"Oslo\"))");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        String image = s.save(o.executionId());
        assertThatThrownBy(() -> finch.restore(image)).hasMessageContaining("another vocabulary");
        Session back = finch.restore(image, dev.finch.SessionOptions.DEFAULT, List.of(Weather.class));
        assertThat(back.manifestGeneration()).isEqualTo(s.manifestGeneration());
        Outcome done = back.approve(o.executionId(), Scope.ONCE);
        assertThat(stack(done)).containsExactly("\"A!sunny in Oslo\"");
        assertThat(Weather.FORECASTS.get()).isEqualTo(1);
    }

    private static List<String> stack(Session s) { return s.stack().stream().map(StackEntry::display).toList(); }
}
