package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.host.EffectRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run pauses while concurrent steps are live (issue 15, item 4): a step's request waiting for approval, a second
 * step's request behind it, the root's yield, and a root that drains; each pause is answered and the run resumes
 * exactly, each effect once. Programs run at the top level (interpreted) and inside a word (compiled).
 */
class PauseWhileStepsRunTest {
    private static final Finch FINCH = Finch.create();

    @TempDir Path ws;

    @BeforeEach
    void files() throws java.io.IOException {
        Files.writeString(ws.resolve("a.txt"), "A");
        Files.writeString(ws.resolve("b.txt"), "B");
    }

    private Session session() { return FINCH.newSession(SessionOptions.DEFAULT.withWorkspace(ws)); }

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "t")); }

    private static String tier(String tier, String body, String sig) {
        return tier.equals("top") ? body : ": go ( -- " + sig + " ) " + body + " ; go";
    }

    private static final String READ = "[: ( -- string ! {fs.read(${workspace}/**)} ) \"%s\" path file-read bytes-to-string "
            + "if-ok else drop \"?\" then ;] step-spawn";

    @ParameterizedTest
    @ValueSource(strings = {"top", "word"})
    void twoStepsThatEachNeedAGrantPauseInTurn(String t) {
        Session s = session();
        String src = tier(t, String.format(READ, "a.txt") + " :> a " + String.format(READ, "b.txt") + " :> b "
                + "\"root \" say a step-join b step-join string-append", "string ! {fs.read(${workspace}/**)}");
        Outcome first = run(s, src);
        assertThat(first.status()).as("%s", first).isEqualTo(Outcome.Status.SUSPENDED);
        EffectRequest r1 = s.pendingRequest(first.executionId()).orElseThrow();
        assertThat(r1.sequence()).isEqualTo(1);
        assertThat(r1.requirement().toString()).isEqualTo("fs.read(${workspace}/a.txt)");
        Outcome second = s.approve(first.executionId(), Scope.ONCE);
        assertThat(second.status()).as("%s", second).isEqualTo(Outcome.Status.SUSPENDED);
        EffectRequest r2 = s.pendingRequest(first.executionId()).orElseThrow();
        assertThat(r2.sequence()).isEqualTo(2);
        assertThat(r2.requirement().toString()).isEqualTo("fs.read(${workspace}/b.txt)");
        Outcome done = s.approve(first.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.fields().stack()).extracting(v -> v.display()).containsExactly("\"AB\"");
        assertThat(done.output()).isEqualTo("root ");
    }

    @AfterAll static void noStepOutlivesItsRun() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until && dev.finch.vm.runtime.Strands.alive() > 0) Thread.sleep(20);
        assertThat(dev.finch.vm.runtime.Strands.alive()).isZero();
    }
}
