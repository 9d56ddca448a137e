package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code finch test}: a line per failing test, the summary last, exit 0 only when all passed and every file loaded. */
class TestCommandTest {
    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) { }

    private Result finch(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(args, new ByteArrayInputStream(new byte[0]), out, err);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p.toString();
    }

    @Test void passingFilesExitZero() throws IOException {
        String a = file("a.nm", "(define sq (x) (* x x))\n(check-expect (sq 3) 9)\n(check-assert (= (sq 2) 4))\n");
        String b = file("b.nm", "(check-fail (fail 'no) (Raised _))\n");
        Result r = finch("test", a, b);
        assertThat(r.out()).isEqualTo("3 passed, 0 failed\n");
        assertThat(r.exit()).isZero();
    }

    @Test void aFailingTestIsALineWithItsLocation() throws IOException {
        String a = file("a.nm", "(check-expect 1 1)\n  (check-expect (* 2 3) 7)\n");
        Result r = finch("test", a);
        assertThat(r.out()).isEqualTo(a + ":2:3: check-expect: expected 7 but found 6\n1 passed, 1 failed\n");
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test void aFileThatDoesNotLoadPrintsItsDiagnosticsWithACaretAndExitsOne() throws IOException {
        String bad = file("bad.nm", "(check-expect 1 1)\n(define f (x) (+ x \"s\"))\n");
        String good = file("good.nm", "(check-expect 1 1)\n");
        Result r = finch("test", bad, good);
        assertThat(r.err()).contains("error[E-NORMAN-101]").contains(" 2 | (define f (x) (+ x \"s\"))").contains("^");
        // The last line says the file did not load: "1 passed, 0 failed" alone would read as success (issue 36).
        assertThat(r.out()).isEqualTo("1 passed, 0 failed, 1 file did not load (" + bad + ")\n");
        assertThat(r.exit()).isEqualTo(1);
        String nope = dir.resolve("nope.nm").toString();
        Result missing = finch("test", nope);
        assertThat(missing.err()).contains("no such file");
        assertThat(missing.out()).isEqualTo("0 passed, 0 failed, 1 file did not load (" + nope + ")\n");
        assertThat(missing.exit()).isEqualTo(1);
    }

    @Test void aFailingValIsReportedOnStderrWithoutStoppingTheFile() throws IOException {
        String a = file("a.nm", "(val broken (fail 'oops))\n(check-error broken)\n");
        Result r = finch("test", a);
        assertThat(r.err()).contains(a + ":1:1: val broken failed, so it is not bound: {\"reason\":\"oops\",\"tag\":\"Raised\"}");
        assertThat(r.out()).isEqualTo("1 passed, 0 failed\n");
        assertThat(r.exit()).isZero();
    }

    @Test void usesResolveRelativeToTheUsingFile() throws IOException {
        Files.createDirectories(dir.resolve("lib"));
        file("lib/util.nm", "(define twice (x) (* 2 x))\n");
        String a = file("a.nm", "(use \"lib/util.nm\")\n(check-expect (twice 4) 8)\n");
        Result r = finch("test", a);
        assertThat(r.out()).as(r.err()).isEqualTo("1 passed, 0 failed\n");
    }

    private static final String AGENT = """
            (grant gpt (model [in 1] [out 2] [ceiling 100]))
            (grant py (kernel [exec Text]))
            (define a () (ask gpt Num (list (Message [role User] [content "a?"])) 'a))
            (script s
              [a (reply "1") (out 10) (latency 2s)]
              [py/exec (result "done") (latency 500ms)])
            """;

    @Test void verboseListsEveryTestWithItsLocationSpendAndTime() throws IOException {
        String a = file("a.nm", AGENT + "(under ([script s]) (check-expect (begin (call py exec \"x\") (a)) 1))\n(check-expect (* 2 3) 7)\n");
        Result r = finch("test", "-v", a);
        assertThat(r.out()).as(r.err()).isEqualTo(
                a + ":7:21: check-expect: passed, spent $0.000017, took 2500ms\n"
                + a + ":8:1: check-expect: failed, spent $0.00, took 0s: expected 7 but found 6\n"
                + "1 passed, 1 failed\n");
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test void traceIndentsEachAskAndCallUnderItsTest() throws IOException {
        String a = file("a.nm", AGENT + "(under ([script s]) (check-expect (begin (call py exec \"x\") (a)) 1))\n(check-expect 1 1)\n");
        Result r = finch("test", "--trace", a);
        assertThat(r.out()).as(r.err()).isEqualTo(
                a + ":7:21: check-expect: passed, spent $0.000017, took 2500ms\n"
                + "    call py/exec: cost $0.00, latency 500ms: result done\n"
                + "    ask a: cost $0.000017, latency 2s: reply 1 (reserved $0.000017 = 5 input tokens at 1 + 6 output tokens at 2 micro-dollars; the answer: Num is at most 24 bytes of JSON, 6 tokens)\n"
                + a + ":8:1: check-expect: passed, spent $0.00, took 0s\n"
                + "2 passed, 0 failed\n");
        assertThat(r.exit()).isZero();
    }

    @Test void runScriptRunsTheTopLevelUnderTheScript() throws IOException {
        String a = file("a.nm", AGENT + "(val v (a))\n(val w (call py exec \"x\"))\n");
        Result r = finch("run", "--script", "s", a);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("ran under script s: spent $0.000017, took 2500ms")
                .contains("    ask a: cost $0.000017, latency 2s: reply 1 (reserved $0.000017 = 5 input tokens at 1 + 6 output tokens at 2 micro-dollars; the answer: Num is at most 24 bytes of JSON, 6 tokens)\n")
                .contains("    call py/exec: cost $0.00, latency 500ms: result done\n");
        Result missing = finch("run", "--script", "nope", a);
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("has no script nope (its scripts: s)");
    }

    private static final String TOP = """
            (val x 3)
            (+ x 1)
            "hello"
            (val bad (fail 'nope))
            (+ (fail 'l) 2)
            (list 1 2)
            (script s)
            """;

    @Test void runScriptPrintsEachTopLevelValueAndGoesOnPastAFailure() throws IOException {
        String a = file("top.nm", TOP);
        Result r = finch("run", "--script", "s", a);
        // Values in file order on stdout; the failing val's report is its say text, as in every run.
        assertThat(r.out()).isEqualTo(a + ":4:1: val bad failed, so it is not bound: {\"reason\":\"nope\",\"tag\":\"Raised\"}\n4\n\"hello\"\n[1,2]\n");
        assertThat(r.err()).contains(a + ":5:1: uncaught failure: {\"reason\":\"l\",\"tag\":\"Raised\"}");
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test void runScriptWithJsonPrintsOneOutcomeObjectPerForm() throws IOException {
        String a = file("top.nm", TOP);
        Result r = finch("run", "--script", "s", "--json", a);
        assertThat(r.exit()).isEqualTo(1);
        List<com.fasterxml.jackson.databind.JsonNode> objects = new java.util.ArrayList<>();
        for (String line : r.out().split("\n")) objects.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(line));
        assertThat(objects).hasSize(6);
        assertThat(objects).allSatisfy(o -> {
            assertThat(o.get("protocol").asText()).isEqualTo("FINCH-VM-TYPED/1");
            assertThat(o.get("language").asText()).isEqualTo("norman");
        });
        assertThat(objects).extracting(o -> o.get("form").get("line").asInt()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(objects).extracting(o -> o.get("status").asText()).containsExactly("completed", "completed", "completed", "failed", "failed", "completed");
        assertThat(objects.get(0).get("form").get("val").asText()).isEqualTo("x");
        assertThat(objects.get(1).get("stack").get(0).get("display").asText()).isEqualTo("4");
        assertThat(objects.get(1).get("stack").get(0).get("type").asText()).isEqualTo("float");
        assertThat(objects.get(2).get("stack").get(0).get("display").asText()).isEqualTo("\"hello\"");
        assertThat(objects.get(4).get("diagnostics").get(0).get("code").asText()).isEqualTo("E-NORMAN-304");
        assertThat(objects.get(4).get("diagnostics").get(0).get("message").asText()).isEqualTo("uncaught failure: {\"reason\":\"l\",\"tag\":\"Raised\"}");
        assertThat(objects.get(3).get("diagnostics").get(0).get("message").asText()).startsWith("val bad failed, so it is not bound");
        assertThat(objects.get(5).get("stack").get(0).get("display").asText()).isEqualTo("[1,2]");
    }
}
