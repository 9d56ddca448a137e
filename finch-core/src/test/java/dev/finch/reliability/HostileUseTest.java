package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.norman.SourceLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A µNorman submission cannot read the host's files by naming them in a use: no grant or approval would see it. */
class HostileUseTest {
    @TempDir Path dir;

    @Test void aSessionReadsNoFileThroughUse() throws Exception {
        Path secret = dir.resolve("secret.nm");
        Files.writeString(secret, "(define token \"TOP-SECRET-use-77\")");
        Session s = Finch.create().newSession();
        Outcome o = s.submit(Submission.of("(use \"" + secret + "\")\ntoken", "agent.nm"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().toString()).doesNotContain("TOP-SECRET-use-77");
        Outcome passwd = s.submit(Submission.of("(use \"/etc/passwd\")\n1", "agent.nm"));
        assertThat(passwd.diagnostics()).hasSize(1);
        assertThat(passwd.diagnostics().get(0).message()).doesNotContain("root:");
        assertThat(s.submit(Submission.of("(+ 1 2)", "x.nm")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test void anEmbedderInstallsItsOwnLibraries() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("util.nm"), "(define twice (x) (* 2 x))");
        Files.writeString(dir.resolve("outside.nm"), "(define leaked 1)");
        Files.createSymbolicLink(lib.resolve("link.nm"), dir.resolve("outside.nm"));
        Session s = Finch.builder().normanSources(SourceLoader.under(lib)).build().newSession();
        assertThat(s.submit(Submission.of("(use \"" + lib.resolve("util.nm") + "\")\n(twice 4)", "agent.nm")).status())
                .isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.submit(Submission.of("(use \"" + dir.resolve("outside.nm") + "\")\nleaked", "agent.nm")).status())
                .isEqualTo(Outcome.Status.FAILED);
        assertThat(s.submit(Submission.of("(use \"" + lib.resolve("link.nm") + "\")\nleaked", "agent.nm")).status())
                .isEqualTo(Outcome.Status.FAILED);
        Session mem = Finch.builder().normanSources(SourceLoader.inMemory(Map.of("lib/u.nm", "(define one () 1)"))).build().newSession();
        assertThat(mem.submit(Submission.of("(use \"lib/u.nm\")\n(one)", "agent.nm")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }
}
