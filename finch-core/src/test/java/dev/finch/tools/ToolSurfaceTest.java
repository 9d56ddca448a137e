package dev.finch.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.capabilities.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)   // a hang guard per test (each takes milliseconds); nothing here bounds wall time
class ToolSurfaceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path dir;

    private static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + s, e);
        }
    }

    private static String errorCode(String reply) {
        JsonNode e = json(reply).get("error");
        return e == null ? null : e.get("code").asText();
    }

    @Test
    void declaresTheFiveToolsWithObjectSchemas() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        assertThat(t.tools()).extracting(ToolSpec::name)
                .containsExactly("get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program");
        for (ToolSpec s : t.tools()) {
            JsonNode schema = json(s.inputSchema());
            assertThat(schema.get("type").asText()).isEqualTo("object");
            assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
            assertThat(s.description()).isNotBlank();
        }
        JsonNode submit = json(t.tools().get(4).inputSchema());
        assertThat(submit.get("required")).containsExactly(JSON.getNodeFactory().textNode("source"));
        assertThat(submit.get("properties").fieldNames()).toIterable()
                .containsExactly("source", "language", "expected_vm_revision", "expected_manifest_generation");
        assertThat(submit.get("properties").get("language").get("enum")).hasSize(3);
        assertThat(json(t.toolsJson())).hasSize(5);
        assertThat(json(t.toolsJson()).get(0).has("input_schema")).isTrue();
    }

    @Test
    void discoveryNarrowsToOneLanguageAndAnswersNormanFormsAsNorman() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        String norman = json(t.handle("get_language_definition", "{\"language\":\"norman\"}")).get("text").asText();
        assertThat(norman).contains("## µNorman", "(check-expect e expected)").doesNotContain("## Co-Forth");
        assertThat(json(t.handle("get_language_definition", "{\"detail\":\"full\"}")).get("text").asText()).contains("## Co-Forth", "## µNorman");
        JsonNode define = json(t.handle("inspect_word", "{\"name\":\"define\",\"language\":\"norman\"}"));
        assertThat(define.get("kind").asText()).isEqualTo("syntax");
        assertThat(define.get("form").asText()).isEqualTo("(define f (x …) body)");
        assertThat(define.get("forms")).hasSize(2);
        assertThat(define.get("example").asText()).contains("(check-expect");
        JsonNode script = json(t.handle("inspect_word", "{\"name\":\"script\"}"));
        assertThat(script.get("languages")).containsExactly(JSON.getNodeFactory().textNode("norman"));
        JsonNode reply = json(t.handle("inspect_word", "{\"name\":\"reply\"}"));
        assertThat(reply.get("forms").get(0).get("name").asText()).isEqualTo("script");
    }

    @Test
    void aProviderTurnDiscoversThenSubmitsAgainstTheObservedRevision() {
        Session s = finch.newSession();
        ToolSurface t = ToolSurface.of(s);
        JsonNode state = json(t.handle("get_vm_state", "{}"));
        assertThat(state.get("vm_revision").asLong()).isZero();
        JsonNode out = json(t.handle("submit_program", "{\"source\":\"(define (sq [n : int]) : int (* n n)) (sq 6)\","
                + "\"expected_vm_revision\":0,\"expected_manifest_generation\":1}", "resp-42/call-1"));
        assertThat(out.get("status").asText()).isEqualTo("completed");
        assertThat(out.get("source_id").asText()).isEqualTo("resp-42/call-1");
        assertThat(out.get("language").asText()).isEqualTo("lisp");
        assertThat(out.get("stack").get(0).get("display").asText()).isEqualTo("36");

        JsonNode after = json(t.handle("get_vm_state", ""));
        assertThat(after.get("vm_revision").asLong()).isEqualTo(1);
        assertThat(after.get("definitions").get(0).get("name").asText()).isEqualTo("sq");

        JsonNode def = json(t.handle("inspect_word", "{\"name\":\"sq\"}"));
        assertThat(def.get("kind").asText()).isEqualTo("definition");
        assertThat(def.get("signature").asText()).isEqualTo("int -> int");
        assertThat(def.get("source").asText()).startsWith(": sq ( int -- int )");

        // A program composed against the old revision is refused with the session's structured error.
        JsonNode stale = json(t.handle("submit_program", "{\"source\":\"drop\",\"language\":\"forth\",\"expected_vm_revision\":0}"));
        assertThat(stale.get("status").asText()).isEqualTo("failed");
        assertThat(stale.get("diagnostics").get(0).get("code").asText()).isEqualTo("E-SESSION-001");
        assertThat(stale.get("source_id").asText()).isEqualTo("tool:submit_program#1");
    }

    @Test
    void searchAndInspectAnswerWithSyntaxWithoutSignature() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        JsonNode hits = json(t.handle("search_word", "{\"query\":\"while\"}"));
        assertThat(hits.get("hits").get(0).get("name").asText()).isEqualTo("while");
        assertThat(hits.get("hits").get(0).get("kind").asText()).isEqualTo("syntax");
        assertThat(hits.get("hits").get(0).has("signature")).isFalse();
        JsonNode limited = json(t.handle("search_word", "{\"query\":\"string\",\"limit\":2}"));
        assertThat(limited.get("hits")).hasSize(2);
        assertThat(limited.get("truncated").asBoolean()).isTrue();

        JsonNode w = json(t.handle("inspect_word", "{\"name\":\"while\"}"));
        assertThat(w.get("kind").asText()).isEqualTo("syntax");
        assertThat(w.has("signature")).isFalse();
        JsonNode core = json(t.handle("inspect_word", "{\"name\":\"string-length\"}"));
        assertThat(core.get("signature").asText()).isEqualTo("string -> int");

        String unknown = t.handle("inspect_word", "{\"name\":\"string-lenght\"}");
        assertThat(errorCode(unknown)).isEqualTo("E-TOOL-004");
        assertThat(json(unknown).get("error").get("suggestions").toString()).contains("string-length");

        JsonNode lang = json(t.handle("get_language_definition", null));
        assertThat(lang.get("text").asText()).contains("## Co-Forth").contains("## Lisp");
    }

    @Test
    void theLanguageDefinitionIsThePrimerUnlessTheCallOrTheHostAsksForTheFullText() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        JsonNode primer = json(t.handle("get_language_definition", "{}"));
        assertThat(primer.get("detail").asText()).isEqualTo("primer");
        assertThat(primer.get("text").asText()).isEqualTo(dev.finch.Discovery.primer().text()).hasSizeLessThanOrEqualTo(12_000);
        JsonNode full = json(t.handle("get_language_definition", "{\"detail\":\"full\"}"));
        assertThat(full.get("detail").asText()).isEqualTo("full");
        assertThat(full.get("text").asText()).isEqualTo(dev.finch.Discovery.languageDefinition().text());
        JsonNode norman = json(t.handle("get_language_definition", "{\"language\":\"norman\",\"detail\":\"primer\"}"));
        assertThat(norman.get("text").asText()).isEqualTo(dev.finch.Discovery.primer(dev.finch.Language.NORMAN).text()).hasSizeLessThanOrEqualTo(6_000);
        assertThat(errorCode(t.handle("get_language_definition", "{\"detail\":\"brief\"}"))).isEqualTo("E-TOOL-003");
        JsonNode detail = json(t.toolsJson()).get(1).get("input_schema").get("properties").get("detail");
        assertThat(detail.get("enum").toString()).isEqualTo("[\"primer\",\"full\"]");
        ToolSurface fullByDefault = t.withLanguageDetail(dev.finch.LanguageDefinition.Detail.FULL);
        assertThat(json(fullByDefault.handle("get_language_definition", "{}")).get("detail").asText()).isEqualTo("full");
    }

    @Test
    void badCallsGetErrorObjectsNeverExceptions() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        assertThat(errorCode(t.handle("rm_rf", "{}"))).isEqualTo("E-TOOL-001");
        assertThat(errorCode(t.handle(null, null))).isEqualTo("E-TOOL-001");
        for (String bad : List.of("{", "[1]", "\"x\"", "{\"name\":\"a\"} {}", "{\"name\":\"a\",\"name\":\"b\"}", "nul",
                "{\"name\":" + "[".repeat(100) + "]".repeat(100) + "}")) {
            assertThat(errorCode(t.handle("inspect_word", bad))).as(bad).isEqualTo("E-TOOL-002");
        }
        for (String bad : List.of("{}", "{\"name\":1}", "{\"name\":\"\"}", "{\"name\":\"dup\",\"extra\":true}", "{\"name\":null}")) {
            assertThat(errorCode(t.handle("inspect_word", bad))).as(bad).isEqualTo("E-TOOL-003");
        }
        assertThat(errorCode(t.handle("submit_program", "{\"source\":\"1\",\"language\":\"cobol\"}"))).isEqualTo("E-TOOL-003");
        assertThat(errorCode(t.handle("submit_program", "{\"source\":\"1\",\"expected_vm_revision\":1.5}"))).isEqualTo("E-TOOL-003");
        assertThat(errorCode(t.handle("submit_program", "{\"source\":\"1\",\"expected_vm_revision\":-1}"))).isEqualTo("E-TOOL-003");
        assertThat(errorCode(t.handle("search_word", "{\"query\":\"x\",\"limit\":0}"))).isEqualTo("E-TOOL-003");
        assertThat(errorCode(t.handle("get_vm_state", "{\"x\":1}"))).isEqualTo("E-TOOL-003");
        String huge = "{\"source\":\"" + "1 ".repeat(ToolSurface.MAX_SOURCE_CHARS) + "\"}";
        assertThat(errorCode(t.handle("submit_program", huge))).isIn("E-TOOL-002", "E-TOOL-003");
        // Nothing of the above ran or committed.
        assertThat(t.session().vmRevision()).isZero();
    }

    @Test
    void aProgramFailureIsAnOutcomeNotAToolError() {
        ToolSurface t = ToolSurface.of(finch.newSession());
        JsonNode o = json(t.handle("submit_program", "{\"source\":\"1 \\\"a\\\" +\"}"));
        assertThat(o.has("error")).isFalse();
        assertThat(o.get("status").asText()).isEqualTo("failed");
        assertThat(o.get("diagnostics").get(0).get("phase").asText()).isEqualTo("verify");
    }

    @Test
    void unitYieldsAreResumedAndSayStreamsToTheSink() {
        StringBuilder said = new StringBuilder();
        ToolSurface t = ToolSurface.of(finch.newSession()).withSink(said::append);
        JsonNode o = json(t.handle("submit_program", "{\"source\":\"\\\"a\\\" say unit yield \\\"b\\\" say\"}"));
        assertThat(o.get("status").asText()).isEqualTo("completed");
        assertThat(o.get("output").asText()).isEqualTo("ab");
        assertThat(said.toString()).isEqualTo("ab");
        JsonNode paused = json(ToolSurface.of(finch.newSession()).withUnitYieldResumes(0)
                .handle("submit_program", "{\"source\":\"unit yield\"}"));
        assertThat(paused.get("status").asText()).isEqualTo("suspended");
    }

    @Test
    void aMissingGrantSuspendsAndTheHostApprovesThroughTheSession() throws IOException {
        Files.writeString(dir.resolve("n.txt"), "note");
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(dir));
        ToolSurface t = ToolSurface.of(s);
        JsonNode o = json(t.handle("submit_program",
                "{\"source\":\"(match-result (bytes-to-string (file-read (path \\\"n.txt\\\"))) (ok x (say x)) (err e (say e)))\"}"));
        assertThat(o.get("status").asText()).isEqualTo("suspended");
        assertThat(o.get("required_capabilities").get(0).asText()).contains("fs.read").contains("n.txt");
        var done = s.approve(o.get("execution_id").asText(), Scope.ONCE);
        assertThat(done.output()).isEqualTo("note");
    }

    @Test
    void aRemoteHostAnswersADeferredRequestThroughVmResume() {
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(dir).withGrant("fs.read(${workspace}/**)").withDeferredHost(true));
        assertThat(ToolSurface.of(s).tools()).extracting(ToolSpec::name).doesNotContain("vm_resume");
        ToolSurface t = ToolSurface.of(s).withVmResume();
        assertThat(t.tools()).extracting(ToolSpec::name).endsWith("submit_program", "vm_resume");
        JsonNode schema = json(t.tools().get(5).inputSchema());
        assertThat(schema.get("required")).hasSize(3);
        assertThat(schema.get("properties").get("response").get("type").asText()).isEqualTo("object");

        JsonNode o = json(t.handle("submit_program",
                "{\"source\":\"(match-result (bytes-to-string (file-read (path \\\"n.txt\\\"))) (ok x (say x)) (err e (say e)))\"}"));
        assertThat(o.get("status").asText()).isEqualTo("suspended");
        JsonNode pending = o.get("pending_request");
        assertThat(pending.get("operation").asText()).isEqualTo("file-read");
        assertThat(pending.get("awaiting").asText()).isEqualTo("result");
        assertThat(pending.get("arguments").get(0).get("value").asText()).isEqualTo("n.txt");
        String id = o.get("execution_id").asText();

        // A stale sequence is refused and the execution still waits; a response that is no object is not even routed.
        JsonNode stale = json(t.handle("vm_resume", "{\"execution_id\":\"" + id + "\",\"sequence\":9,\"response\":{\"result\":{\"values\":[\"AA==\"]}}}"));
        assertThat(stale.get("status").asText()).isEqualTo("refused");
        assertThat(stale.get("diagnostics").get(0).get("code").asText()).isEqualTo("E-HOST-012");
        assertThat(errorCode(t.handle("vm_resume", "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":\"ok\"}"))).isEqualTo("E-TOOL-003");
        JsonNode wrong = json(t.handle("vm_resume", "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":[7]}}}"));
        assertThat(wrong.get("diagnostics").get(0).get("code").asText()).isEqualTo("E-HOST-014");
        assertThat(s.suspendedExecutions()).containsExactly(id);

        String remoteText = java.util.Base64.getEncoder().encodeToString("from afar".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        JsonNode done = json(t.handle("vm_resume", "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":[\"" + remoteText + "\"]}}}"));
        assertThat(done.get("status").asText()).isEqualTo("completed");
        assertThat(done.get("output").asText()).isEqualTo("from afar");
        assertThat(done.has("pending_request")).as("only suspended and refused outcomes say what they wait for").isFalse();
    }
}
