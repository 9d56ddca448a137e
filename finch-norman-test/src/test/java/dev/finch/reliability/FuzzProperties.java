package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.norman.SourceLoader;
import dev.finch.norman.test.FileReport;
import dev.finch.norman.test.TestHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Reliability row 1: random text and random token streams through parse → lower → verify → run, for each of the
 * three languages, through the public API (and, for µNorman, the unit-test harness). Whatever goes in, what comes
 * out is a structured outcome whose diagnostics carry stable codes — never an exception, and never one of the
 * codes that mean "a defect of Finch" (each frontend's, the VM's, the session's internal error). A failure here is
 * kept as a named regression case below it.
 */
class FuzzProperties {
    private static final Finch FINCH = Finch.builder().maxSteps(200_000).timeout(Duration.ofSeconds(2)).maxOutputBytes(64 * 1024).build();
    private static final Pattern CODE = Pattern.compile("E-[A-Z]+-\\d{3}");
    /** Codes that mean Finch, not the program, is wrong. */
    private static final Set<String> DEFECTS = Set.of("E-SESSION-006", "E-FORTH-199", "E-LISP-110", "E-RUN-003", "E-NORMAN-302", "E-TOOL-005");
    private static final TestHarness HARNESS = new TestHarness(SourceLoader.inMemory(Map.of()));
    /** Per language, how many generated programs verified: the generators must reach past the parser. */
    private static final Map<Language, java.util.concurrent.atomic.AtomicInteger> VERIFIED = new java.util.EnumMap<>(Map.of(
            Language.LISP, new java.util.concurrent.atomic.AtomicInteger(), Language.FORTH, new java.util.concurrent.atomic.AtomicInteger(),
            Language.NORMAN, new java.util.concurrent.atomic.AtomicInteger()));

    @AfterContainer static void close() {
        HARNESS.close();
        VERIFIED.forEach((lang, n) -> assertThat(n.get()).as("generated %s programs that verified", lang).isGreaterThan(5));
    }

    private static void wellFormed(List<Diagnostic> diagnostics, String program) {
        for (Diagnostic d : diagnostics) {
            assertThat(d.code()).as("code of %s for %s", d, program).matches(CODE);
            assertThat(DEFECTS).as("a defect of Finch on %s: %s", program, d).doesNotContain(d.code());
            assertThat(d.message()).as("message for %s", program).isNotBlank();
        }
    }

    /** Checks and runs {@code program} in {@code lang} on a fresh session; everything must come back structured. */
    private static void survives(Language lang, String program) {
        Session s = FINCH.newSession();
        Submission sub = Submission.of(program, "fuzz").withLanguage(lang);
        CheckResult c = s.check(sub);
        wellFormed(c.diagnostics(), program);
        if (c.status() == CheckResult.Status.OK) VERIFIED.get(lang).incrementAndGet();
        net.jqwik.api.statistics.Statistics.label("check").collect(c.status().spelling());
        Outcome o = s.submit(sub);
        assertThat(o).as("outcome of %s", program).isNotNull();
        wellFormed(o.fields().diagnostics(), program);
        if (lang == Language.NORMAN) {
            FileReport r = HARNESS.runAll(program, "fuzz.nm");
            wellFormed(r.diagnostics(), program);
            r.results().forEach(t -> assertThat(t.message()).as("test of %s", program).doesNotContain("a defect of Finch"));
        }
    }

    // ---- raw text --------------------------------------------------------------------------------------------

    @Property(tries = 300)
    void anyTextIsAStructuredOutcomeInLisp(@ForAll("text") String program) { survives(Language.LISP, program); }

    @Property(tries = 300)
    void anyTextIsAStructuredOutcomeInCoForth(@ForAll("text") String program) { survives(Language.FORTH, program); }

    @Property(tries = 300)
    void anyTextIsAStructuredOutcomeInNorman(@ForAll("text") String program) { survives(Language.NORMAN, program); }

    @Provide Arbitrary<String> text() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(120),
                Arbitraries.strings().withChars("()[]{}\"\\'`;:#$∞ \n\t0123456789.-+*/<>=abcdefxyz").ofMaxLength(160));
    }

    // ---- token streams -----------------------------------------------------------------------------------------

    private static List<String> vocabulary() {
        List<String> out = new ArrayList<>();
        for (WordSpec w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) out.add(w.name());
        return out;
    }

    private static Arbitrary<String> soup(List<String> tokens, int max) {
        List<String> all = new ArrayList<>(tokens);
        all.addAll(vocabulary());
        Arbitrary<String> token = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.of(tokens)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(all)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(-3, 1_000_000).map(String::valueOf)));
        return token.list().ofMaxSize(max).map(ts -> String.join(" ", ts));
    }

    @Property(tries = 400)
    void tokenStreamsAreStructuredOutcomesInLisp(@ForAll("lispTokens") String program) { survives(Language.LISP, program); }

    @Provide Arbitrary<String> lispTokens() {
        return soup(List.of("(", "(", "(", ")", ")", ")", "[", "]", "define", "lambda", "let", "let*", "if", "begin", "set!", "match",
                "match-result", "ok", "err", "some", "none", "define-syntax", "syntax-rules", "...", "_", ":", "int", "string", "bool",
                "->", "x", "y", "f", "'a", "\"s\"", "#t", "#f", "1.5", "+", "-", "*", "/", "<", "=", "say", "list", "record", "variant",
                "while", "yield", "step-spawn", "step-join"), 40);
    }

    @Property(tries = 400)
    void tokenStreamsAreStructuredOutcomesInCoForth(@ForAll("forthTokens") String program) { survives(Language.FORTH, program); }

    @Provide Arbitrary<String> forthTokens() {
        return soup(List.of(":", ";", "(", "--", ")", "->", "if", "else", "then", "begin", "while", "repeat", "until", "[:", ";]", ":>",
                "[", "]", "{", "}", "x", "int", "string", "bool", "float", "list<int>", "option<int>", "!", "yields<int,unit>", "\"s\"",
                "1.5", "true", "false", "dup", "drop", "swap", "over", "+", "-", "*", "/", "execute", "[']", "step-spawn", "step-join",
                "yield", "unit", "constant", "case", "of", "endof", "endcase"), 40);
    }

    @Property(tries = 400)
    void tokenStreamsAreStructuredOutcomesInNorman(@ForAll("normanTokens") String program) { survives(Language.NORMAN, program); }

    @Provide Arbitrary<String> normanTokens() {
        return soup(List.of("(", "(", "(", ")", ")", ")", "[", "]", "define", "val", "datatype", "record", "grant", "model", "kernel",
                "http", "ask", "call", "workflow", "par", "catch", "fail", "budget", "remaining", "check-expect", "check-error",
                "check-fail", "check-within", "check-equiv", "under", "script", "reply", "out", "latency", "case", "let*", "lambda",
                "if", "and", "or", "begin", "use", "x", "y", "e", "f", "\"t\"", "'s", "'exact", "$1.00", "1s", "∞", "Text", "Num", "Bool",
                "List", "Message", "User", "role", "content", "Pair", "fst", "snd", "Some", "None", "show", "retry", "best-of", "."), 40);
    }

    // ---- regressions found by the properties above (none yet) ---------------------------------------------------
}
