package dev.finch.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Submission;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.providers.FileSystemTool;
import dev.finch.norman.providers.Tools;
import dev.finch.persist.ImageLaw;
import dev.finch.persist.Images;
import dev.finch.vm.value.Money;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The image law ({@link ImageLaw}) over µNorman files that pause at a pending ask or tool call, for approval: alone,
 * after a {@code val} and a {@code define}, in sequence, inside a workflow's and a par's steps, inside a budget, with
 * a caught failure after the pause, and in a later turn that calls what the file defined. Continuing through an image
 * at any pause asks the model (counted) and calls the tool exactly as continuing in place does, and ends the same.
 */
class NormanImageLawTest {
    private static final HostModel GPT = HostModel.perToken(Money.ofMicros(1), Money.ofMicros(2), 50);

    /** How many times each world's model was asked, by the world's workspace. */
    private static final Map<Path, java.util.concurrent.atomic.AtomicInteger> ASKED = new java.util.concurrent.ConcurrentHashMap<>();

    /** A world's model: answers every ask the same, deterministically (4), and counts them. */
    private static ModelProvider model(Path workspace) {
        java.util.concurrent.atomic.AtomicInteger asked = ASKED.computeIfAbsent(workspace, w -> new java.util.concurrent.atomic.AtomicInteger());
        return request -> {
            asked.incrementAndGet();
            return new ModelProvider.Reply("{\"value\":4}", 3, "end_turn", 5);
        };
    }


    private static final Map<String, String> FILES = Map.of(
            "ask", "(sum)",
            "val then ask", "(val base 10)\n(define twice (n) (* 2 n))\n(+ base (twice (sum)))",
            "ask then call", "(+ (sum) (text-length (note)))",
            "workflow", "(workflow ([n (sum)] [t (note)]) (+ n (text-length t)))",
            "par", "(let* ([p (par (note) (sum))]) (+ (text-length (. p fst)) (. p snd)))",
            "budget", "(budget ([cost $0.01]) (workflow ([n (sum)] [t (note)]) (+ n (text-length t))))",
            "caught after the pause", "(begin (note) (catch (+ (sum) (fail 'nope)) e -1))",
            "best-of", "(best-of 3 sum (lambda (n) (> n 3)))");

    private static Finch finch(Path workspace) {
        ModelWorld world = ModelWorld.over(model(workspace)).model("gpt", GPT).budget(Money.ofMicros(1_000)).timeLimit(Duration.ofMinutes(1)).build();
        Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(workspace)));
        return Finch.builder().models(world).tools(() -> tools).imageKey(Images.KEY).build();
    }

    @TestFactory
    Stream<DynamicTest> everyPendingAskAndCallCrossesAnImage() {
        return FILES.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> dynamicTest(e.getKey(), () -> {
            Submission file = Submission.of(WorkflowApprovalTest.HEAD + e.getValue(), "agent.nm").withLanguage(Language.NORMAN);
            // A later turn calls what the file defined (and asks again: another pause, in a later execution).
            Submission later = Submission.of(WorkflowApprovalTest.HEAD + "(+ 1 (sum))", "later.nm").withLanguage(Language.NORMAN);
            ImageLaw.Scenario s = new ImageLaw.Scenario(e.getKey(), NormanImageLawTest::finch, ImageLaw.texts(Map.of("q.txt", "hello")),
                    List.of(), List.of(file, later), List.of(), ws -> "asked " + ASKED.getOrDefault(ws, new java.util.concurrent.atomic.AtomicInteger()).get());
            ImageLaw.Verdict v = ImageLaw.check(s);
            assertThat(v.holds()).as("%s", v).isTrue();
            assertThat(v.pauses()).as("pauses of %s", e.getKey()).isGreaterThanOrEqualTo(2);
        }));
    }
}
