package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.WRITE_ALL;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.snapshot;
import static dev.finch.hostwords.HostFixture.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Reliability row 13's generated half: 10,000 random path strings over a hostile alphabet ({@code ..}, slashes,
 * backslashes, NUL, percent-encodings, invisible and combining characters, wildcards, a root spelling, names of
 * symlinks that point outside), each run through a real session with a random file operation. Every run either stays
 * inside the workspace or is refused with a host-phase diagnostic; the secret outside is never read and nothing
 * outside ever changes.
 */
class PathEscapeProperties {
    static final String SECRET = "TOP-SECRET-prop-77e1";
    /** Codes a hostile path may legitimately end with; anything else (an internal error above all) fails. */
    static final List<String> ALLOWED = List.of("E-CAP-005", "E-CAP-006", "E-CAP-007", "E-CAP-008", "E-CAP-009", "E-CAP-010",
            "E-CAP-011", "E-HOST-003", "E-HOST-004", "E-HOST-011");

    static Path base;
    static Path ws;
    static Path outside;
    static Session session;
    static Map<String, String> outsideBefore;
    static final AtomicInteger completed = new AtomicInteger();

    @BeforeContainer
    static void setUp() throws IOException {
        base = Files.createTempDirectory("finch-path-prop");
        ws = Files.createDirectories(base.resolve("ws"));
        outside = Files.createDirectories(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET);
        Files.createDirectories(outside.resolve("a"));
        Files.writeString(outside.resolve("a/b.txt"), SECRET);
        Files.createDirectories(ws.resolve("a"));
        Files.writeString(ws.resolve("a/b.txt"), "inside");
        Files.writeString(ws.resolve("b.txt"), "inside");
        Files.createSymbolicLink(ws.resolve("link"), outside);
        Files.createSymbolicLink(ws.resolve("flink"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("a/up"), Path.of("../../outside"));
        outsideBefore = snapshot(outside);
        session = session(ws, READ_ALL, WRITE_ALL);
        // One persisted definition per operation keeps each generated run small.
        Outcome defs = lisp(session, "(define (probe-read [t : string]) (match-result (bytes-to-string (file-read (path t))) (ok s (say s)) (err e (say \"<bin>\"))))"
                + " (define (probe-write [t : string]) (file-write (path t) (string-to-bytes \"W\")))"
                + " (define (probe-size [t : string]) (say (int-to-string (file-size (path t)))))"
                + " (define (probe-tree [t : string]) (say (show (tree-list (path t) 20))))"
                + " (define (probe-lines [t : string]) (say (show (stream-next (file-lines-open (path t))))))");
        assertThat(defs.status()).as("%s", defs).isEqualTo(Outcome.Status.COMPLETED);
    }

    @AfterContainer
    static void tearDown() throws IOException {
        assertThat(completed.get()).as("some generated paths were valid and really reached the disk").isGreaterThan(50);
        Files.walkFileTree(base, new SimpleFileVisitor<>() {
            @Override public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Provide
    Arbitrary<String> nastyPaths() {
        Arbitrary<String> token = Arbitraries.of("a", "b.txt", "a/b.txt", ".", "..", "...", "/", "//", "\\", "..\\", "~", "~root",
                "%2e%2e", "%2f", "%00", "\0", " ", "\t", "\n", "\u200b", "\u202e", "\u00a0", "é", "e\u0301", "\ud800", "*", "**", "?",
                "link", "flink", "up", "outside", "secret.txt", "${workspace}", "$HOME", ":", "C:", "(", ",", "\"", "'", "-", "x");
        return token.list().ofMinSize(0).ofMaxSize(7).map(parts -> String.join("", parts));
    }

    @Property(tries = 10_000)
    void everyOperationStaysInsideOrIsRefused(@ForAll("nastyPaths") String rel, @ForAll @IntRange(min = 0, max = 4) int op) throws IOException {
        String word = List.of("probe-read", "probe-write", "probe-size", "probe-tree", "probe-lines").get(op);
        Outcome o = lisp(session, "(" + word + " " + str(rel) + ")");
        String everything = o.output() + o.diagnostics();
        net.jqwik.api.statistics.Statistics.label("outcome")
                .collect(o.status() == Outcome.Status.COMPLETED ? "completed" : o.diagnostics().isEmpty() ? o.status().toString() : o.diagnostics().get(0).code());
        assertThat(everything).as("the secret never reaches the program: %s", rel).doesNotContain(SECRET);
        if (o.status() == Outcome.Status.COMPLETED) {
            completed.incrementAndGet();
            Path landed = insideWithoutLinks(rel);
            if (op == 1) assertThat(Files.readString(landed)).isEqualTo("W");
        } else {
            assertThat(o.status()).as("%s -> %s", rel, o).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics()).as("%s", rel).hasSize(1);
            // A refinement refusal is host-phase at run time (verify-phase should the verifier ever see the literal).
            String code = o.diagnostics().get(0).code();
            assertThat(o.diagnostics().get(0).phase().spelling()).as("%s -> %s", rel, o.diagnostics())
                    .isIn(code.startsWith("E-CAP-") ? List.of("host", "verify") : List.of("host"));
            assertThat(o.diagnostics().get(0).code()).as("%s -> %s", rel, o.diagnostics()).isIn(ALLOWED);
        }
        assertThat(snapshot(outside)).as("nothing outside changed after %s %s", word, rel).isEqualTo(outsideBefore);
    }

    /** The file or directory {@code rel} names, reached segment by segment without passing a symlink. */
    private static Path insideWithoutLinks(String rel) {
        Path at = ws;
        if (rel.equals(".")) return at;
        for (String seg : rel.split("/", -1)) {
            at = at.resolve(seg);
            assertThat(Files.isSymbolicLink(at)).as("%s passed the link %s", rel, at).isFalse();
            assertThat(Files.exists(at, LinkOption.NOFOLLOW_LINKS)).as("%s exists inside", at).isTrue();
        }
        assertThat(at.normalize().startsWith(ws)).isTrue();
        return at;
    }
}
