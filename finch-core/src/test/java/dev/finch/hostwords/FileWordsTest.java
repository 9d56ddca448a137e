package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.WRITE_ALL;
import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.forth;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.str;
import static dev.finch.hostwords.HostFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 6 item 5: the file words' contracts (bounds, order, streams, CSV) through real sessions. */
class FileWordsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path ws;

    Session rw() { return session(ws, READ_ALL, WRITE_ALL); }

    static String show(String expr) { return "(say (show " + expr + "))"; }

    static String p(String rel) { return "(path " + str(rel) + ")"; }

    static String text(String bytesExpr) {
        return "(match-result (bytes-to-string " + bytesExpr + ") (ok s (say s)) (err e (say \"<bad utf-8>\")))";
    }

    static JsonNode json(Outcome o) throws IOException {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return JSON.readTree(o.output());
    }

    // ---- file-read / file-write / file-size ----

    @Test
    void writeThenReadRoundTripsAndNeedsExistingParents() throws IOException {
        Session s = rw();
        // Finch creates no directories (a path-based mkdir could race outside the root): the parent must exist.
        assertThat(lisp(s, write("deep/er/n.txt", "x")).diagnostics().get(0).code()).isEqualTo("E-HOST-004");
        Files.createDirectories(ws.resolve("deep/er"));
        assertThat(lisp(s, write("deep/er/n.txt", "héllo\n") + readAndSay("deep/er/n.txt")).output()).isEqualTo("héllo\n");
        assertThat(Files.readString(ws.resolve("deep/er/n.txt"))).isEqualTo("héllo\n");
        // Replacing truncates: no tail of the longer old content survives.
        lisp(s, write("deep/er/n.txt", "ab"));
        assertThat(Files.readString(ws.resolve("deep/er/n.txt"))).isEqualTo("ab");
        assertThat(lisp(s, "(say (int-to-string (file-size " + p("deep/er/n.txt") + ")))").output()).isEqualTo("2");
        assertThat(forth(s, "\"deep/er/n.txt\" path file-size").stack()).extracting(e -> e.display()).containsExactly("2");
    }

    @Test
    void emptyAndBinaryFilesRoundTrip() throws IOException {
        Files.write(ws.resolve("bin"), new byte[] {0, (byte) 0xff, 10, 13});
        Files.write(ws.resolve("empty"), new byte[0]);
        Session s = rw();
        assertThat(lisp(s, "(say (int-to-string (file-size " + p("bin") + ")))").output()).isEqualTo("4");
        assertThat(lisp(s, text("(file-read " + p("bin") + ")")).output()).isEqualTo("<bad utf-8>");
        assertThat(lisp(s, "(file-write " + p("copy") + " (file-read " + p("bin") + "))").status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(Files.readAllBytes(ws.resolve("copy"))).containsExactly(0, 0xff, 10, 13);
        assertThat(lisp(s, text("(file-read " + p("empty") + ")")).output()).isEmpty();
    }

    @Test
    void missingFilesAreStructuredErrors() {
        Session s = rw();
        assertFailed(lisp(s, readAndSay("nope.txt")), "host", "E-HOST-004");
        assertFailed(lisp(s, "(file-size " + p("nope/deeper.txt") + ")"), "host", "E-HOST-004");
        assertFailed(lisp(s, show("(tree-list " + p("nope") + " 10)")), "host", "E-HOST-004");
    }

    @Test
    void fileReadIsBoundedAtEightMebibytes() throws IOException {
        Files.write(ws.resolve("big"), new byte[(8 << 20) + 1]);
        Files.write(ws.resolve("limit"), new byte[8 << 20]);
        Session s = rw();
        Outcome o = lisp(s, "(file-read " + p("big") + ")");
        assertFailed(o, "host", "E-HOST-006");
        assertThat(lisp(s, "(say (int-to-string (file-size " + p("big") + ")))").output()).isEqualTo(Integer.toString((8 << 20) + 1));
        assertThat(lisp(s, "(file-size " + p("limit") + ")").status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    // ---- file-slice ----

    @Test
    void sliceReadsAWindowShorterAtTheEnd() throws IOException {
        Files.writeString(ws.resolve("abc.txt"), "abcdefghij");
        Session s = rw();
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 2 3)")).output()).isEqualTo("cde");
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 7 100)")).output()).isEqualTo("hij");
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 10 5)")).output()).isEmpty();
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 1000 5)")).output()).isEmpty();
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 0 0)")).output()).isEmpty();
        assertThat(lisp(s, text("(file-slice " + p("abc.txt") + " 0 " + (8 << 20) + ")")).output()).isEqualTo("abcdefghij");
    }

    @Test
    void sliceRefusesNegativeAndOversizedArgumentsBeforeAnyRequest() throws IOException {
        Files.writeString(ws.resolve("abc.txt"), "abcdefghij");
        Session s = rw();
        HostFixture.Recorder rec = new HostFixture.Recorder();
        assertFailed(lisp(s, "(file-slice " + p("abc.txt") + " -1 3)", rec), "host", "E-HOST-007");
        assertFailed(lisp(s, "(file-slice " + p("abc.txt") + " 0 -3)", rec), "host", "E-HOST-007");
        assertFailed(lisp(s, "(file-slice " + p("abc.txt") + " 0 " + ((8 << 20) + 1) + ")", rec), "host", "E-HOST-006");
        assertThat(rec.requests).isEmpty();
    }

    @Test
    void aSliceOfABigFileKeepsOnlyTheWindow() throws IOException {
        byte[] big = new byte[(9 << 20)];
        big[(9 << 20) - 1] = 'Z';
        big[(9 << 20) - 2] = 'Y';
        Files.write(ws.resolve("big"), big);
        assertThat(lisp(rw(), text("(file-slice " + p("big") + " " + ((9 << 20) - 2) + " 10)")).output()).isEqualTo("YZ");
    }

    // ---- tree-list ----

    private void tree() throws IOException {
        for (String f : new String[] {"b.txt", "a/z.txt", "a/y/deep.txt", "A.txt", "c/e.txt"}) {
            Files.createDirectories(ws.resolve(f).getParent());
            Files.writeString(ws.resolve(f), f);
        }
    }

    @Test
    void treeListIsDepthFirstSortedAndDeterministic() throws IOException {
        tree();
        Session s = rw();
        JsonNode t = json(lisp(s, show("(tree-list " + p(".") + " 100)")));
        StringBuilder got = new StringBuilder();
        for (JsonNode e : t.get("entries")) got.append(e.get("path").asText()).append(':').append(e.get("kind").asText()).append(':').append(e.get("size").asLong()).append(' ');
        assertThat(got.toString().strip()).isEqualTo("A.txt:file:5 a:dir:0 a/y:dir:0 a/y/deep.txt:file:12 a/z.txt:file:7 b.txt:file:5 c:dir:0 c/e.txt:file:7");
        assertThat(t.get("truncated").asBoolean()).isFalse();
        // The same listing every time.
        for (int i = 0; i < 5; i++) assertThat(json(lisp(s, show("(tree-list " + p(".") + " 100)")))).isEqualTo(t);
        JsonNode sub = json(lisp(s, show("(tree-list " + p("a") + " 100)")));
        assertThat(sub.get("entries").get(0).get("path").asText()).isEqualTo("a/y");
    }

    @Test
    void treeListStopsAtMaxEntriesAndSaysSo() throws IOException {
        tree();
        Session s = rw();
        JsonNode t = json(lisp(s, show("(tree-list " + p(".") + " 3)")));
        assertThat(t.get("entries")).hasSize(3);
        assertThat(t.get("entries").get(2).get("path").asText()).isEqualTo("a/y");
        assertThat(t.get("truncated").asBoolean()).isTrue();
        JsonNode exact = json(lisp(s, show("(tree-list " + p(".") + " 8)")));
        assertThat(exact.get("entries")).hasSize(8);
        assertThat(exact.get("truncated").asBoolean()).isFalse();
        JsonNode none = json(lisp(s, show("(tree-list " + p(".") + " 0)")));
        assertThat(none.get("entries")).isEmpty();
        assertThat(none.get("truncated").asBoolean()).isTrue();
    }

    @Test
    void treeListRefusesBadBoundsAndNonDirectories() throws IOException {
        tree();
        Session s = rw();
        assertFailed(lisp(s, show("(tree-list " + p(".") + " -1)")), "host", "E-HOST-007");
        assertFailed(lisp(s, show("(tree-list " + p(".") + " 100001)")), "host", "E-HOST-007");
        assertThat(lisp(s, show("(tree-list " + p(".") + " 100000)")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertFailed(lisp(s, show("(tree-list " + p("b.txt") + " 10)")), "host", "E-HOST-011");
    }

    @Test
    void treeListLeavesSymlinksOutAndNeedsAReadGrantOverTheWholeSubtree() throws IOException {
        tree();
        Files.createSymbolicLink(ws.resolve("a/link"), ws.resolve("c"));
        Files.createSymbolicLink(ws.resolve("dangling"), ws.resolve("nowhere"));
        JsonNode t = json(lisp(rw(), show("(tree-list " + p(".") + " 100)")));
        assertThat(t.toString()).doesNotContain("link").doesNotContain("dangling");
        Outcome o = lisp(session(ws, "fs.read(${workspace}/a/z.txt)"), show("(tree-list " + p("a") + " 100)"));
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a/**)");
        Outcome root = lisp(session(ws, "fs.read(${workspace}/a/**)"), show("(tree-list " + p(".") + " 100)"));
        assertThat(root.requiredCapabilities()).containsExactly("fs.read(${workspace}/**)");
    }

    @Test
    void treeListReturnedPathsGrantNothing() throws IOException {
        tree();
        // A listed path string must be refined again and authorized again: a grant over a/ does not reach c/.
        Session s = session(ws, "fs.read(${workspace}/a/**)");
        Outcome o = lisp(s, "(say (show (tree-list " + p("a") + " 10))) (file-read (path \"c/e.txt\"))");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/c/e.txt)");
    }

    // ---- line streams ----

    @Test
    void linesStreamThenEnd() throws IOException {
        Files.writeString(ws.resolve("l.txt"), "one\r\ntwo\n\nlast");
        Outcome o = lisp(rw(), "(let ((s (file-lines-open " + p("l.txt") + "))) "
                + "(say (show (stream-next s))) (say (show (stream-next s))) (say (show (stream-next s))) "
                + "(say (show (file-lines-next s))) (say (show (stream-next s))) (say (show (stream-next s))) (stream-close s))");
        assertThat(o.output()).isEqualTo("{\"tag\":\"some\",\"value\":\"one\"}{\"tag\":\"some\",\"value\":\"two\"}{\"tag\":\"some\",\"value\":\"\"}"
                + "{\"tag\":\"some\",\"value\":\"last\"}{\"tag\":\"none\"}{\"tag\":\"none\"}");
    }

    @Test
    void aLineOverOneMebibyteIsRefused() throws IOException {
        Files.writeString(ws.resolve("ok.txt"), "x".repeat(1 << 20) + "\nnext");
        Files.writeString(ws.resolve("long.txt"), "x".repeat((1 << 20) + 1) + "\nnext");
        Session s = rw();
        Outcome ok = lisp(s, "(let ((s (file-lines-open " + p("ok.txt") + "))) (say (int-to-string (string-length (unwrap (stream-next s))))) (say (unwrap (stream-next s))))");
        assertThat(ok.output()).isEqualTo((1 << 20) + "next");
        Outcome o = lisp(s, "(let ((s (file-lines-open " + p("long.txt") + "))) (say \"opened\") (stream-next s))");
        assertFailed(o, "host", "E-HOST-006");
        assertThat(o.output()).isEqualTo("opened");
    }

    @Test
    void invalidUtf8InALineFileIsAStructuredError() throws IOException {
        Files.write(ws.resolve("bad.txt"), new byte[] {'o', 'k', '\n', (byte) 0xc3, (byte) 0x28, '\n'});
        assertFailed(lisp(rw(), "(let ((s (file-lines-open " + p("bad.txt") + "))) (stream-next s) (stream-next s))"), "host", "E-HOST-005");
    }

    @Test
    void invalidUtf8InALineIsAStructuredErrorAtThatLine() throws IOException {
        Files.write(ws.resolve("bad.txt"), new byte[] {'o', 'k', '\n', (byte) 0xc3, (byte) 0x28, '\n'});
        Outcome o = lisp(rw(), "(let ((s (file-lines-open " + p("bad.txt") + "))) (say (unwrap (stream-next s))) (stream-next s))");
        assertFailed(o, "host", "E-HOST-005");
        assertThat(o.output()).isEqualTo("ok");
    }

    @Test
    void aClosedStreamIsRefused() throws IOException {
        Files.writeString(ws.resolve("l.txt"), "one\ntwo\n");
        Session s = rw();
        assertFailed(lisp(s, "(let ((s (file-lines-open " + p("l.txt") + "))) (stream-close s) (stream-next s))"), "host", "E-HOST-008");
        assertFailed(lisp(s, "(let ((s (file-lines-open " + p("l.txt") + "))) (stream-close s) (stream-close s))"), "host", "E-HOST-008");
        assertFailed(lisp(s, "(let ((s (file-lines-open " + p("l.txt") + "))) (file-lines-close s) (file-lines-next s))"), "host", "E-HOST-008");
    }

    @Test
    void aStreamFromAnotherRunIsRefused() throws IOException {
        Files.writeString(ws.resolve("l.txt"), "one\ntwo\n");
        Session s = rw();
        // The handle survives on the persistent stack, but only the run that opened it may read it.
        Outcome opened = lisp(s, "(file-lines-open " + p("l.txt") + ")");
        assertThat(opened.stack()).extracting(e -> e.type()).containsExactly("stream<string>");
        assertFailed(forth(s, "stream-next"), "host", "E-HOST-008");
        assertFailed(forth(s, "stream-close"), "host", "E-HOST-008");
        // Another session holding the same-looking stack is no better.
        Session t = rw();
        lisp(t, "(file-lines-open " + p("l.txt") + ")");
        assertFailed(forth(t, "stream-next"), "host", "E-HOST-008");
    }

    @Test
    void aStreamSurvivesASuspensionOfItsOwnRun() throws IOException {
        Files.writeString(ws.resolve("l.txt"), "one\ntwo\n");
        Files.writeString(ws.resolve("other.txt"), "O");
        Session s = session(ws, "fs.read(${workspace}/l.txt)");
        Outcome o = lisp(s, "(let ((s (file-lines-open " + p("l.txt") + "))) (say (unwrap (stream-next s))) "
                + readAndSay("other.txt") + " (say (unwrap (stream-next s))) (stream-close s))");
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.output()).isEqualTo("one");
        assertThat(s.approve(o.executionId(), Scope.ONCE).output()).isEqualTo("oneOtwo");
    }

    // ---- CSV ----

    @Test
    void csvParsesQuotedCommaAndMultilineFields() throws IOException {
        Files.writeString(ws.resolve("d.csv"), "name,note\n\"Smith, Ann\",\"says \"\"hi\"\"\"\n\"multi\nline\",x\r\nlast,\n");
        Outcome o = lisp(rw(), "(let ((s (csv-open " + p("d.csv") + "))) " + show("(stream-next s)").repeat(5) + " (stream-close s))");
        assertThat(o.output()).isEqualTo(
                "{\"tag\":\"some\",\"value\":[\"name\",\"note\"]}"
                        + "{\"tag\":\"some\",\"value\":[\"Smith, Ann\",\"says \\\"hi\\\"\"]}"
                        + "{\"tag\":\"some\",\"value\":[\"multi\\nline\",\"x\"]}"
                        + "{\"tag\":\"some\",\"value\":[\"last\",\"\"]}"
                        + "{\"tag\":\"none\"}");
    }

    @Test
    void junkAfterAClosingQuoteIsAStructuredCsvErrorWithItsPosition() throws IOException {
        Files.writeString(ws.resolve("bad.csv"), "a,b\nc,d\n\"x\"junk,e\n");
        Outcome o = lisp(rw(), "(let ((s (csv-open " + p("bad.csv") + "))) " + show("(stream-next s)").repeat(3) + ")");
        assertFailed(o, "host", "E-HOST-009");
        assertThat(o.output()).as("records before the error were delivered").contains("[\"a\",\"b\"]").contains("[\"c\",\"d\"]");
        assertThat(o.diagnostics().get(0).message()).containsIgnoringCase("line").contains("3");
        assertFailed(lisp(rw(), "(csv-summary " + p("bad.csv") + " 10)"), "host", "E-HOST-009");
    }

    @Test
    void anUnterminatedQuoteIsAStructuredCsvErrorWithItsPosition() throws IOException {
        Files.writeString(ws.resolve("open.csv"), "a,b\n\"x,1\nmore,stuff\n");
        Outcome o = lisp(rw(), "(let ((s (csv-open " + p("open.csv") + "))) " + show("(stream-next s)").repeat(3) + ")");
        assertFailed(o, "host", "E-HOST-009");
        assertThat(o.diagnostics().get(0).message()).containsIgnoringCase("line");
        assertFailed(lisp(rw(), "(csv-summary " + p("open.csv") + " 10)"), "host", "E-HOST-009");
    }

    @Test
    void csvSummaryReportsColumnsAndIsBounded() throws IOException {
        Files.writeString(ws.resolve("n.csv"), "id,score,label\n1,2.5,a\n2,,b\n3,7.5,\n4,x,d\n");
        Session s = rw();
        JsonNode all = JSON.readTree(lisp(s, "(say (json-stringify (csv-summary " + p("n.csv") + " 100)))").output());
        assertThat(all.get("header").toString()).isEqualTo("[\"id\",\"score\",\"label\"]");
        assertThat(all.get("rows").asInt()).isEqualTo(4);
        assertThat(all.get("truncated").asBoolean()).isFalse();
        JsonNode score = all.get("columns").get(1);
        assertThat(score.get("empty").asInt()).isEqualTo(1);
        assertThat(score.get("non_empty").asInt()).isEqualTo(3);
        assertThat(score.get("numeric").asInt()).isEqualTo(2);
        assertThat(score.get("min").asDouble()).isEqualTo(2.5);
        assertThat(score.get("max").asDouble()).isEqualTo(7.5);
        assertThat(score.get("mean").asDouble()).isEqualTo(5.0);
        assertThat(all.get("columns").get(2).has("min")).isFalse();
        JsonNode two = JSON.readTree(lisp(s, "(say (json-stringify (csv-summary " + p("n.csv") + " 2)))").output());
        assertThat(two.get("rows").asInt()).isEqualTo(2);
        assertThat(two.get("truncated").asBoolean()).isTrue();
        assertFailed(lisp(s, "(csv-summary " + p("n.csv") + " -1)"), "host", "E-HOST-007");
        assertFailed(lisp(s, "(csv-summary " + p("n.csv") + " 100001)"), "host", "E-HOST-007");
    }

    @Test
    void aCsvStreamIsAlsoRunOwned() throws IOException {
        Files.writeString(ws.resolve("d.csv"), "a,b\n");
        Session s = rw();
        lisp(s, "(csv-open " + p("d.csv") + ")");
        assertFailed(forth(s, "stream-next"), "host", "E-HOST-008");
    }

    @Test
    void writtenBytesAreExactlyTheProgramsBytes() throws IOException {
        Session s = rw();
        String tricky = "line1\r\nß\u0000end";
        assertThat(lisp(s, write("t.bin", tricky)).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(Files.readAllBytes(ws.resolve("t.bin"))).isEqualTo(tricky.getBytes(StandardCharsets.UTF_8));
    }
}
