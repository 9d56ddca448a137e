package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.session;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability row 16 (Deno's paired "no permission" test): every host word of the vocabulary — every word whose
 * signature carries a capability other than {@code session.emit} — has a case here. Without a grant the run
 * suspends exactly at that word with the concrete requirement, keeps the {@code say} output before it, and
 * dispatches nothing; approving once completes it; denying fails it with E-HOST-001 and still dispatches nothing.
 * The list of words is derived from {@link Vocabulary}: a new host word without a case fails {@link #everyHostWordHasACase}.
 */
class NoGrantTest {
    @TempDir Path tmp;

    /** What a word over a root the session has not installed fails with, before any request (availability first). */
    static final String ROOT_NOT_INSTALLED = "E-HOST-002";

    /** Observable effect of a case: checked before approval (must be absent) and after approval. */
    @FunctionalInterface interface Effect { boolean happened(Path ws) throws IOException; }

    /**
     * One paired case. {@code body} runs after {@code (say "before")}; {@code requirement} is the concrete missing
     * capability; {@code approvedOutput} is the whole output after approval; {@code deferredResult} is the value a
     * deferred host answers with (null for workspace words, which run locally); {@code effect} tells whether the
     * effect happened on disk.
     */
    record Case(String body, String requirement, String approvedOutput, Object deferredResult, Effect effect) {
        /** A word over a root these sessions do not install: its pairing runs in deferred-host mode. */
        boolean rootWord() { return deferredResult != null; }
    }

    static final String WS = "${workspace}";

    static Map<String, Case> cases() {
        Map<String, Case> c = new LinkedHashMap<>();
        Effect none = ws -> false;
        Effect aChanged = ws -> !Files.readString(ws.resolve("a.txt")).equals("hello");
        c.put("file-read", new Case("(match-result (bytes-to-string (file-read (path \"a.txt\"))) (ok s (say s)) (err e (say \"bad\")))",
                "fs.read(" + WS + "/a.txt)", "beforehello", null, none));
        c.put("file-write", new Case("(file-write (path \"a.txt\") (string-to-bytes \"changed\")) (say \"!\")",
                "fs.write(" + WS + "/a.txt)", "before!", null, aChanged));
        c.put("file-size", new Case("(say (int-to-string (file-size (path \"a.txt\"))))", "fs.read(" + WS + "/a.txt)", "before5", null, none));
        c.put("file-slice", new Case("(match-result (bytes-to-string (file-slice (path \"a.txt\") 1 3)) (ok s (say s)) (err e (say \"bad\")))",
                "fs.read(" + WS + "/a.txt)", "beforeell", null, none));
        // Memory: the session's own tree (a session has one without a store); a put is staged and written at commit.
        c.put("memory-put", new Case("(memory-put \"session\" \"notes/a\" (json-of-string \"hi\")) (say \"!\")",
                "memory.write(tree=session,path=notes/a)", "before!", null, none));
        c.put("memory-delete", new Case("(memory-delete \"session\" \"notes/a\") (say \"!\")",
                "memory.write(tree=session,path=notes/a)", "before!", null, none));
        c.put("memory-get", new Case("(say (show (memory-get \"session\" \"notes/a\")))",
                "memory.read(tree=session,path=notes/a)", "before{\"tag\":\"none\"}", null, none));
        c.put("memory-list", new Case("(say (show (memory-list \"session\" \"notes\")))",
                "memory.read(tree=session,path=notes/**)", "before[]", null, none));
        c.put("tree-list", new Case("(say (show (tree-list (path \"sub\") 10)))", "fs.read(" + WS + "/sub/**)",
                "before{\"entries\":[{\"kind\":\"file\",\"path\":\"sub/x.txt\",\"size\":1}],\"truncated\":false}", null, none));
        c.put("file-lines-open", new Case("(say (show (stream-next (file-lines-open (path \"a.txt\")))))", "fs.read(" + WS + "/a.txt)",
                "before{\"tag\":\"some\",\"value\":\"hello\"}", null, none));
        c.put("csv-open", new Case("(say (show (stream-next (csv-open (path \"c.csv\")))))", "fs.read(" + WS + "/c.csv)",
                "before{\"tag\":\"some\",\"value\":[\"h\",\"v\"]}", null, none));
        c.put("csv-summary", new Case("(say (json-stringify (csv-summary (path \"c.csv\") 10)))", "fs.read(" + WS + "/c.csv)",
                "before{\"header\":[\"h\",\"v\"],\"columns\":[{\"name\":\"h\",\"empty\":0,\"non_empty\":1,\"numeric\":1,\"min\":1.0,\"max\":1.0,\"mean\":1.0},"
                        + "{\"name\":\"v\",\"empty\":0,\"non_empty\":1,\"numeric\":0}],\"rows\":1,\"truncated\":false}", null, none));
        c.put("workbook-sheets", new Case("(say (show (workbook-sheets (path \"b.xlsx\"))))", "fs.read(" + WS + "/b.xlsx)",
                "before[\"S\"]", null, none));
        c.put("workbook-open", new Case("(say (show (stream-next (workbook-open (path \"b.xlsx\")))))", "fs.read(" + WS + "/b.xlsx)",
                "before{\"tag\":\"some\",\"value\":[\"h\",\"v\"]}", null, none));
        c.put("workbook-sheet-open", new Case("(say (show (stream-next (workbook-sheet-open (path \"b.xlsx\") \"S\"))))", "fs.read(" + WS + "/b.xlsx)",
                "before{\"tag\":\"some\",\"value\":[\"h\",\"v\"]}", null, none));
        c.put("workbook-range", new Case("(say (show (workbook-range (path \"b.xlsx\") \"S\" 1 0 1 2)))", "fs.read(" + WS + "/b.xlsx)",
                "before[[\"1\",\"x\"]]", null, none));
        c.put("workbook-summary", new Case("(say (json-stringify (workbook-summary (path \"b.xlsx\") \"S\" 10)))", "fs.read(" + WS + "/b.xlsx)",
                "before{\"sheet\":\"S\",\"header\":[\"h\",\"v\"],\"columns\":[{\"name\":\"h\",\"empty\":0,\"non_empty\":1,\"numeric\":1,\"min\":1.0,\"max\":1.0,\"mean\":1.0},"
                        + "{\"name\":\"v\",\"empty\":0,\"non_empty\":1,\"numeric\":0}],\"rows\":1,\"truncated\":false}", null, none));
        c.put("process-run", new Case("(say (show (process-run \"/usr/bin/touch\" (list \"$WS/marker\"))))", "process.run(/usr/bin/touch)",
                "before{\"exit\":0,\"stderr\":\"\",\"stdout\":\"\"}", null, ws -> Files.exists(ws.resolve("marker"))));
        // Words over the other roots: the sessions here install only a workspace, where a local session fails them
        // with E-HOST-002 before any request (aRootTheSessionHasNotInstalledFailsBeforeAnyRequest), so their no-grant
        // pairing runs in deferred-host mode, where the embedder supplies the binding (and its result). The same words
        // over roots installed from SessionOptions, dispatched locally, are in dev.finch.HostSpiTest.
        for (String[] r : new String[][] {{"host", "host-machine"}, {"project", "project"}, {"task-output", "task.output"}}) {
            c.put(r[0] + "-file-read", new Case("(match-result (bytes-to-string (" + r[0] + "-file-read (" + r[0] + "-path \"a.txt\"))) (ok s (say s)) (err e (say \"bad\")))",
                    "fs.read(${" + r[1] + "}/a.txt)", "beforeremote", dev.finch.vm.value.Bytes.wrap("remote".getBytes(java.nio.charset.StandardCharsets.UTF_8)), none));
            c.put(r[0] + "-file-write", new Case("(" + r[0] + "-file-write (" + r[0] + "-path \"a.txt\") (string-to-bytes \"changed\")) (say \"!\")",
                    "fs.write(${" + r[1] + "}/a.txt)", "before!", dev.finch.vm.value.Unit.INSTANCE, aChanged));
        }
        return c;
    }

    /** Every vocabulary word with a capability other than session.emit, in any overload. */
    static Set<String> hostWords() {
        Set<String> out = new TreeSet<>();
        for (WordSpec w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) {
            for (Type.Fn f : w.signatures()) {
                if (f.effects().stream().anyMatch(cap -> !cap.equals(Capability.SESSION_EMIT))) out.add(w.name());
            }
        }
        return out;
    }

    /**
     * Host words whose binding only a µNorman world provides (a session installs no model or tool host): their paired
     * no-grant cases — pause before the binding is called, approve once, deny, deferred answer — live with that world.
     */
    static final Map<String, String> PAIRED_WITH_THEIR_HOST = Map.ofEntries(
            Map.entry("model-ask", "finch-providers dev.finch.norman.harness.ModelAuthorityTest"),
            Map.entry("tool-call", "finch-norman-test dev.finch.norman.test.ScriptedCallTest"),
            Map.entry("proposal-open", "finch-core dev.finch.hostwords.ProposalTest"),
            // The sessions here configure no MCP server (a call fails with E-HOST-024 before any request); the pairing
            // runs against real MCP servers.
            Map.entry("mcp-call", "finch-mcp dev.finch.mcp.McpClientTest"),
            // The sessions here install no desktop; the automation words' pairings run against a recording one.
            Map.entry("automation-availability", "finch-core dev.finch.hostwords.AutomationTest"),
            Map.entry("automation-displays", "finch-core dev.finch.hostwords.AutomationTest"),
            Map.entry("automation-windows", "finch-core dev.finch.hostwords.AutomationTest"),
            Map.entry("automation-click", "finch-core dev.finch.hostwords.AutomationTest"),
            Map.entry("automation-type", "finch-core dev.finch.hostwords.AutomationTest"),
            // The sessions here install no net host; the HTTP words' pairings run against a real local server.
            Map.entry("http-get", "finch-core dev.finch.hostwords.NetTest"),
            Map.entry("http-request", "finch-core dev.finch.hostwords.NetTest"),
            // A child needs the scheduler's profiles, which these sessions do not configure.
            Map.entry("agent-spawn", "finch-core dev.finch.agent.AgentRuntimeTest"),
            Map.entry("agent-spawn-with", "finch-core dev.finch.agent.AgentRuntimeTest"),
            // A schedule needs a policy the host defined, which these sessions' Finch does not.
            Map.entry("schedule-create", "finch-core dev.finch.schedule.ScheduleWordsTest"),
            Map.entry("schedule-list", "finch-core dev.finch.schedule.ScheduleWordsTest"),
            Map.entry("schedule-cancel", "finch-core dev.finch.schedule.ScheduleWordsTest"));

    @Test
    void everyHostWordHasACase() {
        assertThat(hostWords()).as("host words derived from the vocabulary").isNotEmpty().contains("file-read", "process-run");
        Set<String> covered = new TreeSet<>(cases().keySet());
        covered.addAll(PAIRED_WITH_THEIR_HOST.keySet());
        assertThat(covered).as("every host word has a paired no-grant case, and no case is stale").isEqualTo(hostWords());
    }

    private Path workspace(String name) throws IOException {
        Path ws = Files.createDirectories(tmp.resolve(name));
        Files.writeString(ws.resolve("a.txt"), "hello");
        Files.createDirectories(ws.resolve("sub"));
        Files.writeString(ws.resolve("sub/x.txt"), "x");
        Files.writeString(ws.resolve("c.csv"), "h,v\n1,x\n");
        Files.write(ws.resolve("b.xlsx"), workbook());
        return ws;
    }

    /** The CSV's two rows as a one-sheet XLSX, written by POI. */
    private static byte[] workbook() throws IOException {
        try (var b = new org.apache.poi.xssf.usermodel.XSSFWorkbook(); var out = new java.io.ByteArrayOutputStream()) {
            var sheet = b.createSheet("S");
            var header = sheet.createRow(0);
            header.createCell(0).setCellValue("h");
            header.createCell(1).setCellValue("v");
            var row = sheet.createRow(1);
            row.createCell(0).setCellValue(1);
            row.createCell(1).setCellValue("x");
            b.write(out);
            return out.toByteArray();
        }
    }

    private static String program(Case c, Path ws) { return "(say \"before\") " + c.body().replace("$WS", ws.toString()); }

    /** Submits without a grant and checks the pause; returns the suspended outcome. */
    private static Outcome suspendsAtTheWord(String word, Case c, Session s, Path ws, HostFixture.Recorder rec) throws IOException {
        Outcome o = lisp(s, program(c, ws), rec);
        assertThat(o.status()).as("%s: %s", word, o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).as(word).containsExactly(c.requirement());
        assertThat(o.inferredCapabilities()).as(word).isNotEmpty();
        assertThat(o.output()).as("say output before the boundary is kept").isEqualTo("before");
        assertThat(o.diagnostics()).isEmpty();
        // The observer saw the envelope before authorization; nothing settled, nothing happened.
        assertThat(rec.requests).as(word).hasSize(1);
        EffectRequest r = rec.requests.get(0);
        assertThat(r.requirement().toString()).isEqualTo(c.requirement());
        assertThat(r.sequence()).isEqualTo(1);
        assertThat(r.protocol()).isEqualTo("FINCH-VM-TYPED/1");
        assertThat(r.executionId()).isEqualTo(o.executionId());
        assertThat(r.expectedResult()).isEqualTo(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().word(word).orElseThrow().overloads().get(0).signature().outs());
        assertThat(r.origin().line()).isEqualTo(1);
        assertThat(rec.settled).as("journal not acknowledged while suspended").isEmpty();
        assertThat(c.effect().happened(ws)).as("%s dispatched nothing", word).isFalse();
        assertThat(s.pendingRequest(o.executionId())).contains(r);
        return o;
    }

    @TestFactory
    Stream<DynamicTest> withoutAGrantEveryHostWordSuspendsThenApproveOrDeny() {
        return cases().entrySet().stream().flatMap(e -> Stream.of(
                DynamicTest.dynamicTest(e.getKey() + ": suspends, approve once completes", () -> {
                    Path ws = workspace(e.getKey().replace('-', '_') + "_approve");
                    Case c = e.getValue();
                    Session s = c.rootWord() ? HostFixture.deferredSession(ws) : session(ws);
                    HostFixture.Recorder rec = new HostFixture.Recorder();
                    Outcome o = suspendsAtTheWord(e.getKey(), c, s, ws, rec);
                    Outcome done = s.approve(o.executionId(), Scope.ONCE);
                    if (c.rootWord()) {
                        // Approved, then waiting for the embedder's result for the same sequence.
                        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.SUSPENDED);
                        assertThat(done.requiredCapabilities()).isEmpty();
                        assertThat(s.pendingRequest(o.executionId()).orElseThrow().sequence()).isEqualTo(1);
                        done = s.respond(o.executionId(), new dev.finch.vm.boundary.HostResponse.Result(1, c.deferredResult()));
                    }
                    assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
                    assertThat(done.output()).isEqualTo(c.approvedOutput());
                    assertThat(done.executionId()).isEqualTo(o.executionId());
                    assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED);
                    if (e.getKey().equals("file-write") || e.getKey().equals("process-run")) assertThat(c.effect().happened(ws)).isTrue();
                    if (c.rootWord()) assertThat(c.effect().happened(ws)).as("deferred: nothing local").isFalse();
                    assertThat(rec.requests).as("approval re-requested nothing").hasSize(1);
                    assertThat(s.grants().grants()).as("a once-approval leaves no session grant").isEmpty();
                }),
                DynamicTest.dynamicTest(e.getKey() + ": deny fails E-HOST-001, nothing dispatched", () -> {
                    Path ws = workspace(e.getKey().replace('-', '_') + "_deny");
                    Session s = e.getValue().rootWord() ? HostFixture.deferredSession(ws) : session(ws);
                    HostFixture.Recorder rec = new HostFixture.Recorder();
                    Case c = e.getValue();
                    Outcome o = suspendsAtTheWord(e.getKey(), c, s, ws, rec);
                    Outcome denied = s.deny(o.executionId(), "not today");
                    assertFailed(denied, "host", "E-HOST-001");
                    assertThat(denied.output()).isEqualTo("before");
                    assertThat(denied.vmRevision()).isZero();
                    assertThat(c.effect().happened(ws)).isFalse();
                    assertThat(rec.states()).containsExactly(EffectJournal.State.DENIED);
                    assertThat(s.suspendedExecutions()).isEmpty();
                    // A second answer finds nothing to answer.
                    assertFailed(s.approve(o.executionId(), Scope.ONCE), "host", "E-SESSION-004");
                    assertThat(c.effect().happened(ws)).isFalse();
                })));
    }

    @Test
    void aRootTheSessionHasNotInstalledFailsBeforeAnyRequest() throws IOException {
        Path ws = workspace("uninstalled");
        for (Map.Entry<String, Case> e : cases().entrySet()) {
            if (!e.getValue().rootWord()) continue;
            HostFixture.Recorder rec = new HostFixture.Recorder();
            // Even with a grant for that root, the session has no such root: availability is not authority, nor the reverse.
            String root = e.getValue().requirement().substring(e.getValue().requirement().indexOf("${"), e.getValue().requirement().indexOf('}') + 1);
            Outcome o = lisp(session(ws, "fs.read(" + root + "/**)", "fs.write(" + root + "/**)"), program(e.getValue(), ws), rec);
            assertFailed(o, "host", ROOT_NOT_INSTALLED);
            assertThat(o.output()).isEqualTo("before");
            assertThat(o.requiredCapabilities()).isEmpty();
            assertThat(rec.requests).as("%s: no prompt for an operation that cannot happen", e.getKey()).isEmpty();
            assertThat(e.getValue().effect().happened(ws)).isFalse();
        }
    }

    @Test
    void theEnvelopeNamesTheWordThatWasCalled() throws IOException {
        Path ws = workspace("ops");
        for (Map.Entry<String, Case> e : cases().entrySet()) {
            HostFixture.Recorder rec = new HostFixture.Recorder();
            lisp(e.getValue().rootWord() ? HostFixture.deferredSession(ws) : session(ws), program(e.getValue(), ws), rec);
            assertThat(rec.requests).hasSize(1);
            assertThat(rec.requests.get(0).operation()).as(e.getKey()).isEqualTo(e.getKey());
        }
    }

    @Test
    void theOperationOfEveryWorkspaceWordIsItsName() throws IOException {
        Path ws = workspace("ops-ws");
        for (String word : List.of("file-read", "file-write", "file-size", "file-slice", "tree-list", "file-lines-open", "csv-open",
                "csv-summary", "process-run")) {
            HostFixture.Recorder rec = new HostFixture.Recorder();
            lisp(session(ws), program(cases().get(word), ws), rec);
            assertThat(rec.requests).hasSize(1);
            assertThat(rec.requests.get(0).operation()).isEqualTo(word);
        }
    }

    @Test
    void anUnreachableHostWordNeverPauses() throws IOException {
        // The requirement is inferred (preview) but the run pauses only when execution reaches the boundary.
        Path ws = workspace("unreached");
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(session(ws), "(say \"a\") (if (= 1 2) (file-write (path \"a.txt\") (string-to-bytes \"x\")) (say \"b\"))", rec);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("ab");
        // The preview instantiates the word's template with the literal argument.
        assertThat(o.inferredCapabilities()).contains("fs.write(${workspace}/a.txt)");
        assertThat(o.requiredCapabilities()).isEmpty();
        assertThat(rec.requests).isEmpty();
    }

    @Test
    void aGrantForAnotherFileDoesNotCover() throws IOException {
        Path ws = workspace("other");
        Outcome o = lisp(session(ws, "fs.read(${workspace}/sub/**)", "fs.write(${workspace}/a.txt)"),
                "(say (int-to-string (file-size (path \"a.txt\"))))");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        Outcome p = lisp(session(ws, "process.run(/usr/bin/true)"), "(process-run \"/usr/bin/touch\" (list \"x\"))");
        assertThat(p.requiredCapabilities()).containsExactly("process.run(/usr/bin/touch)");
    }
}
