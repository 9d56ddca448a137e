package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.FINCH;
import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.WRITE_ALL;
import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.assertRefused;
import static dev.finch.hostwords.HostFixture.deferredSession;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.VmResume;
import dev.finch.capabilities.Attempt;
import dev.finch.capabilities.Scope;
import dev.finch.ir.type.Type;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.value.Bytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, deliverable 3 and the refusal half of 4: deferred-host mode driven end to end over JSON. The pending
 * request's JSON carries typed arguments (a write's bytes as base64); a remote host that sees only outcome JSON
 * performs each request itself and answers with {@code VmResume} JSON; a stale, wrong-kind, wrong-typed or
 * malformed answer is {@code refused} and the execution still waits for the right one; an answer to a run whose
 * session moved on is refused before anything is dispatched; a saved and restored suspension keeps its typed
 * arguments.
 */
class DeferredJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path ws;
    @TempDir Path remote;

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static JsonNode json(Outcome o) { return json(FinchJson.write(o)); }

    private static String resume(JsonNode pending, ArrayNode values) {
        ObjectNode r = JSON.createObjectNode();
        r.put("execution_id", pending.get("execution_id").asText());
        r.put("sequence", pending.get("sequence").asLong());
        r.putObject("response").putObject("result").set("values", values);
        return r.toString();
    }

    /**
     * A host in another process: it sees only JSON — the outcome's {@code pending_request} — performs the operation
     * against its own directory (and fakes processes), and answers with a VmResume as JSON text.
     */
    static final class RemoteHost {
        final Path root;
        final List<String> performed = new ArrayList<>();

        RemoteHost(Path root) { this.root = root; }

        String answer(JsonNode outcome) throws IOException {
            JsonNode req = outcome.get("pending_request");
            assertThat(req.get("awaiting").asText()).as("only an approved request is performed").isEqualTo("result");
            JsonNode args = req.get("arguments");
            ArrayNode values = JSON.createArrayNode();
            String op = req.get("operation").asText();
            performed.add(req.get("sequence").asLong() + " " + op);
            switch (op) {
                case "file-read" -> {
                    assertThat(args.get(0).get("type").asText()).isEqualTo("path");
                    byte[] data = Files.readAllBytes(root.resolve(args.get(0).get("value").asText()));
                    values.add(Base64.getEncoder().encodeToString(data));
                }
                case "file-write" -> {
                    assertThat(args.get(1).get("type").asText()).isEqualTo("bytes");
                    Files.write(root.resolve(args.get(0).get("value").asText()), Base64.getDecoder().decode(args.get(1).get("value").asText()));
                }
                case "process-run" -> {
                    List<String> argv = new ArrayList<>();
                    args.get(1).get("value").forEach(a -> argv.add(a.asText()));
                    values.addObject().put("exit", 0).put("stderr", "").put("stdout", "ran " + args.get(0).get("value").asText() + " " + argv);
                }
                default -> throw new AssertionError("unexpected operation " + op);
            }
            assertThat(req.get("expected_result")).hasSize(values.size());
            return resume(req, values);
        }
    }

    @Test
    void aDeferredWriteCarriesItsBytesInTheRequestJson() {
        Session s = deferredSession(ws, WRITE_ALL);
        Outcome o = lisp(s, "(say \"w\") (file-write (path \"out.bin\") (string-to-bytes \"h\u00e9llo\"))");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        byte[] expected = "h\u00e9llo".getBytes(StandardCharsets.UTF_8);

        JsonNode request = json(FinchJson.write(s.pendingRequest(o.executionId()).orElseThrow()));
        assertThat(request.get("protocol").asText()).isEqualTo("FINCH-VM-TYPED/1");
        assertThat(request.get("execution_id").asText()).isEqualTo(o.executionId());
        assertThat(request.get("sequence").asLong()).isEqualTo(1);
        assertThat(request.get("requirement").asText()).isEqualTo("fs.write(${workspace}/out.bin)");
        assertThat(request.get("operation").asText()).isEqualTo("file-write");
        JsonNode path = request.get("arguments").get(0);
        assertThat(path.get("type").asText()).isEqualTo("path");
        assertThat(path.get("value").asText()).isEqualTo("out.bin");
        assertThat(path.get("display").asText()).isEqualTo("(path \"out.bin\")");
        JsonNode bytes = request.get("arguments").get(1);
        assertThat(bytes.get("type").asText()).isEqualTo("bytes");
        assertThat(Base64.getDecoder().decode(bytes.get("value").asText())).isEqualTo(expected);
        assertThat(bytes.get("display").asText()).startsWith("#bytes[104 195 169");
        assertThat(request.get("expected_result")).isEmpty();
        assertThat(request.get("origin").get("source").asText()).isEqualTo("test");

        // The outcome's JSON has the same request, and says it waits for the host's result.
        JsonNode outcome = json(o);
        assertThat(outcome.get("status").asText()).isEqualTo("suspended");
        assertThat(outcome.get("yielded").isNull()).isTrue();
        JsonNode pending = outcome.get("pending_request");
        assertThat(pending.get("awaiting").asText()).isEqualTo("result");
        ((ObjectNode) pending).remove("awaiting");
        assertThat(pending).isEqualTo(request);
        assertThat(Files.exists(ws.resolve("out.bin"))).as("nothing was written locally").isFalse();
    }

    @Test
    void aRemoteHostServesEveryRequestOverJson() throws IOException {
        Files.writeString(ws.resolve("in.txt"), "LOCAL");
        Files.writeString(remote.resolve("in.txt"), "remote text");
        Session s = deferredSession(ws, READ_ALL, WRITE_ALL, "process.run(/usr/bin/env)");
        HostFixture.Recorder rec = new HostFixture.Recorder();
        String program = "(say \"start \") " + readAndSay("in.txt") + " (say \" \") " + write("out.txt", "written remotely")
                + " (say (show (process-run \"/usr/bin/env\" (list \"a\" \"b c\"))))";
        RemoteHost host = new RemoteHost(remote);
        Outcome o = lisp(s, program, rec);
        int answers = 0;
        while (o.status() == Outcome.Status.SUSPENDED) {
            o = s.respond(host.answer(json(o)));
            assertThat(++answers).isLessThanOrEqualTo(3);
        }
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("start remote text {\"exit\":0,\"stderr\":\"\",\"stdout\":\"ran /usr/bin/env [a, b c]\"}");
        assertThat(host.performed).containsExactly("1 file-read", "2 file-write", "3 process-run");
        assertThat(Files.readString(remote.resolve("out.txt"))).isEqualTo("written remotely");
        assertThat(Files.exists(ws.resolve("out.txt"))).as("Finch wrote nothing itself").isFalse();
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.ACKNOWLEDGED);
        // The observers saw the typed arguments; the journal keeps receipts without them.
        assertThat(rec.requests.get(1).values()).hasSize(2);
    }

    @Test
    void aFileReadIsAnsweredWithArbitraryBytes() throws IOException {
        byte[] data = {0, (byte) 255, 10, (byte) 0xC3};
        Files.write(remote.resolve("in.bin"), data);
        Session s = deferredSession(ws, READ_ALL);
        Outcome o = lisp(s, "(file-read (path \"in.bin\"))");
        Outcome done = s.respond(new RemoteHost(remote).answer(json(o)));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.stack()).extracting(e -> e.type() + " " + e.display()).containsExactly("bytes #bytes[0 255 10 195]");
    }

    @Test
    void aProcessRunIsAnsweredWithItsRecord() {
        Session s = deferredSession(ws, "process.run(/bin/echo)");
        Outcome o = lisp(s, "(process-run \"/bin/echo\" (list \"hi\"))");
        JsonNode pending = json(o).get("pending_request");
        assertThat(pending.get("arguments").get(0).get("value").asText()).isEqualTo("/bin/echo");
        assertThat(pending.get("arguments").get(1).get("type").asText()).isEqualTo("list<string>");
        assertThat(pending.get("arguments").get(1).get("value")).containsExactly(JSON.getNodeFactory().textNode("hi"));
        assertThat(pending.get("expected_result").get(0).asText()).isEqualTo("record{exit:int,stderr:string,stdout:string}");
        ArrayNode values = JSON.createArrayNode();
        values.addObject().put("exit", 3).put("stderr", "e").put("stdout", "remote hi");
        Outcome done = s.respond(resume(pending, values));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.stack().get(0).display()).isEqualTo("{ exit: 3 stderr: \"e\" stdout: \"remote hi\" }");
    }

    @Test
    void staleWrongKindAndWrongTypedAnswersAreRefusedAndTheRightOneStillContinues() throws IOException {
        Files.writeString(remote.resolve("a.txt"), "right");
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, "(say \"x\") " + readAndSay("a.txt"), rec);
        JsonNode pending = json(o).get("pending_request");
        String id = o.executionId();

        // A stale sequence.
        ObjectNode stale = (ObjectNode) json(resume(pending, JSON.createArrayNode().add("AAAA")));
        stale.put("sequence", 7);
        Outcome r1 = s.respond(stale.toString());
        assertRefused(r1, "E-HOST-012");
        assertThat(r1.diagnostics().get(0).expected()).isEqualTo("1");
        assertThat(r1.diagnostics().get(0).found()).isEqualTo("7");
        JsonNode refusedJson = json(r1);
        assertThat(refusedJson.get("status").asText()).isEqualTo("refused");
        assertThat(refusedJson.get("execution_id").asText()).isEqualTo(id);
        assertThat(refusedJson.get("output").asText()).isEqualTo("x");
        assertThat(refusedJson.get("pending_request").get("sequence").asLong()).isEqualTo(1);
        assertThat(refusedJson.get("pending_request").get("awaiting").asText()).isEqualTo("result");
        assertThat(refusedJson.get("diagnostics").get(0).get("code").asText()).isEqualTo("E-HOST-012");

        // Results that do not fit the row [bytes]: a number, text that is not base64, two values, none.
        for (String values : List.of("[42]", "[\"not base64!\"]", "[\"AAAA\",\"AAAA\"]", "[]", "[null]", "[{\"ok\":\"AAAA\"}]")) {
            Outcome r = s.respond("{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":" + values + "}}}");
            assertRefused(r, "E-HOST-014");
            assertThat(r.diagnostics().get(0).expected()).as(values).contains("bytes");
        }
        assertThat(s.suspendedExecutions()).containsExactly(id);
        assertThat(rec.states()).as("nothing settled by a refused answer").isEmpty();

        Outcome done = s.respond(new RemoteHost(remote).answer(json(o)));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("xright");
        // Answered once: the same answer again is for no suspended execution.
        assertFailed(s.respond(new RemoteHost(remote).answer(json(o))), "host", "E-SESSION-004");
    }

    @Test
    void aResultBeforeApprovalIsTheWrongKindAndIsRefused() throws IOException {
        Files.writeString(remote.resolve("a.txt"), "remote");
        Session s = deferredSession(ws);
        Outcome o = lisp(s, readAndSay("a.txt"));
        JsonNode pending = json(o).get("pending_request");
        assertThat(pending.get("awaiting").asText()).isEqualTo("approval");
        assertThat(json(o).get("required_capabilities").get(0).asText()).isEqualTo("fs.read(${workspace}/a.txt)");
        Outcome early = s.respond(resume(pending, JSON.createArrayNode().add("c21AAA==")));
        assertRefused(early, "E-HOST-012");
        assertThat(early.output()).isEmpty();
        // Approval first, then the remote host's result for the same sequence.
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(approved.pendingRequest().orElseThrow().awaiting()).isEqualTo(Outcome.Awaiting.RESULT);
        assertThat(approved.pendingRequest().orElseThrow().request().sequence()).isEqualTo(1);
        Outcome done = s.respond(new RemoteHost(remote).answer(json(approved)));
        assertThat(done.output()).isEqualTo("remote");
    }

    @Test
    void malformedVmResumesAreRefusedNeverThrown() {
        Session s = deferredSession(ws, READ_ALL);
        Outcome o = lisp(s, readAndSay("a.txt"));
        String id = o.executionId();
        String ok = "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"cancelled\":{}}}";
        assertThat(VmResume.fromJson(ok).isOk()).isTrue();
        List<String> malformed = List.of(
                "{\"execution_id\":\"" + id + "\",\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"cancelled\":{}}}",
                ok + " {}",
                ok + " trailing",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"cancelled\":{}},\"extra\":1}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"cancelled\":{},\"denied\":{\"reason\":\"x\"}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"approved\":{}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":\"1\",\"response\":{\"cancelled\":{}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1.5,\"response\":{\"cancelled\":{}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"denied\":{}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":{}}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":[],\"more\":1}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"protocol\":\"OTHER/2\",\"response\":{\"cancelled\":{}}}",
                "{\"execution_id\":\"" + id + "\",\"sequence\":1,\"response\":{\"result\":{\"values\":[" + "[".repeat(300) + "]".repeat(300) + "]}}}");
        for (String text : malformed) {
            Attempt<VmResume> parsed = VmResume.fromJson(text);
            assertThat(parsed.isOk()).as(text).isFalse();
            assertThat(parsed.refusal().orElseThrow().code()).as(text).isEqualTo("E-HOST-018");
            Outcome r = s.respond(text);
            assertThat(r.status()).as(text).isIn(Outcome.Status.REFUSED, Outcome.Status.FAILED);
            assertThat(r.diagnostics().get(0).code()).as(text).isEqualTo("E-HOST-018");
            assertThat(s.suspendedExecutions()).as(text).containsExactly(id);
        }
        // Readable enough to name the execution: refused, and the execution still waits.
        assertRefused(s.respond(malformed.get(3)), "E-HOST-018");
        // Not even JSON, or naming no execution: failed, there is nothing to keep waiting.
        for (String garbage : new String[] {"", "nope", "[]", "null", "{\"sequence\":1}", null}) {
            Outcome r = s.respond(garbage);
            assertFailed(r, "host", "E-HOST-018");
            assertThat(VmResume.fromJson(garbage).isOk()).isFalse();
        }
        assertThat(s.respond(ok).status()).isEqualTo(Outcome.Status.CANCELLED);
    }

    @Test
    void aVmResumeWritesTheContractShapeAndReadsItBack() {
        VmResume result = VmResume.result("s1-e1", 2, List.of(VmResume.encode(Type.BYTES, Bytes.wrap(new byte[] {1, 2}))));
        assertThat(result.toJson()).isEqualTo("{\"execution_id\":\"s1-e1\",\"sequence\":2,\"response\":{\"result\":{\"values\":[\"AQI=\"]}}}");
        assertThat(VmResume.fromJson(result.toJson()).value()).isEqualTo(result);
        VmResume denied = VmResume.denied("s1-e1", 2, "no");
        assertThat(denied.toJson()).isEqualTo("{\"execution_id\":\"s1-e1\",\"sequence\":2,\"response\":{\"denied\":{\"reason\":\"no\"}}}");
        assertThat(VmResume.fromJson(denied.toJson()).value()).isEqualTo(denied);
        VmResume cancelled = VmResume.cancelled("s1-e1", 2, null);
        assertThat(cancelled.toJson()).isEqualTo("{\"execution_id\":\"s1-e1\",\"sequence\":2,\"response\":{\"cancelled\":{}}}");
        assertThat(VmResume.fromJson(cancelled.toJson()).value()).isEqualTo(cancelled);
        assertThat(VmResume.fromJson("{\"protocol\":\"FINCH-VM-TYPED/1\",\"execution_id\":\"s1-e1\",\"sequence\":2,"
                + "\"response\":{\"cancelled\":{\"reason\":\"later\"}}}").value()).isEqualTo(VmResume.cancelled("s1-e1", 2, "later"));
    }

    @Test
    void aStaleApprovalIsRefusedAndTheEffectNeverHappens() {
        Session s = session(ws);
        Outcome paused = lisp(s, "(say \"before \") " + write("late.txt", "too late"));
        assertThat(paused.requiredCapabilities()).containsExactly("fs.write(${workspace}/late.txt)");
        assertThat(lisp(s, "(+ 1 2)").status()).isEqualTo(Outcome.Status.COMPLETED);

        Outcome late = s.approve(paused.executionId(), Scope.SESSION);
        assertRefused(late, "E-SESSION-001");
        assertThat(late.diagnostics().get(0).expected()).isEqualTo("0");
        assertThat(late.diagnostics().get(0).found()).isEqualTo("1");
        assertThat(late.output()).isEqualTo("before ");
        assertThat(late.pendingRequest().orElseThrow().awaiting()).isEqualTo(Outcome.Awaiting.APPROVAL);
        assertThat(Files.exists(ws.resolve("late.txt"))).as("the stale approval dispatched nothing").isFalse();
        assertThat(s.grants().isEmpty()).as("nor added its grant to the session").isTrue();
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(s.suspendedExecutions()).containsExactly(paused.executionId());
        // Still refused on a second try; the host can end it: a denial dispatches nothing and is taken.
        assertRefused(s.approve(paused.executionId(), Scope.ONCE), "E-SESSION-001");
        assertFailed(s.deny(paused.executionId(), "stale"), "host", "E-HOST-001");
        assertThat(s.suspendedExecutions()).isEmpty();
        assertThat(Files.exists(ws.resolve("late.txt"))).isFalse();
    }

    @Test
    void aStaleDeferredResultIsRefusedBeforeAnythingMoves() {
        Session s = deferredSession(ws, WRITE_ALL);
        Outcome paused = lisp(s, write("a.txt", "x") + " (say \"after\")");
        assertThat(lisp(s, "1").status()).isEqualTo(Outcome.Status.COMPLETED);
        Outcome late = s.respond(paused.executionId(), new dev.finch.vm.boundary.HostResponse.Result(1, dev.finch.vm.value.Unit.INSTANCE));
        assertRefused(late, "E-SESSION-001");
        assertThat(late.output()).doesNotContain("after");
        assertThat(s.cancel(paused.executionId())).isTrue();
    }

    @Test
    void aSavedAndRestoredDeferredSuspensionKeepsItsTypedArguments() throws IOException {
        Session s = deferredSession(ws, WRITE_ALL);
        Outcome o = lisp(s, "(say \"w\") (file-write (path \"b.bin\") (string-to-bytes \"\u00ff bytes\")) (say \"!\")");
        EffectRequest before = s.pendingRequest(o.executionId()).orElseThrow();
        String image = s.save(o.executionId());

        Session restored = FINCH.restore(image, dev.finch.SessionOptions.builder().workspace(ws).grant(WRITE_ALL).build().withDeferredHost(true));
        EffectRequest after = restored.pendingRequest(o.executionId()).orElseThrow();
        assertThat(after.values()).extracting(v -> v.type().toString()).containsExactly("path", "bytes");
        assertThat(((Bytes) after.values().get(1).value()).toArray()).isEqualTo("\u00ff bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(after.arguments()).isEqualTo(before.arguments());
        assertThat(FinchJson.write(after)).isEqualTo(FinchJson.write(before));

        // The restored session is answered over JSON like the original.
        JsonNode pending = json(FinchJson.write(after));
        Files.write(remote.resolve("b.bin"), Base64.getDecoder().decode(pending.get("arguments").get(1).get("value").asText()));
        Outcome done = restored.respond(resume(pending, JSON.createArrayNode()));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("w!");
        assertThat(Files.readString(remote.resolve("b.bin"), StandardCharsets.UTF_8)).isEqualTo("\u00ff bytes");
    }
}
