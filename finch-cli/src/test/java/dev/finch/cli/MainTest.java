package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path dir;

    private static ConformanceTest.Run finch(String stdin, String... args) { return ConformanceTest.invoke(List.of(args), stdin); }

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** What the command tree {@code tree} prints and answers for {@code args}. */
    private static String through(java.util.function.Function<Io, picocli.CommandLine> tree, String... args) {
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        Io io = new Io(new java.io.ByteArrayInputStream(new byte[0]), new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8), java.util.Map.of());
        int exit = tree.apply(io).execute(args);
        io.out().flush();
        io.err().flush();
        return exit + "\n" + out.toString(java.nio.charset.StandardCharsets.UTF_8) + "\n" + err.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void theCommandTreeARunBuildsHasOnlyItsCommandYetAnswersAsTheWholeTree() {
        for (String command : List.of("run", "check", "test", "repl", "schedules", "vocabulary", "inspect", "language", "mcp")) {
            for (String[] args : List.of(new String[] {command, "--help"}, new String[] {command, "--frobnicate"})) {
                assertThat(through(io -> Main.commandLine(io, args), args)).as("finch %s", String.join(" ", args))
                        .isEqualTo(through(Main::commandLine, args));
            }
            assertThat(Main.commandLine(new Io(System.in, System.out, System.err), new String[] {command}).getSubcommands()).containsOnlyKeys(command);
        }
        for (String[] args : List.of(new String[] {"--help"}, new String[] {}, new String[] {"rn", "x.fth"}, new String[] {"--version"})) {
            assertThat(Main.commandLine(new Io(System.in, System.out, System.err), args).getSubcommands()).hasSize(10);
            assertThat(through(io -> Main.commandLine(io, args), args)).isEqualTo(through(Main::commandLine, args));
        }
    }

    /** What {@link Main#execute} prints and answers for {@code args} (with no standard input). */
    private static String executed(String... args) {
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        int exit = Main.execute(args, new java.io.ByteArrayInputStream(new byte[0]), out, err, java.util.Map.of());
        return exit + "\n" + out.toString(java.nio.charset.StandardCharsets.UTF_8) + "\n" + err.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aRunWithoutOptionsSkipsPicocliYetAnswersAsPicocliDoes() throws IOException {
        String hello = file("hello.fth", ": greet ( string -- ) \"hello, \" say say \"!\\n\" say ;\n\"world\" greet").toString();
        String bad = file("bad.fth", "1 \"a\" +").toString();
        String lisp = file("say.lisp", "(say \"hi\")").toString();
        String missing = dir.resolve("missing.fth").toString();
        for (String[] args : List.of(new String[] {"run", hello}, new String[] {"run", hello, bad, lisp}, new String[] {"run", "-"},
                new String[] {"run", missing}, new String[] {"run", bad})) {
            assertThat(Main.plainRun(new Io(System.in, System.out, System.err), args)).as("finch %s runs without picocli", String.join(" ", args)).isNotNull();
            assertThat(executed(args)).as("finch %s", String.join(" ", args)).isEqualTo(through(io -> Main.commandLine(io, args), args));
        }
        for (String[] args : List.of(new String[] {"run"}, new String[] {"run", "--json", hello}, new String[] {"run", hello, "--lang", "forth"},
                new String[] {"run", "--", hello}, new String[] {"run", "@args.txt"}, new String[] {"check", hello}, new String[] {"run", "-h"})) {
            assertThat(Main.plainRun(new Io(System.in, System.out, System.err), args)).as("finch %s is picocli's to parse", String.join(" ", args)).isNull();
        }
    }

    @Test
    void noCommandIsAUsageError() {
        ConformanceTest.Run r = finch("");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("a command is required");
    }

    @Test
    void unknownOptionsAndCommandsAreUsageErrors() {
        assertThat(finch("", "run", "--frobnicate", "x.fth").exit()).isEqualTo(2);
        assertThat(finch("", "frobnicate").exit()).isEqualTo(2);
        assertThat(finch("", "run").exit()).isEqualTo(2);
        assertThat(finch("", "check").exit()).isEqualTo(2);
    }

    @Test
    void anUnknownLanguageIsAUsageError() throws IOException {
        ConformanceTest.Run r = finch("", "run", "--lang", "cobol", file("a.fth", "1").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown language 'cobol'");
    }

    @Test
    void aMissingFileIsAUsageErrorAndNothingRuns() throws IOException {
        Path ok = file("ok.fth", "\"ran\" say");
        ConformanceTest.Run r = finch("", "run", ok.toString(), dir.resolve("missing.fth").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("no such file");
    }

    @Test
    void invalidUtf8IsRefusedPlainly() throws IOException {
        Path p = dir.resolve("bad.fth");
        Files.write(p, new byte[] {'1', ' ', (byte) 0xC3, (byte) 0x28});
        ConformanceTest.Run r = finch("", "run", p.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("not valid UTF-8");
    }

    @Test
    void helpExitsZero() {
        ConformanceTest.Run r = finch("", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("run").contains("check");
        assertThat(finch("", "run", "--help").exit()).isZero();
    }

    @Test
    void emitTakesOnlyForth() throws IOException {
        assertThat(finch("", "check", "--emit", "java", file("a.fth", "1").toString()).exit()).isEqualTo(2);
    }

    @Test
    void sayOutputGoesToStdoutByteForByte() throws IOException {
        ConformanceTest.Run r = finch("", "run", file("hi.fth", "\"héllo, \u00e9\\n\" say 40 2 + int-to-string say").toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("héllo, \u00e9\n42");
    }

    @Test
    void aVerifyErrorIsRenderedWithTheSourceLineAndACaret() throws IOException {
        Path p = file("bad.fth", "1 drop\n\"x\" 1 -\n");
        ConformanceTest.Run r = finch("", "run", p.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("verify").contains(" 2 | \"x\" 1 -").contains("^").contains("expected");
    }

    @Test
    void stdinIsInferredLispOrForth() {
        ConformanceTest.Run lisp = finch("  (say \"from lisp\")", "run", "--json", "-");
        assertThat(lisp.outcomes()).hasSize(1);
        assertThat(lisp.outcomes().get(0).get("language").asText()).isEqualTo("lisp");
        assertThat(lisp.outcomes().get(0).get("source_id").asText()).isEqualTo("<stdin>");
        ConformanceTest.Run forth = finch("1 2 +", "run", "--json", "--source-id", "buffer-7", "-");
        assertThat(forth.outcomes().get(0).get("language").asText()).isEqualTo("forth");
        assertThat(forth.outcomes().get(0).get("source_id").asText()).isEqualTo("buffer-7");
        assertThat(forth.outcomes().get(0).get("stack").get(0).get("display").asText()).isEqualTo("3");
    }

    @Test
    void severalFilesShareOneSessionAndAFailureDoesNotStopTheRest() throws IOException {
        ConformanceTest.Run r = finch("", "run", "--json", file("1.fth", "5 6").toString(), file("2.fth", "drop \"no\" 1 +").toString(),
                file("3.fth", "* int-to-string say").toString());
        assertThat(r.outcomes()).extracting(o -> o.get("status").asText()).containsExactly("completed", "failed", "completed");
        assertThat(r.outcomes().get(2).get("output").asText()).isEqualTo("30");
        assertThat(r.outcomes().get(2).get("vm_revision").asLong()).isEqualTo(2);
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void aUnitYieldIsResumedAutomatically() throws IOException {
        ConformanceTest.Run r = finch("", "run", "--json", file("y.fth", "\"a\" say unit yield \"b\" say").toString());
        assertThat(r.outcomes()).hasSize(1);
        assertThat(r.outcomes().get(0).get("status").asText()).isEqualTo("completed");
        assertThat(r.outcomes().get(0).get("output").asText()).isEqualTo("ab");
        assertThat(r.exit()).isZero();
    }

    @Test
    void aValueYieldStaysSuspendedWithExit3() throws IOException {
        ConformanceTest.Run r = finch("", "run", "--json", file("y.fth", "5 yield \"after\" say").toString());
        assertThat(r.outcomes().get(0).get("status").asText()).isEqualTo("suspended");
        assertThat(r.exit()).isEqualTo(3);
    }

    @Test
    void aSuspendedOutcomeCarriesItsPendingRequestWithTypedArguments() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        ConformanceTest.Run r = finch("", "run", "--json", "--workspace", ws.toString(),
                file("w.lisp", "(file-write (path \"o.txt\") (string-to-bytes \"hi\"))").toString());
        assertThat(r.exit()).isEqualTo(3);
        var o = r.outcomes().get(0);
        assertThat(o.get("status").asText()).isEqualTo("suspended");
        assertThat(o.get("yielded").isNull()).isTrue();
        var pending = o.get("pending_request");
        assertThat(pending.get("operation").asText()).isEqualTo("file-write");
        assertThat(pending.get("awaiting").asText()).isEqualTo("approval");
        assertThat(pending.get("requirement").asText()).isEqualTo("fs.write(${workspace}/o.txt)");
        assertThat(pending.get("arguments").get(1).get("type").asText()).isEqualTo("bytes");
        assertThat(pending.get("arguments").get(1).get("value").asText()).isEqualTo("aGk=");
        assertThat(Files.exists(ws.resolve("o.txt"))).isFalse();
        ConformanceTest.Run y = finch("", "run", "--json", file("y.fth", "5 yield").toString());
        assertThat(y.outcomes().get(0).get("yielded").get("display").asText()).isEqualTo("5");
        assertThat(y.outcomes().get(0).get("pending_request").isNull()).isTrue();
    }

    @Test
    void checkPrintsSignaturesAndEmitsCanonicalForth() throws IOException {
        Path p = file("sq.lisp", "(define (sq n) (* n n))\n(say (int-to-string (sq 11)))\n");
        ConformanceTest.Run r = finch("", "check", p.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("sq : int -> int").contains("session.emit");
        ConformanceTest.Run json = finch("", "check", "--json", p.toString());
        assertThat(json.outcomes().get(0).get("status").asText()).isEqualTo("ok");
        assertThat(json.outcomes().get(0).get("language").asText()).isEqualTo("lisp");
        ConformanceTest.Run emitted = finch("", "check", "--emit", "forth", p.toString());
        assertThat(emitted.exit()).isZero();
        assertThat(emitted.out()).contains(": sq");
    }

    /** Issue 15's first "done when": (yield) in Lisp is the unit timeslice, which the command line resumes at once. */
    @Test
    void aLispUnitYieldRunsThroughFromTheCommandLine() throws IOException {
        ConformanceTest.Run r = finch("", "run", file("y.lisp", "(say \"a\") (yield) (say \"b\")").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("ab");
        ConformanceTest.Run published = finch("", "run", file("v.lisp", "(say \"a\") (yield 42) (say \"b\")").toString());
        assertThat(published.exit()).isEqualTo(3);
        assertThat(published.out()).isEqualTo("a");
        assertThat(published.err()).contains("yielded 42 : int");
    }

    /** Issue 15, item 2: a join of a CPU task still computing pauses the run; the command line waits and goes on. */
    @Test
    void aJoinOfARunningCpuTaskRunsThroughFromTheCommandLine() throws IOException {
        ConformanceTest.Run r = finch("", "run", file("t.lisp", """
                (define (count-to [n : int]) : int (let ((i 0)) (while (< i n) (set! i (+ i 1))) i))
                (define t (defer :cpu (lambda () (count-to 3000000))))
                (say "a")
                (say (int-to-string (task-join t)))""").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("a3000000");
        ConformanceTest.Run json = finch("", "run", "--json", file("t.fth", "[: ( -- int ) 6 7 * ;] defer-cpu task-join").toString());
        assertThat(json.outcomes().get(0).get("status").asText()).isEqualTo("completed");
        assertThat(json.outcomes().get(0).get("stack").get(0).get("display").asText()).isEqualTo("42");
    }
}
