package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability row 17 and issue 6 item 6: {@code process-run} runs the executable directly with an argument list —
 * shell metacharacters, quotes, spaces and newlines reach it verbatim and nothing is interpreted by a shell — under
 * a {@code process.run(<exact path>)} grant, with a timeout that kills and a bound on output.
 */
class ProcessTest {
    static final String PRINTF = "/usr/bin/printf";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path ws;

    static String list(List<String> items) {
        if (items.isEmpty()) return "(empty-list string)";
        return "(list " + items.stream().map(HostFixture::str).collect(Collectors.joining(" ")) + ")";
    }

    static String run(String exe, List<String> args) { return "(say (show (process-run " + str(exe) + " " + list(args) + ")))"; }

    static JsonNode result(Outcome o) throws Exception {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return JSON.readTree(o.output());
    }

    @Test
    void argumentsWithShellMetacharactersArriveVerbatim() throws Exception {
        Path marker = ws.resolve("pwned");
        List<String> nasty = List.of(
                "; touch " + marker,
                "$(touch " + marker + ")",
                "`touch " + marker + "`",
                "a && touch " + marker,
                "| touch " + marker,
                "> " + marker,
                "line one\nline two\n",
                "\"double\" 'single' \\back\\slash",
                "  spaces  around  ",
                "",
                "$HOME ${PATH} ~ * ?",
                "-n",
                "--help",
                "%s %d %%",
                "é ☃ 𝄞");
        List<String> args = new java.util.ArrayList<>();
        args.add("<%s>");
        args.addAll(nasty);
        Session s = session(ws, "process.run(" + PRINTF + ")");
        JsonNode r = result(lisp(s, run(PRINTF, args)));
        String expected = nasty.stream().map(a -> "<" + a + ">").collect(Collectors.joining());
        assertThat(r.get("stdout").asText()).isEqualTo(expected);
        assertThat(r.get("exit").asLong()).isZero();
        assertThat(r.get("stderr").asText()).isEmpty();
        assertThat(Files.exists(marker)).as("no shell ran any of it").isFalse();
    }

    @Test
    void aScriptReceivesEachArgumentAsOneArgument() throws Exception {
        // A tiny script counts its arguments and prints each one on its own delimited line.
        Path script = ws.resolve("args.sh");
        Files.writeString(script, "#!/bin/sh\necho \"$#\"\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n");
        script.toFile().setExecutable(true);
        Session s = session(ws, "process.run(" + script + ")");
        JsonNode r = result(lisp(s, run(script.toString(), List.of("a b", "c;d", "$(e)", "f\ng", ""))));
        assertThat(r.get("stdout").asText()).isEqualTo("5\n[a b]\n[c;d]\n[$(e)]\n[f\ng]\n[]\n");
    }

    @Test
    void theWorkingDirectoryIsTheWorkspaceAndStdinIsEmpty() throws Exception {
        Session s = session(ws, "process.run(/bin/pwd)", "process.run(/bin/cat)");
        assertThat(result(lisp(s, run("/bin/pwd", List.of()))).get("stdout").asText().strip()).isEqualTo(ws.toRealPath().toString());
        assertThat(result(lisp(s, run("/bin/cat", List.of()))).get("stdout").asText()).isEmpty();
    }

    @Test
    void theExitCodeAndStderrAreTyped() throws Exception {
        Session s = session(ws, "process.run(/bin/ls)");
        JsonNode r = result(lisp(s, run("/bin/ls", List.of("/no/such/dir"))));
        assertThat(r.get("exit").asLong()).isNotZero();
        assertThat(r.get("stderr").asText()).contains("/no/such/dir");
    }

