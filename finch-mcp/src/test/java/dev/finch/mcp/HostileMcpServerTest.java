package dev.finch.mcp;

import static dev.finch.mcp.Toys.code;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.host.LocalProcessHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35 items 2, 3, 5 and 8, against real server processes: a server gets no secrets from Finch's environment; one
 * that crashes during {@code initialize} or lies in its frames is noticed at once ({@code E-HOST-025}), its malformed
 * tools are skipped while the others install, every text it sends into a diagnostic is cut to a bound, the connection
 * still answers afterwards; and one that ignores {@code SIGTERM} ends with everything it started when its session
 * closes. The request and start timeouts are ten minutes, so an outcome that waited one out could only come after the
 * hang guards (60 s) gave up: nothing here bounds wall time.
 */
class HostileMcpServerTest {
    @TempDir Path tmp;

    static final Duration FOREVER = Duration.ofMinutes(10);

    static McpServerSpec.Stdio liar(Map<String, String> env) {
        McpServerSpec.Stdio s = Toys.stdio("liar", null, LyingServer.class.getName());
        return new McpServerSpec.Stdio("liar", s.command(), s.args(), env);
    }

    static Finch finch(McpServerSpec spec) {
        return Finch.builder().mcp(McpClients.of(List.of(spec)).withRequestTimeout(FOREVER).withStartTimeout(FOREVER)).build();
    }

    static <T> T guarded(java.util.concurrent.Callable<T> work) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).get(60, TimeUnit.SECONDS);
    }

    static Outcome call(Session s, String tool) {
        return s.submit(Submission.of("(mcp-call \"liar\" \"" + tool + "\" (result-unwrap (json-parse \"{}\")))", "t").withLanguage(Language.LISP));
    }

    static void stillAnswers(Session s) {
        Outcome ok = call(s, "ok");
        assertThat(ok.status()).as("%s", ok).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(ok.stack().get(ok.stack().size() - 1).display()).contains("fine");
    }

    @Test
    void aServerThatExitsDuringInitializeIsNoticedAtOnce() throws Exception {
        try (Finch f = finch(liar(Map.of("LIE_EXIT_ON_INIT", "1")))) {
            Session s = guarded(() -> f.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(liar,*)")));
            Outcome o = guarded(() -> call(s, "ok"));
            assertThat(code(o)).as("%s", o).isEqualTo("E-HOST-025");
            String m = o.diagnostics().get(0).message();
            assertThat(m).contains("could not be started or reached").contains("stopped");
            assertThat(m).doesNotContain("reactor").doesNotContain("java.").doesNotContain("Exception");
            assertThat(guarded(() -> s.submit(Submission.of("1 2 +", "after"))).status()).isEqualTo(Outcome.Status.COMPLETED);
        }
    }

    @Test
    void aServerGetsOnlyTheDefaultVariablesAndItsOwn() throws Exception {
        try (Finch f = finch(liar(Map.of("LIAR_OWN", "yes")))) {
            Session s = guarded(() -> f.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(liar,*)")));
            Outcome o = guarded(() -> call(s, "env"));
            assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
            JsonNode content = McpClients.JSON.readTree(o.stack().get(o.stack().size() - 1).display());
            String text = content.get(0).path("text").asText();
            java.util.Set<String> seen = new java.util.TreeSet<>();
            McpClients.JSON.readTree(text).fieldNames().forEachRemaining(seen::add);
            java.util.Set<String> allowed = new java.util.TreeSet<>(StdioClientFrames.INHERITED);
            allowed.add("LIAR_OWN");
            // A JVM, or unshare, may add nothing of the host's own: every variable is a default or the configuration's.
            assertThat(seen).contains("LIAR_OWN").isSubsetOf(allowed);
        }
        // And from a host environment holding a secret, only the defaults pass.
        Map<String, String> host = Map.of("ACME_SECRET_API_KEY", "s3cret", "PATH", "/usr/bin", "HOME", "/home/x", "AWS_SESSION_TOKEN", "t");
        assertThat(StdioClientFrames.environment(host, Map.of("TOKEN_FOR_THIS_SERVER", "v")))
                .containsOnlyKeys("PATH", "HOME", "TOKEN_FOR_THIS_SERVER");
    }

    @Test
    void aLyingServerFailsOnlyTheCallItLiesToAndItsToolsStillInstall() throws Exception {
        try (Finch f = finch(liar(Map.of()))) {
            Session s = guarded(() -> f.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(liar,*)")));
            // The malformed entries are skipped; the others became words.
            assertThat(s.vocabulary().word("mcp.liar.ok")).isPresent();
            assertThat(s.vocabulary().word("mcp.liar.stray")).isPresent();
            assertThat(s.vocabulary().word("mcp.liar.bottomless")).isEmpty();
            Outcome skipped = guarded(() -> call(s, "bottomless"));
            assertThat(code(skipped)).isEqualTo("E-HOST-025");
            assertThat(skipped.diagnostics().get(0).message()).contains("nested deeper than");
            stillAnswers(s);
            for (String lie : List.of("deep", "digits", "flood", "null")) {
                Outcome o = guarded(() -> call(s, lie));
                assertThat(code(o)).as("%s: %s", lie, o).isEqualTo("E-HOST-025");
                assertThat(o.diagnostics().get(0).message().length()).as(lie).isLessThan(4_000);
                stillAnswers(s);
            }
            Outcome stray = guarded(() -> call(s, "stray"));
            assertThat(stray.status()).as("%s", stray).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(stray.stack().get(stray.stack().size() - 1).display()).contains("after a stray line");
            Outcome refused = guarded(() -> call(s, "errbig"));
            assertThat(code(refused)).isEqualTo("E-HOST-026");
            assertThat(refused.diagnostics().get(0).message().length()).isLessThan(4_000);
            assertThat(refused.diagnostics().get(0).message()).doesNotContain("java.io.IOException");
            Outcome toolError = guarded(() -> call(s, "iserrbig"));
            assertThat(code(toolError)).isEqualTo("E-HOST-028");
            assertThat(toolError.diagnostics().get(0).message().length()).isLessThan(4_000);
            stillAnswers(s);
        }
    }

    @Test
    void aServerThatIgnoresSigtermEndsWithEverythingItStarted() throws Exception {
        // A shell that ignores SIGTERM runs the server, beside a child that ignores it too, and lingers after it.
        McpServerSpec.Stdio liar = liar(Map.of());
        StringBuilder java = new StringBuilder("'" + liar.command() + "'");
        for (String a : liar.args()) java.append(" '").append(a).append("'");
        var spec = new McpServerSpec.Stdio("stubborn", "/bin/sh", List.of("-c",
                "trap '' TERM; (trap '' TERM; exec sleep 300.361" + Toys.PID + ") & " + java + "; sleep 300.362" + Toys.PID), Map.of());
        try (Finch f = finch(spec)) {
            Session s = guarded(f::newSession);
            assertThat(Toys.eventually(() -> !Toys.withArgument("300.361" + Toys.PID).isEmpty())).as("its child started").isTrue();
            s.close();
            // The sleeps outlast the hang guard: gone means killed, not ended.
            assertThat(Toys.eventually(() -> Toys.withArgument("300.361" + Toys.PID).isEmpty() && Toys.withArgument("300.362" + Toys.PID).isEmpty()))
                    .as("the server and its child are gone (containment %s)", LocalProcessHost.containment()).isTrue();
        }
    }
}
