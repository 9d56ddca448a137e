package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The first {@code Finch} of a JVM built on an embedder's small thread: building Finch's own words loads chains of
 * classes, which must not depend on the caller's stack. Only a fresh JVM shows it (the words are built once per
 * class loader), so the test starts one on this test's class path.
 */
class SmallStackStartTest {
    /** The embedder's thread: 128 KiB, far below the JVM's default. */
    static final long SMALL_STACK_BYTES = 128 * 1024;

    @Test void theFirstFinchOfAFreshJvmIsBuiltAndAnswersOnA128KiBThread() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"), "-Xshare:auto", OnSmallThread.class.getName()))
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) p.destroyForcibly();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ended).as("the fresh JVM ended").isTrue();
        assertThat(out).as("what the fresh JVM printed").contains("built on a small thread: a Finch of")
                .contains("words; completed 3, completed 42, failed E-VERIFY-");
        assertThat(p.exitValue()).as("exit status; output:%n%s", out).isZero();
    }

    /**
     * The fresh JVM: builds the process's first Finch on a 128 KiB thread and submits its first programs there, in
     * both languages, one that fails included (each loads its chains of classes for the first time on that thread).
     */
    public static final class OnSmallThread {
        public static void main(String[] args) throws InterruptedException {
            Throwable[] failed = new Throwable[1];
            String[] said = new String[1];
            Thread t = new Thread(null, () -> {
                try (Finch finch = Finch.create()) {
                    dev.finch.Session session = finch.newSession();
                    var forth = session.submit(dev.finch.Submission.of("1 2 +", "small"));
                    var lisp = session.submit(dev.finch.Submission.of("(+ 40 2)", "small"));
                    var bad = session.submit(dev.finch.Submission.of("1 \"two\" +", "small"));
                    said[0] = "a Finch of " + finch.vocabulary().words().size() + " words; " + forth.status() + " "
                            + forth.stack().get(forth.stack().size() - 1).display() + ", " + lisp.status() + " " + lisp.stack().get(lisp.stack().size() - 1).display()
                            + ", " + bad.status() + " " + bad.diagnostics().get(0).code();
                } catch (Throwable e) {
                    failed[0] = e;
                }
            }, "embedder-small-stack", SMALL_STACK_BYTES);
            t.start();
            t.join();
            if (failed[0] != null) {
                System.out.println("failed on a small thread: " + failed[0]);
                System.exit(1);
            }
            System.out.println("built on a small thread: " + said[0]);
        }
    }
}
