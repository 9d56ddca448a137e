package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.host.LocalFileHost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, deliverable 6, and reliability rows 7 and 13: a hard link inside the workspace to a file outside it is
 * refused by every file word ({@code E-HOST-019}) and left out of listings unless the host opts in; a CSV's UTF-8 byte
 * order mark is not part of its first header. Each case: the code, a time bound, the session still working after.
 */
class HostileFilesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Finch FINCH = Finch.builder().timeout(dev.finch.HangGuard.LIMIT).build();
    static final String READ = "fs.read(${workspace}/**)";
    static final String WRITE = "fs.write(${workspace}/**)";

    @TempDir Path ws;
    @TempDir Path outside;

    static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "t").withLanguage(Language.LISP)); }

    static Session session(Finch finch, Path ws) {
        return finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of(READ, WRITE)).build());
    }

    static void stillWorks(Session s) {
        Outcome o = s.submit(Submission.of("1 2 +", "after"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.stack().get(s.stack().size() - 1).display()).isEqualTo("3");
    }

    static void assertCode(Outcome o, String code) {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).extracting(d -> d.code()).as("%s", o).containsExactly(code);
    }

    /** A file outside the workspace, and a second name for it inside. */
    private Path linkedSecret() throws Exception {
        Path secret = outside.resolve("secret.csv");
        Files.writeString(secret, "token,value\nAPI_KEY,s3cr3t\n");
        Files.createLink(ws.resolve("linked.csv"), secret);
        Files.writeString(ws.resolve("plain.txt"), "fine");
        return secret;
    }

    @Test
    void everyFileWordRefusesAHardLinkToAFileOutside() throws Exception {
        Path secret = linkedSecret();
        Session s = session(FINCH, ws);
        String p = "(path \"linked.csv\")";
        List<String> programs = List.of(
                "(file-read " + p + ")",
                "(file-size " + p + ")",
                "(file-slice " + p + " 0 5)",
                "(file-lines-open " + p + ")",
                "(csv-open " + p + ")",
                "(csv-summary " + p + " 10)",
                "(file-write " + p + " (string-to-bytes \"overwritten\"))");
        for (String program : programs) {
            Outcome o = lisp(s, program);
            assertCode(o, "E-HOST-019");
            assertThat(o.diagnostics().get(0).message()).contains("hard links");
            assertThat(o.output()).doesNotContain("s3cr3t");
        }
        assertThat(Files.readString(secret)).as("the outside file is untouched").isEqualTo("token,value\nAPI_KEY,s3cr3t\n");
        // A listing leaves it out (as it leaves out symlinks); the ordinary file is still there and readable.
        JsonNode listing = JSON.readTree(lisp(s, "(say (show (tree-list (path \".\") 100)))").output());
        assertThat(listing.toString()).doesNotContain("linked.csv").contains("plain.txt");
        assertThat(lisp(s, "(say (result-unwrap (bytes-to-string (file-read (path \"plain.txt\")))))").output()).isEqualTo("fine");
        stillWorks(s);
    }

    @Test
    void twoNamesInsideTheWorkspaceAreRefusedToo() throws Exception {
        // The host cannot tell where a file's other names are, so any second name counts.
        Files.writeString(ws.resolve("a.txt"), "same");
        Files.createLink(ws.resolve("b.txt"), ws.resolve("a.txt"));
        Session s = session(FINCH, ws);
        assertCode(lisp(s, "(file-read (path \"a.txt\"))"), "E-HOST-019");
        assertCode(lisp(s, "(file-read (path \"b.txt\"))"), "E-HOST-019");
        stillWorks(s);
    }

    @Test
    void aHostThatOptsInServesHardLinkedFiles() throws Exception {
        linkedSecret();
        Finch trusting = Finch.builder().timeout(dev.finch.HangGuard.LIMIT)
                .fileHosts(options -> new LocalFileHost(options.roots()).allowingHardLinks()).build();
        Session s = session(trusting, ws);
        Outcome o = lisp(s, "(say (result-unwrap (bytes-to-string (file-read (path \"linked.csv\")))))");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).contains("API_KEY");
        assertThat(lisp(s, "(say (show (tree-list (path \".\") 100)))").output()).contains("linked.csv");
        assertThat(new LocalFileHost(java.util.Map.of()).allowsHardLinks()).isFalse();
        stillWorks(s);
    }

    @Test
    void aCsvByteOrderMarkIsNotPartOfTheFirstHeader() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = "name,qty\nada,3\n".getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, file, 0, bom.length);
        System.arraycopy(body, 0, file, bom.length, body.length);
        Files.write(ws.resolve("bom.csv"), file);
        Session s = session(FINCH, ws);
        JsonNode summary = JSON.readTree(lisp(s, "(say (show (csv-summary (path \"bom.csv\") 10)))").output());
        assertThat(summary.get("header").get(0).asText()).isEqualTo("name");
        assertThat(summary.get("columns").get(0).get("name").asText()).isEqualTo("name");
        Outcome first = lisp(s, "(say (unwrap (list-get (unwrap (stream-next (csv-open (path \"bom.csv\")))) 0)))");
        assertThat(first.output()).isEqualTo("name");
        // Only a leading mark is dropped: one inside a field is data.
        Files.writeString(ws.resolve("inner.csv"), "a,\uFEFFb\n");
        assertThat(lisp(s, "(say (unwrap (list-get (unwrap (stream-next (csv-open (path \"inner.csv\")))) 1)))").output()).isEqualTo("\uFEFFb");
        // A file that is only a mark has no records.
        Files.write(ws.resolve("only.csv"), bom);
        assertThat(lisp(s, "(say (show (is-some (stream-next (csv-open (path \"only.csv\"))))))").output()).isEqualTo("false");
        stillWorks(s);
    }
}
