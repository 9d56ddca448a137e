package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a fresh JVM's first evaluations load (docs/performance.md, Start-up): what they do not need is made on first
 * use, so none of it is loaded by a Co-Forth submission, a Lisp one and a {@code Session.call} — the special words'
 * constants, one class per intrinsic, the persistent collections of output, the executors of the VM's workers,
 * strands and CPU tasks, the instance tag's generator, the method-handle adapters of word calls, the local process
 * host's probe. Only a fresh JVM shows it, so the test starts one on this test's class path and reads its class log.
 */
class FirstRunClassesTest {

    @Test void theFirstEvaluationsOfAFreshJvmLoadNothingTheyDoNotUse() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xlog:class+load=info:stdout", "-cp", System.getProperty("java.class.path"),
                FirstRuns.class.getName())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) p.destroyForcibly();
        assertThat(ended).as("the fresh JVM ended").isTrue();
        assertThat(out).as("what the fresh JVM printed").contains("first runs: 3 42 3");
        List<String> loaded = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.contains("=== first runs done")) break;
            int at = line.indexOf("[class,load] ");
            if (at >= 0) loaded.add(line.substring(at + "[class,load] ".length()).split(" ")[0]);
        }
        assertThat(loaded).as("classes loaded").hasSizeGreaterThan(500).contains("dev.finch.lib.LibIndexCalls")
                .noneMatch(c -> c.startsWith("dev.finch.vm.compile.Specials"))
                .noneMatch(c -> c.matches("dev\\.finch\\.vm\\.compile\\.Intrinsic\\$\\d+"))
                .noneMatch(c -> c.startsWith("io.vavr."))
                .noneMatch(c -> c.equals("java.util.concurrent.ThreadPoolExecutor"))
                .noneMatch(c -> c.equals("java.util.SplittableRandom"))
                .noneMatch(c -> c.equals("java.lang.invoke.MethodHandleImpl$ArrayAccessor")) // asSpreader's, the boxed word handle
                .noneMatch(c -> c.equals("dev.finch.host.LocalProcessHost$Probed"));
        assertThat(p.exitValue()).as("exit status").isZero();
    }

    /** The fresh JVM: a Co-Forth submission, a Lisp one and a call, then the marker that ends what the test reads. */
    public static final class FirstRuns {
        public static void main(String[] args) {
            try (Finch finch = Finch.create()) {
                Session s = finch.newSession();
                var forth = s.submit(Submission.of("1 2 +", "first.fth"));
                var lisp = s.submit(Submission.of("(+ 40 2)", "first.lisp"));
                var call = s.call("+", Value.of(1), Value.of(2));
                System.out.println("=== first runs done");
                System.out.println("first runs: " + last(forth) + " " + last(lisp) + " " + last(call));
            }
        }

        private static String last(dev.finch.Outcome o) { return o.stack().get(o.stack().size() - 1).display(); }
    }
}
