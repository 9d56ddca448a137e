package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.WRITE_ALL;
import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.forth;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.snapshot;
import static dev.finch.hostwords.HostFixture.str;
import static dev.finch.hostwords.HostFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reliability row 13 and issue 6 item 5: a corpus of escape attempts through real sessions. Every attempt is either
 * refused with a structured diagnostic (phase and stable code) or, for names that are merely odd on Linux
 * (backslashes, {@code %2e%2e}, {@code ~}, NFD spellings), lands exactly where its literal name says — inside the
 * workspace. In every case the secret file outside the workspace is never read and nothing outside changes.
 */
class PathEscapeTest {
    static final String SECRET = "TOP-SECRET-5c1b0e7d";
    static final String PWNED = "PWNED-a41f";

    @TempDir Path tmp;

    /** The workspace and, beside it, a directory that must stay untouched. */
    record Layout(Path ws, Path outside) { }

    @FunctionalInterface interface Setup { void apply(Layout l) throws IOException; }

    @FunctionalInterface interface Landed { void check(Layout l) throws IOException; }

    /** One attempt: a Lisp (or Co-Forth) program; either a refusal (phase, code) or a file it must create inside. */
    record Escape(String name, String program, boolean forth, Setup setup, String phase, String code, Landed landed) {
        @Override public String toString() { return name; }
    }

    static Escape refused(String name, String program, String phase, String code) {
        return new Escape(name, program, false, l -> { }, phase, code, null);
    }

    static Escape refused(String name, Setup setup, String program, String phase, String code) {
        return new Escape(name, program, false, setup, phase, code, null);
    }

    static Escape forthRefused(String name, String program, String phase, String code) {
        return new Escape(name, program, true, l -> { }, phase, code, null);
    }