    @Test
    void theGrantMustNameTheExactExecutable() {
        Session s = session(ws, "process.run(/bin/echo)");
        Outcome o = lisp(s, run(PRINTF, List.of("x")));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("process.run(" + PRINTF + ")");
        assertThat(lisp(s, run("/bin/echo", List.of("ok"))).output()).contains("ok\\n");
        // A grant for a directory's executables does not cover another directory.
        Outcome other = lisp(session(ws, "process.run(/usr/bin/*)"), run("/bin/echo", List.of("x")));
        assertThat(other.requiredCapabilities()).containsExactly("process.run(/bin/echo)");
    }

    @Test
    void aRelativeOrShellLikeExecutableIsRefused() {
        Session s = session(ws, "process.run(**)");
        assertFailed(lisp(s, run("printf", List.of("x"))), "host", "E-HOST-007");
        assertFailed(lisp(s, run("", List.of())), "host", "E-HOST-007");
        assertFailed(lisp(s, run("/bin/echo\0", List.of())), "host", "E-HOST-007");
        assertFailed(lisp(s, run("/bin/echo", List.of("a\0b"))), "host", "E-HOST-007");
        // A command line in the executable position is one (non-existent) file name, not a shell command.
        Outcome line = lisp(s, run("/bin/echo;touch pwned", List.of()));
        assertFailed(line, "host", "E-HOST-010");
        assertThat(Files.exists(ws.resolve("pwned"))).isFalse();
        assertThat(Files.exists(ws.resolve("pwned\n"))).isFalse();
        assertFailed(lisp(s, run("/no/such/program", List.of())), "host", "E-HOST-010");
    }

    /** How many live processes have {@code argument} among their arguments. */
    private static long sleeping(String argument) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(argument)).orElse(false)).count();
    }

    @Test
    void aProcessPastTheTimeoutIsKilled() throws Exception {
        Finch quick = Finch.builder().timeout(Duration.ofMillis(700)).build();
        Session s = quick.newSession(SessionOptions.builder().workspace(ws).grants(List.of("process.run(/bin/sleep)")).build());
        // Unique to this JVM: the same test in another build on the machine starts its own sleep.
        String unique = "314.159" + ProcessHandle.current().pid();
        Outcome o = dev.finch.HangGuard.ran(() -> lisp(s, "(say \"before\") " + run("/bin/sleep", List.of(unique))));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        // The process host kills at the run's timeout (E-HOST-010); the run's own deadline (E-LIMIT-002) is the backstop.
        assertThat(o.diagnostics().get(0).code()).isIn("E-HOST-010", "E-LIMIT-002");
        assertThat(o.output()).isEqualTo("before");
        // The process itself is gone (it would sleep 314 s; the hang guard waits a minute at most for the kill to show).
        assertThat(dev.finch.HangGuard.await(() -> sleeping(unique) == 0)).as("no sleep %s left running", unique).isTrue();
    }

    @Test
    void outputBeyondTheBoundIsRefused() {
        Session s = session(ws, "process.run(/usr/bin/head)");
        Outcome o = lisp(s, "(say (int-to-string (string-length (unwrap (record-get (process-run \"/usr/bin/head\" (list \"-c\" \"9000000\" \"/dev/zero\")) \"stdout\")))))");
        assertFailed(o, "host", "E-HOST-010");
        assertThat(o.diagnostics().get(0).message()).contains("more than");
        Outcome small = lisp(s, "(say (int-to-string (string-length (unwrap (record-get (process-run \"/usr/bin/head\" (list \"-c\" \"1000\" \"/dev/zero\")) \"stdout\")))))");
        assertThat(small.output()).isEqualTo("1000");
    }

    @Test
    void anExecutableNoGrantCanNameIsNeverDispatched() {
        // "/bin/echo hi; touch …" has a segment ending in a space, which no capability selector can spell: it is
        // refused before any request is made, so no person is ever asked to approve it.
        Session s = session(ws, "process.run(**)");
        Outcome o = lisp(s, run("/bin/echo hi; touch " + ws.resolve("pwned"), List.of()));
        assertFailed(o, "host", "E-HOST-007");
        assertThat(Files.exists(ws.resolve("pwned"))).isFalse();
    }
}
