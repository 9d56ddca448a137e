package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.VmResume;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * What an application that depends on Finch does with it, through the documented API only (issue 13's "done when"):
 * values in, a word called, typed results out; its own file host; deferred requests served over JSON; an image
 * restored under its own authority — and a tampered image, a stale approval and a double restore refused.
 */
class EmbeddingTest {
    /** The application's image key: in real life, from its secret store. */
    private static final byte[] KEY = "com.example: an image key of 32 bytes or more".getBytes(StandardCharsets.UTF_8);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The application's own file host: files in a map, under the workspace root only. */
    static final class MapFiles implements FileHost {
        final Map<String, byte[]> files = new ConcurrentHashMap<>();

        @Override public boolean installed(Root root) { return root == Root.WORKSPACE; }

        private byte[] file(ConcretePath p) throws HostFailure {
            byte[] b = files.get(p.relative());
            if (b == null) throw new HostFailure(HostCode.NOT_FOUND, "no such file: " + p);
            return b;
        }

        @Override public byte[] read(ConcretePath p, long maxBytes) throws HostFailure { return file(p).clone(); }
        @Override public void write(ConcretePath p, byte[] data) { files.put(p.relative(), data.clone()); }
        @Override public long size(ConcretePath p) throws HostFailure { return file(p).length; }
        @Override public byte[] slice(ConcretePath p, long offset, int length) throws HostFailure {
            byte[] b = file(p);
            int from = (int) Math.min(offset, b.length);
            return Arrays.copyOfRange(b, from, (int) Math.min(b.length, (long) from + length));
        }
        @Override public Listing list(ConcretePath directory, int max) { return new Listing(List.of(), false); }
        @Override public Reader open(ConcretePath p) throws HostFailure { return new InputStreamReader(openBytes(p), StandardCharsets.UTF_8); }
        @Override public InputStream openBytes(ConcretePath p) throws HostFailure { return new ByteArrayInputStream(file(p)); }
    }

    @Test void valuesInAWordCalledTypedResultsOut() {
        try (Finch finch = Finch.create()) {
            Session session = finch.newSession();
            session.submit(Submission.of("(define (total prices tax) (* (list-fold prices 0.0 (lambda (a b) (+ a b))) tax))", "defs.lisp"));
            Outcome o = session.call("total", Value.of(List.of(2.0, 6.0)), Value.of(1.25));
            assertEquals(Outcome.Status.COMPLETED, o.status());
            assertEquals(10.0, o.values().get(0).asDouble());
            record Point(long x, long y) { }
            session.submit(Submission.of(": flip ( record{x:int,y:int} -> record{x:int,y:int} ) "
                    + "dup \"x\" record-get unwrap swap dup \"y\" record-get unwrap swap drop :> y :> x { x: y y: x } ;", "defs.fth"));
            assertEquals(new Point(2, 1), session.call("flip", Value.of(new Point(1, 2))).values().get(0).as(Point.class));
            assertEquals("E-SESSION-007", session.call("nope").diagnostics().get(0).code());
        }
    }

    @Test void itsOwnFileHostServesTheProgram() {
        MapFiles files = new MapFiles();
        files.files.put("in.txt", "hello".getBytes(StandardCharsets.UTF_8));
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withFileHost(files)
                .withGrant("fs.read(${workspace}/**)").withGrant("fs.write(${workspace}/**)"));
        Outcome o = session.submit(Submission.of(
                "(file-write (path \"out.txt\") (string-to-bytes (string-append (expect-ok (bytes-to-string (file-read (path \"in.txt\")))) \"!\")))",
                "copy.lisp"));
        assertEquals(Outcome.Status.COMPLETED, o.status(), o.toString());
        assertEquals("hello!", new String(files.files.get("out.txt"), StandardCharsets.UTF_8));
    }

    /**
     * This application does not add finch-workbooks (the word library that brings Apache POI): the workbook words are
     * not in its vocabulary, so a program that uses one is refused before it runs, naming the word.
     */
    @Test void workbookWordsAreAbsentWithoutTheirLibrary() {
        MapFiles files = new MapFiles();
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withFileHost(files).withGrant("fs.read(${workspace}/**)"));
        Outcome o = session.submit(Submission.of("\"sales.xlsx\" path workbook-sheets", "sheets.fth"));
        assertEquals(Outcome.Status.FAILED, o.status(), o.toString());
        assertEquals("E-VERIFY-003", o.diagnostics().get(0).code());
        assertTrue(o.diagnostics().get(0).message().contains("workbook-sheets"), o.toString());
    }

    @Test void deferredRequestsAreServedOverJson() throws Exception {
        MapFiles remote = new MapFiles();                       // the files live with a remote host
        remote.files.put("in.txt", "remote data".getBytes(StandardCharsets.UTF_8));
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withDeferredHost(true)
                .withGrant("fs.read(${workspace}/**)").withGrant("fs.write(${workspace}/**)"));
        String outcome = FinchJson.write(session.submit(Submission.of(
                "(file-write (path \"copy.txt\") (file-read (path \"in.txt\"))) \"done\"", "job.lisp")));
        // The remote host's loop: read the pending request from the outcome JSON, perform it, answer with VmResume JSON.
        for (int turns = 0; ; turns++) {
            JsonNode o = JSON.readTree(outcome);
            if (!o.get("status").asText().equals("suspended")) {
                assertEquals("completed", o.get("status").asText(), outcome);
                assertEquals("\"done\"", o.get("stack").get(0).get("display").asText());
                break;
            }
            assertTrue(turns < 5);
            JsonNode request = o.get("pending_request");
            assertEquals("result", request.get("awaiting").asText());
            String file = request.get("arguments").get(0).get("value").asText();
            VmResume answer = switch (request.get("operation").asText()) {
                case "file-read" -> VmResume.result(o.get("execution_id").asText(), request.get("sequence").asLong(),
                        List.of(JSON.getNodeFactory().textNode(Base64.getEncoder().encodeToString(remote.files.get(file)))));
                case "file-write" -> {
                    remote.files.put(file, Base64.getDecoder().decode(request.get("arguments").get(1).get("value").asText()));
                    yield VmResume.result(o.get("execution_id").asText(), request.get("sequence").asLong(), List.of());
                }
                default -> throw new AssertionError(request);
            };
            outcome = FinchJson.write(session.respond(answer.toJson()));
        }
        assertEquals("remote data", new String(remote.files.get("copy.txt"), StandardCharsets.UTF_8));
    }

    /** A session over {@code files} suspended before writing out.txt, which it has no grant for; and its image. */
    private static String[] suspended(Finch finch, MapFiles files) {
        Session session = finch.newSession(SessionOptions.DEFAULT.withFileHost(files));
        Outcome o = session.submit(Submission.of("(file-write (path \"out.txt\") (string-to-bytes \"written\")) 1", "job.lisp"));
        assertEquals(List.of("fs.write(${workspace}/out.txt)"), o.requiredCapabilities());
        return new String[] {o.executionId(), session.save(o.executionId())};
    }

    @Test void anImageIsRestoredUnderTheRestoringHostsAuthority() {
        MapFiles before = new MapFiles();
        MapFiles after = new MapFiles();
        String[] saved = suspended(Finch.builder().imageKey(KEY).build(), before);
        Session restored = Finch.builder().imageKey(KEY).build().restore(saved[1], SessionOptions.DEFAULT.withFileHost(after));
        assertTrue(restored.grants().grants().isEmpty());
        Outcome done = restored.approve(saved[0], Scope.ONCE);
        assertEquals(Outcome.Status.COMPLETED, done.status(), done.toString());
        assertEquals("written", new String(after.files.get("out.txt"), StandardCharsets.UTF_8));
        assertTrue(before.files.isEmpty());
    }

    @Test void aTamperedImageIsRefused() {
        String[] saved = suspended(Finch.builder().imageKey(KEY).build(), new MapFiles());
        String tampered = saved[1].replace("written", "WRITTEN");
        Finch finch = Finch.builder().imageKey(KEY).build();
        assertThrows(SessionImage.ImageException.class, () -> finch.restore(tampered, SessionOptions.DEFAULT));
        assertThrows(SessionImage.ImageException.class, () -> Finch.create().restore(saved[1], SessionOptions.DEFAULT));
    }

    @Test void aStaleApprovalIsRefusedBeforeAnythingIsDispatched() {
        MapFiles files = new MapFiles();
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withFileHost(files));
        Outcome paused = session.submit(Submission.of("(file-write (path \"out.txt\") (string-to-bytes \"late\"))", "job.lisp"));
        assertEquals(Outcome.Status.COMPLETED, session.submit(Submission.of("(+ 1 2)", "next.lisp")).status());
        Outcome stale = session.approve(paused.executionId(), Scope.ONCE);
        assertEquals(Outcome.Status.REFUSED, stale.status());
        assertEquals("E-SESSION-001", stale.diagnostics().get(0).code());
        assertFalse(files.files.containsKey("out.txt"));
        assertTrue(session.cancel(paused.executionId()));
    }

    @Test void aDoubleRestoreContinuesOnce() {
        MapFiles files = new MapFiles();
        Finch finch = Finch.builder().imageKey(KEY).build();
        String[] saved = suspended(finch, files);
        Session one = finch.restore(saved[1], SessionOptions.DEFAULT.withFileHost(files));
        Session two = finch.restore(saved[1], SessionOptions.DEFAULT.withFileHost(files));
        assertEquals(Outcome.Status.COMPLETED, one.approve(saved[0], Scope.ONCE).status());
        files.files.clear();
        Outcome again = two.approve(saved[0], Scope.ONCE);
        assertEquals(Outcome.Status.FAILED, again.status());
        assertEquals("E-SESSION-008", again.diagnostics().get(0).code());
        assertTrue(files.files.isEmpty());
    }
}
