package dev.finch.mcp;

import static dev.finch.mcp.Toys.code;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.WordInfo;
import dev.finch.capabilities.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs call the tools of a real MCP server — the toy server on the official SDK, a subprocess spoken to over
 * stdio — both ways: {@code mcp-call} and the schema-derived {@code mcp.toy.<tool>} words, through the host boundary
 * (a missing grant pauses for approval; approving completes the call), with the manifest generation raised when the
 * tools were installed and again when the server announced {@code tools/list_changed}. Also the paired no-grant case
 * of {@code mcp-call} that NoGrantTest delegates here, and the faults: isError, output that does not fit, a protocol
 * error, a hang under the run's timeout, a crash, a server that cannot start; the server process ends with its session.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpClientTest {
    @TempDir Path tmp;

    private Finch finch;
    private Session session;
    private Path pid;

    @BeforeAll
    void start() throws Exception {
        pid = Files.createTempFile("toy", ".pid");
        finch = Finch.builder().timeout(Duration.ofSeconds(20))
                .mcp(McpClients.of(List.of(Toys.stdio("toy", pid))).withRequestTimeout(Duration.ofSeconds(10)))
                .build();
        session = finch.newSession();
    }

    @AfterAll
    void stop() throws Exception {
        finch.close();
        Files.deleteIfExists(pid);
    }

    /** The top of the outcome's stack, as {@code type display}. */
    private static String top(Outcome o) {
        assertThat(o.stack()).as("%s", o).isNotEmpty();
        var e = o.stack().get(o.stack().size() - 1);
        return e.type() + " " + e.display();
    }

    private Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "test").withLanguage(Language.LISP)); }

    private Outcome forth(Session s, String program) { return s.submit(Submission.of(program, "test").withLanguage(Language.FORTH)); }

    @Test
    void theServersToolsAreWordsWithTheirSignaturesAndDescriptions() {
        assertThat(session.manifestGeneration()).as("installing the tools raised the generation from 1").isEqualTo(2);
        WordInfo.CoreWord greet = (WordInfo.CoreWord) session.inspectWord("mcp.toy.greet").orElseThrow();
        assertThat(greet.signature()).isEqualTo(
                "record{excited:option<bool>,name:string} -> result<record{greeting:string,length:int},string> ! {mcp.call(toy,greet)}");
        assertThat(greet.doc()).startsWith("Greets a person by name.").contains("schema sha256:");
        assertThat(session.searchWord("greets")).extracting(w -> w.name()).contains("mcp.toy.greet");
        // A schema Finch does not type takes one managed json input; a name with a dot maps to '_'.
        assertThat(((WordInfo.CoreWord) session.inspectWord("mcp.toy.echo_json").orElseThrow()).signature())
                .isEqualTo("json -> result<json,string> ! {mcp.call(toy,echo.json)}");
        assertThat(((WordInfo.CoreWord) session.inspectWord("mcp.toy.add").orElseThrow()).signature())
                .isEqualTo("record{meta:option<record{label:string}>,numbers:list<int>,scale:option<float>} -> result<json,string> ! {mcp.call(toy,add)}");
        assertThat(session.vocabulary().word("mcp-call")).isPresent();
    }

    @Test
    void mcpCallWithApproval() {
        String program = "(say \"before\") (json-as-string (unwrap (json-get (mcp-call \"toy\" \"greet\" (result-unwrap (json-parse \"{\\\"name\\\":\\\"Ada\\\"}\"))) \"greeting\")))";
        // The literal arguments preview the concrete requirement at verify time.
        assertThat(session.check(Submission.of(program, "test")).inferredCapabilities()).contains("mcp.call(toy,greet)");
        Outcome o = lisp(session, program);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("mcp.call(toy,greet)");
        assertThat(o.output()).isEqualTo("before");
        Outcome done = session.approve(o.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(top(done)).isEqualTo("option<string> (some \"Hello, Ada.\")");
    }

    @Test
    void mcpCallDeniedDispatchesNothing() {
        Outcome o = lisp(session, "(mcp-call \"toy\" \"crash\" (result-unwrap (json-parse \"{}\")))");
        assertThat(o.requiredCapabilities()).containsExactly("mcp.call(toy,crash)");
        Outcome denied = session.deny(o.executionId(), "no");
        assertThat(denied.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(denied)).isEqualTo("E-HOST-001");
        // The server was not asked to crash: it still answers.
        Outcome after = lisp(granted(), "(is-ok (mcp.toy.greet { :name \"Bo\" :excited (none) }))");
        assertThat(top(after)).isEqualTo("bool true");
    }

    @Test
    void inDeferredHostModeTheEmbedderAnswersTheCallAndTheServerIsNotAsked() {
        Session s = finch.newSession(SessionOptions.DEFAULT.withDeferredHost(true).withGrant("mcp.call(toy,crash)"));
        try {
            // Granted, so it waits for the embedder's result rather than approval; the toy server would crash if asked.
            Outcome o = lisp(s, "(json-stringify (mcp-call \"toy\" \"crash\" (result-unwrap (json-parse \"{}\"))))");
            assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
            var request = s.pendingRequest(o.executionId()).orElseThrow();
            assertThat(request.requirement().toString()).isEqualTo("mcp.call(toy,crash)");
            Outcome done = s.respond(o.executionId(), dev.finch.vm.boundary.HostResponse.result(request.sequence(), dev.finch.vm.Value.json("{\"answered\":true}")));
            assertThat(top(done)).isEqualTo("string \"{\\\"answered\\\":true}\"");
            // The server is still there (nobody asked it to crash).
            assertThat(top(lisp(granted(), "(is-ok (mcp.toy.greet { :name \"C\" :excited (none) }))"))).isEqualTo("bool true");
        } finally {
            s.close();
        }
    }

    @Test
    void theTypedWordWithApproval() {
        Outcome o = forth(session, "{ name: \"Ada\" excited: true some } mcp.toy.greet");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("mcp.call(toy,greet)");
        Outcome done = session.approve(o.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(top(done)).isEqualTo("result<record{greeting:string,length:int},string> (ok { greeting: \"Hello, Ada!\" length: 11 })");
    }

    /** A second session of the same Finch, granted every tool of the toy server (so no approval is needed). */
    private Session granted() {
        if (grantedSession == null) grantedSession = finch.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(toy,*)"));
        return grantedSession;
    }

    private Session grantedSession;

    @Test
    void listsNumbersNestedRecordsAndJson() {
        Outcome o = lisp(granted(), "(match-result (mcp.toy.add { :numbers (list 1 2 3) :scale (some 2.0) :meta (some { :label \"sum\" }) }) "
                + "(ok j (json-stringify j)) (err e e))");
        assertThat(top(o)).isEqualTo("string \"[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"sum:12.0\\\"}]\"");
        Outcome echo = forth(granted(), "{\"value\": 7} mcp.toy.echo_json result-unwrap json-stringify");
        assertThat(top(echo)).isEqualTo("string \"{\\\"value\\\":7}\"");
    }

    @Test
    void faultsAreStructured() {
        Session s = granted();
        // isError: an err value from the typed word, E-HOST-028 from mcp-call.
        assertThat(top(lisp(s, "(mcp.toy.fail {})"))).isEqualTo("result<json,string> (err \"the toy tool failed on purpose\")");
        assertThat(code(lisp(s, "(mcp-call \"toy\" \"fail\" (result-unwrap (json-parse \"{}\")))"))).isEqualTo("E-HOST-028");
        // Structured output that does not fit the declared outputSchema.
        Outcome bad = lisp(s, "(mcp.toy.bad_output {})");
        assertThat(code(bad)).as("%s", bad).isEqualTo("E-HOST-027");
        // A tool the server does not have: its protocol error.
        assertThat(code(lisp(s, "(mcp-call \"toy\" \"nosuch\" (result-unwrap (json-parse \"{}\")))"))).isEqualTo("E-HOST-026");
        // A server nobody configured.
        assertThat(code(lisp(s, "(mcp-call \"other\" \"x\" (result-unwrap (json-parse \"{}\")))"))).isEqualTo("E-HOST-024");
    }

    @Test
    void toolsListChangedReinstallsTheWords() throws Exception {
        Session s = finch.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(toy,*)"));
        try {
            long before = s.manifestGeneration();
            assertThat(s.vocabulary().word("mcp.toy.late")).isEmpty();
            assertThat(lisp(s, "(mcp.toy.add_tool {})").status()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(Toys.eventually(() -> s.vocabulary().word("mcp.toy.late").isPresent())).isTrue();
            assertThat(s.manifestGeneration()).isEqualTo(before + 1);
            Outcome late = lisp(s, "(mcp.toy.late { :x 5 })");
            // It failed twice in full runs, answering add_tool's text: say which tool the word is bound to when it does.
            assertThat(top(late)).as("%s; mcp.toy.late: %s", late, s.inspectWord("mcp.toy.late"))
                    .isEqualTo("result<json,string> (ok [{\"type\":\"text\",\"text\":\"late 5\"}])");
        } finally {
            s.close();
        }
    }

    /**
     * A hang ends at the run's deadline (10 s), never at the MCP request timeout (set to ten minutes here, so a run that
     * waited for it would trip the hang guard of the {@code get} instead of answering); a crash is noticed as a crash
     * (its process ended), not as a timeout. Nothing bounds wall time but the generous hang guards: the deadline is far
     * longer than the calls that must complete before it (a first call to a fresh server included) and than noticing the
     * crash, on a loaded machine too.
     */
    @Test
    void aHangNeverOutlivesTheRunsTimeoutAndACrashIsAHostDiagnostic() throws Exception {
        Path p = tmp.resolve("crash.pid");
        // Every function compiled to bytecode here (the other tests' one-shot programs are interpreted): both tiers call the words.
        try (Finch f = Finch.builder().tier(Finch.Tier.COMPILED).timeout(Duration.ofSeconds(10))
                .mcp(McpClients.of(List.of(Toys.stdio("toy", p))).withRequestTimeout(Duration.ofMinutes(10))).build()) {
            Session s = f.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(toy,*)"));
            assertThat(lisp(s, "(define (hello name) (match-result (mcp.toy.greet { :name name :excited (none) }) (ok r (unwrap (record-get r \"greeting\"))) (err e e)))")
                    .status()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(top(lisp(s, "(hello \"Compiled\")"))).isEqualTo("string \"Hello, Compiled.\"");
            assertThat(top(forth(s, "\"toy\" \"greet\" {\"name\": \"F\"} mcp-call \"length\" json-get"))).isEqualTo("option<json> (some 9)");
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                Outcome hang = pool.submit(() -> lisp(s, "(mcp.toy.hang {})")).get(120, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(code(hang)).as("%s", hang).isEqualTo("E-LIMIT-002");
                assertThat(hang.diagnostics().get(0).message()).contains("passed its deadline");
                Outcome crash = pool.submit(() -> lisp(s, "(mcp.toy.crash {})")).get(120, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(code(crash)).as("%s", crash).isEqualTo("E-HOST-025");
                assertThat(crash.diagnostics().get(0).message()).as("a crash, not a timeout").contains("(its process ended)");
            } finally {
                pool.shutdownNow();
            }
            assertThat(code(lisp(s, "(mcp.toy.greet { :name \"x\" :excited (none) })"))).isEqualTo("E-HOST-025");
        }
    }

    @Test
    void aServerThatCannotStartListsNoToolsAndFailsItsCalls() {
        var broken = new McpServerSpec.Stdio("gone", tmp.resolve("no-such-server").toString(), List.of(), java.util.Map.of());
        try (Finch f = Finch.builder().mcp(McpClients.of(List.of(broken)).withStartTimeout(Duration.ofSeconds(1))).build()) {
            Session s = f.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(gone,*)"));
            assertThat(s.manifestGeneration()).isEqualTo(1);
            Outcome o = lisp(s, "(mcp-call \"gone\" \"x\" (result-unwrap (json-parse \"{}\")))");
            assertThat(code(o)).as("%s", o).isEqualTo("E-HOST-025");
            assertThat(o.diagnostics().get(0).message()).contains("could not be started");
        }
    }

    @Test
    void theServerProcessEndsWithItsSession() throws Exception {
        Path p = tmp.resolve("own.pid");
        try (Finch f = Finch.builder().mcp(McpClients.of(List.of(Toys.stdio("toy", p)))).build()) {
            Session s = f.newSession();
            assertThat(Toys.servers(p)).isNotEmpty();
            s.close();
            assertThat(Toys.eventually(() -> Toys.servers(p).isEmpty())).isTrue();
        }
    }

    @Test
    void aChildAgentsServerProcessEndsWithTheChild() throws Exception {
        Path p = tmp.resolve("child.pid");
        var script = dev.finch.agent.ScriptedProvider.parse("""
                ## role *
                >>> final
                done
                """);
        try (Finch f = Finch.builder().mcp(McpClients.of(List.of(Toys.stdio("toy", p))))
                .agents(dev.finch.agent.AgentOptions.of(new dev.finch.agent.AgentProfile("script", "scripted", script))).build()) {
            Session s = f.newSession(SessionOptions.DEFAULT.withGrant("agent.spawn(max_depth=1,max_children=1)"));
            java.util.Set<Long> parent = Toys.servers(p);
            assertThat(parent).isNotEmpty();
            Files.delete(p);
            Outcome o = s.awaitTasks(s.submit(Submission.of("\"go\" agent-spawn agent-await \"final-message\" record-get unwrap", "child.fth")));
            assertThat(o.values()).as("%s", o).extracting(Object::toString).containsExactly("\"done\"");
            // The child's own session started its own server (writing its pid file again); it ends with the child.
            assertThat(p).exists();
            assertThat(Toys.eventually(() -> Toys.servers(p).equals(parent))).as("only the parent's server is left").isTrue();
        }
    }
}