    /**
     * A write whose literal name must land at {@code expected} (segments under the workspace). Finch creates no
     * directories (a path-based mkdir could race outside), so the test makes the literal-named parents first.
     */
    static Escape lands(String name, String rel, List<String> expected) {
        return new Escape(name, write(rel, PWNED), false, l -> {
            Path dir = l.ws();
            for (String seg : expected.subList(0, expected.size() - 1)) dir = dir.resolve(seg);
            Files.createDirectories(dir);
        }, null, null, l -> {
            Path target = l.ws();
            for (String seg : expected) target = target.resolve(seg);
            assertThat(Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)).as("%s lands at %s", rel, target).isTrue();
            assertThat(Files.readString(target)).isEqualTo(PWNED);
        });
    }

    static final String CAP_PARENT = "E-CAP-005";
    static final String CAP_ABSOLUTE = "E-CAP-006";
    static final String CAP_EMPTY = "E-CAP-007";
    static final String CAP_DOT = "E-CAP-008";
    static final String CAP_CHAR = "E-CAP-009";
    static final String CAP_RESERVED = "E-CAP-010";
    static final String CAP_LONG = "E-CAP-011";
    static final String HOST_ESCAPE = "E-HOST-003";
    static final String HOST_NOT_FOUND = "E-HOST-004";
    static final String HOST_UNSUPPORTED = "E-HOST-011";
    static final String HOST = "host";
    static final String VERIFY = "verify";

    static String size(String rel) { return "(say (int-to-string (file-size (path " + str(rel) + "))))"; }

    static String slice(String rel) {
        return "(match-result (bytes-to-string (file-slice (path " + str(rel) + ") 0 100)) (ok s (say s)) (err e (say \"bad\")))";
    }

    static String lines(String rel) { return "(say (show (stream-next (file-lines-open (path " + str(rel) + ")))))"; }

    static String csv(String rel) { return "(say (show (stream-next (csv-open (path " + str(rel) + ")))))"; }

    static String summary(String rel) { return "(say (json-stringify (csv-summary (path " + str(rel) + ") 10)))"; }

    static String tree(String rel) { return "(say (show (tree-list (path " + str(rel) + ") 100)))"; }

    /** A program over a path expression. */
    @FunctionalInterface interface Op { String over(String pathExpression); }

    static String readE(String pe) {
        return "(match-result (bytes-to-string (file-read " + pe + ")) (ok s (say s)) (err e (say \"bad-utf8\")))";
    }

    static String writeE(String pe) { return "(file-write " + pe + " (string-to-bytes \"" + PWNED + "\"))"; }

    static String sizeE(String pe) { return "(say (int-to-string (file-size " + pe + ")))"; }

    static String treeE(String pe) { return "(say (show (tree-list " + pe + " 100)))"; }

    /** The literal spelling (refused at verify time) and the same text computed at run time (refused at the host). */
    static void both(List<Escape> c, String name, Op op, String rel, String code) {
        c.add(refused(name, op.over("(path " + str(rel) + ")"), VERIFY, code));
        c.add(refused(name + " (built at run time)", op.over("(path (string-append \"\" " + str(rel) + "))"), HOST, code));
    }

    static Setup linkTo(String name, String target) {
        return l -> Files.createSymbolicLink(l.ws().resolve(name), Path.of(target.replace("$OUT", l.outside().toString())));
    }

    static Stream<Escape> corpus() {
        List<Escape> c = new ArrayList<>();
        // Refinement refusals, each twice: a literal is refused by the verifier before anything runs, the same text
        // built at run time is refused by the host boundary's refinement.
        Op read = PathEscapeTest::readE;
        Op wr = PathEscapeTest::writeE;
        Op sz = PathEscapeTest::sizeE;
        Op tr = PathEscapeTest::treeE;
        // '..' in every position.
        both(c, "dotdot alone", read, "..", CAP_PARENT);
        both(c, "dotdot to sibling", read, "../outside/secret.txt", CAP_PARENT);
        both(c, "dotdot deep", read, "../../../../../../etc/passwd", CAP_PARENT);
        both(c, "dotdot after a name", read, "a/../../outside/secret.txt", CAP_PARENT);
        both(c, "dotdot trailing", read, "a/..", CAP_PARENT);
        both(c, "dotdot write", wr, "../outside/pwned.txt", CAP_PARENT);
        both(c, "dotdot size", sz, "../outside/secret.txt", CAP_PARENT);
        both(c, "dotdot tree-list", tr, "..", CAP_PARENT);
        c.add(forthRefused("dotdot in Co-Forth", "\"../outside/secret.txt\" path file-read drop", VERIFY, CAP_PARENT));
        c.add(forthRefused("dotdot in Co-Forth at run time", "\".\" \"./outside/secret.txt\" string-append path file-read drop", HOST, CAP_PARENT));
        // '.' segments, absolute paths, empty segments.
        both(c, "dot slash", read, "./a.txt", CAP_DOT);
        both(c, "dot in the middle", read, "a/./b.txt", CAP_DOT);
        both(c, "absolute", read, "/etc/passwd", CAP_ABSOLUTE);
        both(c, "absolute to the secret", read, "$ABS", CAP_ABSOLUTE);
        both(c, "root slash", tr, "/", CAP_ABSOLUTE);
        both(c, "double-slash absolute", read, "//etc/passwd", CAP_ABSOLUTE);
        c.add(forthRefused("absolute in Co-Forth", "\"/etc/passwd\" path file-size drop", VERIFY, CAP_ABSOLUTE));
        both(c, "a//b", read, "a//b", CAP_EMPTY);
        both(c, "trailing slash", read, "a.txt/", CAP_EMPTY);
        both(c, "trailing slash write", wr, "dir/", CAP_EMPTY);
        both(c, "empty path", read, "", CAP_EMPTY);
        // NUL and other invisible or control characters.
        both(c, "NUL in a name", read, "a.txt\0.png", CAP_CHAR);
        both(c, "NUL alone", wr, "\0", CAP_CHAR);
        both(c, "NUL then dotdot", read, "a\0/../../outside/secret.txt", CAP_CHAR);
        both(c, "newline", wr, "a\nb", CAP_CHAR);
        both(c, "zero-width space", read, "a\u200b.txt", CAP_CHAR);
        both(c, "right-to-left override", wr, "\u202etxt.exe", CAP_CHAR);
        both(c, "line separator", wr, "a\u2028b", CAP_CHAR);
        both(c, "lone surrogate", read, "a\ud800", CAP_CHAR);
        both(c, "trailing space", wr, "a.txt ", CAP_CHAR);
        both(c, "leading tab", wr, "\ta.txt", CAP_CHAR);
        // Wildcards and selector syntax: a runtime argument never widens a requirement.
        both(c, "star", read, "*", CAP_RESERVED);
        both(c, "globstar", tr, "**", CAP_RESERVED);
        both(c, "question mark", read, "a?.txt", CAP_RESERVED);
        both(c, "a root spelled in the name", read, "${host-machine}/etc/passwd", CAP_RESERVED);
        both(c, "parentheses", wr, "x)", CAP_RESERVED);
        // Length bounds (NAME_MAX, PATH_MAX).
        both(c, "name of 256 bytes", wr, "n".repeat(256), CAP_LONG);
        both(c, "name of 128 two-byte characters", wr, "é".repeat(128), CAP_LONG);
        both(c, "path over 4096 bytes", read, ("d".repeat(200) + "/").repeat(21) + "f", CAP_LONG);
        // Symlinks: a directory in the middle, the last component, dangling, loops; read and write.
        Setup outsideDir = linkTo("link", "$OUT");
        c.add(refused("symlinked directory in the middle (read)", outsideDir, readAndSay("link/secret.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlinked directory in the middle (write)", outsideDir, write("link/pwned.txt", PWNED), HOST, HOST_ESCAPE));
        c.add(refused("symlinked directory in the middle (new subdirectory)", outsideDir, write("link/new/pwned.txt", PWNED), HOST, HOST_ESCAPE));
        c.add(refused("symlinked directory via relative target", linkTo("rel", "../outside"), readAndSay("rel/secret.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlinked directory (tree-list)", outsideDir, tree("link"), HOST, HOST_ESCAPE));
        c.add(refused("symlinked directory deeper (tree-list)", outsideDir, tree("link/sub"), HOST, HOST_ESCAPE));
        Setup outsideFile = linkTo("s.txt", "$OUT/secret.txt");
        c.add(refused("symlink last component (read)", outsideFile, readAndSay("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (write)", outsideFile, write("s.txt", PWNED), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (size)", outsideFile, size("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (slice)", outsideFile, slice("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (lines)", outsideFile, lines("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (csv)", outsideFile, csv("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink last component (csv-summary)", outsideFile, summary("s.txt"), HOST, HOST_ESCAPE));
        c.add(refused("dangling symlink to a new outside file (write)", linkTo("d.txt", "$OUT/created.txt"),
                write("d.txt", PWNED), HOST, HOST_ESCAPE));
        c.add(refused("dangling symlink directory (write below it)", linkTo("dd", "$OUT/newdir"),
                write("dd/pwned.txt", PWNED), HOST, HOST_ESCAPE));
        c.add(refused("symlink to a file inside is refused too", l -> {
            Files.writeString(l.ws().resolve("real.txt"), "inside");
            Files.createSymbolicLink(l.ws().resolve("alias.txt"), Path.of("real.txt"));
        }, readAndSay("alias.txt"), HOST, HOST_ESCAPE));
        c.add(refused("symlink loop", l -> {
            Files.createSymbolicLink(l.ws().resolve("loop1"), Path.of("loop2"));
            Files.createSymbolicLink(l.ws().resolve("loop2"), Path.of("loop1"));
        }, readAndSay("loop1/x"), HOST, HOST_ESCAPE));
        c.add(refused("symlink to /etc/passwd", linkTo("passwd", "/etc/passwd"), readAndSay("passwd"), HOST, HOST_ESCAPE));
        c.add(refused("symlink to /", linkTo("slash", "/"), readAndSay("slash/etc/passwd"), HOST, HOST_ESCAPE));
        // Special files and wrong kinds.
        c.add(refused("the root itself as a file", readAndSay("."), HOST, HOST_UNSUPPORTED));
        c.add(refused("a directory as a file", l -> Files.createDirectories(l.ws().resolve("dir")), readAndSay("dir"), HOST, HOST_UNSUPPORTED));
        c.add(refused("a file as a directory", l -> Files.writeString(l.ws().resolve("f"), "x"),
                write("f/pwned.txt", PWNED), HOST, HOST_UNSUPPORTED));
        // Names that are only odd on Linux: literal, inside, and not aliases of other files.
        c.add(refused("percent-encoded dotdot is a literal name", readAndSay("%2e%2e/outside/secret.txt"), HOST, HOST_NOT_FOUND));
        c.add(lands("percent-encoded dotdot lands inside", "%2e%2e/%2e%2e/pwned.txt", List.of("%2e%2e", "%2e%2e", "pwned.txt")));
        c.add(refused("tilde is a literal name", readAndSay("~/secret.txt"), HOST, HOST_NOT_FOUND));
        c.add(lands("tilde lands inside", "~/pwned.txt", List.of("~", "pwned.txt")));
        c.add(refused("backslash dotdot is one literal name", readAndSay("..\\outside\\secret.txt"), HOST, HOST_NOT_FOUND));
        c.add(lands("backslash dotdot lands inside as one file", "..\\..\\pwned.txt", List.of("..\\..\\pwned.txt")));
        c.add(lands("backslash absolute lands inside", "\\etc\\pwned", List.of("\\etc\\pwned")));
        c.add(lands("three dots is a name", ".../pwned.txt", List.of("...", "pwned.txt")));
        c.add(lands("one-dot-leader pair is a name", "\u2025/pwned.txt", List.of("\u2025", "pwned.txt")));
        c.add(lands("a name of exactly 255 bytes", "n".repeat(255), List.of("n".repeat(255))));
        c.add(lands("no-break space is a distinct visible-alike name", "\u00a0a.txt", List.of("\u00a0a.txt")));
        return c.stream();
    }

    private Layout layout() throws IOException {
        Path ws = Files.createDirectories(tmp.resolve("ws"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET);
        Files.createDirectories(outside.resolve("sub"));
        Files.writeString(outside.resolve("sub/secret2.txt"), SECRET);
        Files.writeString(ws.resolve("a.txt"), "inside");
        return new Layout(ws, outside);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void everyEscapeIsRefusedOrStaysInside(Escape e) throws IOException {
        Layout l = layout();
        e.setup().apply(l);
        Map<String, String> before = snapshot(l.outside());
        Session s = session(l.ws(), READ_ALL, WRITE_ALL);
        String program = e.program().replace("$ABS", l.outside().resolve("secret.txt").toString().replace("\\", "\\\\"));
        Outcome o = e.forth() ? forth(s, program) : lisp(s, program);
        if (e.landed() == null) {
            assertFailed(o, e.phase(), e.code());
        } else {
            assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
            e.landed().check(l);
        }
        assertThat(o.output()).doesNotContain(SECRET);
        assertThat(o.diagnostics().toString()).doesNotContain(SECRET);
        assertThat(snapshot(l.outside())).as("nothing outside changes").isEqualTo(before);
    }

    @Test
    void corpusHasAtLeastFortyAttempts() {
        assertThat(corpus().count()).isGreaterThanOrEqualTo(40);
        assertThat(corpus().map(Escape::name).distinct().count()).isEqualTo(corpus().count());
    }

    @Test
    void nfcAndNfdSpellingsAreDifferentFiles() throws IOException {
        Layout l = layout();
        String nfc = Normalizer.normalize("café.txt", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize("café.txt", Normalizer.Form.NFD);
        assertThat(nfc).isNotEqualTo(nfd);
        Session s = session(l.ws(), READ_ALL, WRITE_ALL);
        assertThat(lisp(s, write(nfc, "composed")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertFailed(lisp(s, readAndSay(nfd)), HOST, HOST_NOT_FOUND);
        assertThat(lisp(s, write(nfd, "decomposed")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(Files.readString(l.ws().resolve(nfc))).isEqualTo("composed");
        assertThat(Files.readString(l.ws().resolve(nfd))).isEqualTo("decomposed");
        assertThat(lisp(s, readAndSay(nfc)).output()).isEqualTo("composed");
        assertThat(lisp(s, readAndSay(nfd)).output()).isEqualTo("decomposed");
    }

    @Test
    void aDirectoryReplacedByASymlinkBetweenTwoRunsIsRefused() throws IOException {
        Layout l = layout();
        Session s = session(l.ws(), READ_ALL, WRITE_ALL);
        Files.createDirectory(l.ws().resolve("d"));
        assertThat(lisp(s, write("d/secret.txt", "first run")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(lisp(s, readAndSay("d/secret.txt")).output()).isEqualTo("first run");
        // Between the runs the directory becomes a link to the outside, which holds a file of the same name.
        Files.delete(l.ws().resolve("d/secret.txt"));
        Files.delete(l.ws().resolve("d"));
        Files.createSymbolicLink(l.ws().resolve("d"), l.outside());
        Map<String, String> before = snapshot(l.outside());
        Outcome read = lisp(s, readAndSay("d/secret.txt"));
        assertFailed(read, HOST, HOST_ESCAPE);
        assertThat(read.output()).doesNotContain(SECRET);
        assertFailed(lisp(s, write("d/secret.txt", PWNED)), HOST, HOST_ESCAPE);
        assertFailed(lisp(s, size("d/secret.txt")), HOST, HOST_ESCAPE);
        assertThat(snapshot(l.outside())).isEqualTo(before);
        assertThat(Files.readString(l.outside().resolve("secret.txt"))).isEqualTo(SECRET);
    }

    @Test
    void treeListNeverShowsOrFollowsSymlinks() throws IOException {
        Layout l = layout();
        Files.createSymbolicLink(l.ws().resolve("link"), l.outside());
        Files.createSymbolicLink(l.ws().resolve("s.txt"), l.outside().resolve("secret.txt"));
        Outcome o = lisp(session(l.ws(), READ_ALL), tree("."));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).contains("a.txt").doesNotContain("link").doesNotContain("s.txt").doesNotContain("secret");
    }

    /** mkfifo / mknod through the system tools (no shell); false when the tool is missing or not permitted. */
    private static boolean make(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard
    void aFifoIsRefusedWithoutBlocking() throws IOException {
        Layout l = layout();
        Path fifo = l.ws().resolve("pipe");
        Assumptions.assumeTrue(make("mkfifo", fifo.toString()), "mkfifo is available");
        Session s = session(l.ws(), READ_ALL, WRITE_ALL);
        assertFailed(lisp(s, readAndSay("pipe")), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, write("pipe", PWNED)), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, lines("pipe")), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, csv("pipe")), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, size("pipe")), HOST, HOST_UNSUPPORTED);
        Outcome listed = lisp(s, tree("."));
        assertThat(listed.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(listed.output()).doesNotContain("pipe");
    }

    @Test @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard
    void aDeviceIsRefusedWithoutBlocking() throws IOException {
        Layout l = layout();
        Path dev = l.ws().resolve("zero");
        // A character device like /dev/zero (1,5): reading it would never end. Needs root; skipped otherwise.
        Assumptions.assumeTrue(make("mknod", dev.toString(), "c", "1", "5"), "mknod is permitted");
        Session s = session(l.ws(), READ_ALL, WRITE_ALL);
        assertFailed(lisp(s, readAndSay("zero")), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, slice("zero")), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, write("zero", PWNED)), HOST, HOST_UNSUPPORTED);
        assertFailed(lisp(s, lines("zero")), HOST, HOST_UNSUPPORTED);
        assertThat(Files.isRegularFile(dev, LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard
    void aSymlinkToADeviceOutsideIsRefused() throws IOException {
        Layout l = layout();
        Files.createSymbolicLink(l.ws().resolve("z"), Path.of("/dev/zero"));
        Session s = session(l.ws(), READ_ALL);
        assertFailed(lisp(s, readAndSay("z")), HOST, HOST_ESCAPE);
    }

    @Test
    void escapesAreRefusedBeforeAnyRequestReachesTheBoundary() throws IOException {
        // A refused refinement is pure: no capability request is even made, so nothing is there to approve.
        Layout l = layout();
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(session(l.ws()), readE("(path (string-append \"..\" \"/outside/secret.txt\"))"), rec);
        assertFailed(o, HOST, CAP_PARENT);
        assertThat(o.requiredCapabilities()).isEmpty();
        assertThat(rec.requests).isEmpty();
    }

    @Test
    void bytesOfTheSecretNeverReachTheProgramThroughAnOddName() throws IOException {
        Layout l = layout();
        // A file inside named like the outside path must be the one read.
        Path odd = l.ws().resolve("..\\outside\\secret.txt");
        Files.writeString(odd, "the inside one", StandardCharsets.UTF_8);
        Outcome o = lisp(session(l.ws(), READ_ALL), readAndSay("..\\outside\\secret.txt"));
        assertThat(o.output()).isEqualTo("the inside one");
    }
}
