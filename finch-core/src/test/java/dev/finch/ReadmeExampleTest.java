package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The README's embedding example is this code: the test runs it and checks the README still shows it verbatim. */
class ReadmeExampleTest {
    @Test
    void theEmbeddingExampleRunsAndIsTheOneInTheReadme() throws IOException {
        // README:begin
        StringBuilder said = new StringBuilder();
        Finch finch = Finch.builder().maxSteps(1_000_000).timeout(Duration.ofSeconds(2)).build();
        Session session = finch.newSession();                   // one per conversation
        Outcome turn1 = session.submit(Submission.of("(define (sq [n : int]) : int (* n n))", "turn-1"));
        Outcome turn2 = session.submit(Submission.of("7 sq dup int-to-string say", "turn-2")
                .expecting(session.vmRevision(), session.manifestGeneration())
                .withSink(said::append));                       // say chunks, as they happen
        System.out.println(FinchJson.write(turn2));             // {"protocol":"FINCH-VM-TYPED/1",...}
        // README:end
        assertThat(turn1).isInstanceOf(Outcome.Completed.class);
        assertThat(turn2).isInstanceOf(Outcome.Completed.class);
        assertThat(said.toString()).isEqualTo("49");
        assertThat(turn2.stack()).containsExactly(new StackEntry("int", "49"));
        assertThat(turn2.vmRevision()).isEqualTo(2);

        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        assertThat(readme).contains(snippet());
    }

    /** The lines between the markers above, without their indentation. */
    static String snippet() throws IOException {
        String src = Files.readString(Path.of("src/test/java/dev/finch/ReadmeExampleTest.java"), StandardCharsets.UTF_8);
        String body = src.substring(src.indexOf("// README:begin\n") + "// README:begin\n".length(), src.indexOf("        // README:end"));
        return body.lines().map(l -> l.length() >= 8 ? l.substring(8) : l.strip()).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
