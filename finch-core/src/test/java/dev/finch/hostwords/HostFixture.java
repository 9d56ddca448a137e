package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Shared helpers of the host-boundary tests: one Finch, sessions over temp workspaces, programs, assertions. */
final class HostFixture {
    private HostFixture() { }

    /** One Finch for every test: immutable and thread-safe. */
    static final Finch FINCH = Finch.builder().timeout(Duration.ofSeconds(10)).imageKey(dev.finch.persist.Images.KEY).build();

    static final String READ_ALL = "fs.read(${workspace}/**)";
    static final String WRITE_ALL = "fs.write(${workspace}/**)";

    static Session session(Path workspace, String... grants) {
        SessionOptions o = SessionOptions.builder().workspace(workspace).grants(List.of(grants)).build();
        return FINCH.newSession(o);
    }

    static Session deferredSession(Path workspace, String... grants) {
        return FINCH.newSession(SessionOptions.builder().workspace(workspace).grants(List.of(grants)).build().withDeferredHost(true));
    }

    static Outcome lisp(Session s, String program) {
        return s.submit(Submission.of(program, "test").withLanguage(Language.LISP));
    }

    static Outcome lisp(Session s, String program, EffectObserver observer) {
        return s.submit(Submission.of(program, "test").withLanguage(Language.LISP).withObserver(observer));
    }

    static Outcome forth(Session s, String program) {
        return s.submit(Submission.of(program, "test").withLanguage(Language.FORTH));
    }

    /** A Lisp string literal holding exactly {@code text}: everything outside printable ASCII is a \\u{…} escape. */
    static String str(String text) {
        StringBuilder b = new StringBuilder("\"");
        text.codePoints().forEach(cp -> {
            if (cp == '"' || cp == '\\') b.append('\\').appendCodePoint(cp);
            else if (cp >= 0x20 && cp < 0x7f) b.appendCodePoint(cp);
            else b.append("\\u{").append(Integer.toHexString(cp)).append('}');
        });
        return b.append('"').toString();
    }

    /** A program that reads {@code rel} and says its text (or "bad-utf8"). */
    static String readAndSay(String rel) {
        return "(match-result (bytes-to-string (file-read (path " + str(rel) + "))) (ok s (say s)) (err e (say \"bad-utf8\")))";
    }

    static String write(String rel, String text) {
        return "(file-write (path " + str(rel) + ") (string-to-bytes " + str(text) + "))";
    }

    static Diagnostic onlyDiagnostic(Outcome o) {
        assertThat(o.diagnostics()).as("diagnostics of %s", o).hasSize(1);
        return o.diagnostics().get(0);
    }

    static void assertFailed(Outcome o, String phase, String code) {
        assertThat(o.status()).as("status of %s", o).isEqualTo(Outcome.Status.FAILED);
        Diagnostic d = onlyDiagnostic(o);
        assertThat(d.code()).as("code of %s", d).isEqualTo(code);
        assertThat(d.phase().spelling()).as("phase of %s", d).isEqualTo(phase);
    }

    /** The answer was refused with {@code code} (phase host) and the execution still waits. */
    static void assertRefused(Outcome o, String code) {
        assertThat(o.status()).as("status of %s", o).isEqualTo(Outcome.Status.REFUSED);
        Diagnostic d = onlyDiagnostic(o);
        assertThat(d.code()).as("code of %s", d).isEqualTo(code);
        assertThat(d.phase().spelling()).as("phase of %s", d).isEqualTo("host");
    }

    static void writeFile(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
    }

    /** Every entry under {@code dir} (links not followed) with its kind, size and content hash: a before/after picture. */
    static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return out;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String key = dir.relativize(p).toString();
                if (Files.isSymbolicLink(p)) out.put(key, "link->" + Files.readSymbolicLink(p));
                else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) out.put(key, "dir");
                else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) out.put(key, "file:" + java.util.Arrays.hashCode(Files.readAllBytes(p)) + ":" + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis());
                else out.put(key, "other");
            }
        }
        return out;
    }

    /** An observer that keeps every request and every settled entry. */
    static final class Recorder implements EffectObserver {
        final List<EffectRequest> requests = Collections.synchronizedList(new ArrayList<>());
        final List<EffectJournal.Entry> settled = Collections.synchronizedList(new ArrayList<>());

        @Override public void requested(EffectRequest request) { requests.add(request); }

        @Override public void settled(EffectJournal.Entry entry) { settled.add(entry); }

        List<EffectJournal.State> states() {
            List<EffectJournal.State> s = new ArrayList<>();
            synchronized (settled) { for (EffectJournal.Entry e : settled) s.add(e.state()); }
            return s;
        }
    }
}
