package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6 item 4 and reliability row 20: a run suspended at a capability boundary is saved, restored in a new
 * Finch in another JVM, approved there, and continues exactly where it stopped — its earlier effect (a process
 * appending to a log) is not repeated and its output continues. A truncated or edited image is refused.
 */
class DurableContinuationTest {
    @TempDir Path ws;

    /** Defines a word in one submission, then suspends inside it (at file-read, after an effect) in the next. */
    private Session suspended(Finch finch, List<String> streamed) throws Exception {
        Files.writeString(ws.resolve("b.txt"), "B");
        Session s = finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of("process.run(/bin/sh)", "fs.write(${workspace}/**)")).build());
        Outcome def = s.submit(Submission.of(
                ": log ( -- ! {process.run(**)} ) \"/bin/sh\" [ \"-c\" \"echo ran >> log.txt\" ] process-run drop ;\n"
                        + ": step ( int -- int ! {fs.read(${workspace}/**)} ) \"mid \" say \"b.txt\" path file-read bytes-to-string if-ok say else drop then 1 + ;", "defs"));
        assertThat(def).isInstanceOf(Outcome.Completed.class);
        Outcome o = s.submit(Submission.of("41 \"before \" say log 7 step \" after\" say", "main").withSink(streamed::add));
        assertThat(o).isInstanceOf(Outcome.Suspended.class);
        assertThat(o.fields().requiredCapabilities()).containsExactly("fs.read(${workspace}/b.txt)");
        assertThat(Files.readAllLines(ws.resolve("log.txt"))).containsExactly("ran");
        return s;
    }

    @Test void resumesInAnotherProcessWithoutRepeatingEffects() throws Exception {
        List<String> streamed = new ArrayList<>();
        Session s = suspended(Images.keyed(), streamed);
        String executionId = s.suspendedExecutions().iterator().next();
        Path image = ws.resolve("image.json");
        Files.writeString(image, s.save(executionId));

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ResumeFixture.class.getName(),
                image.toString(), executionId, ws.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode outcome = new ObjectMapper().readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
        assertThat(outcome.get("status").asText()).as(out).isEqualTo("completed");
        assertThat(outcome.get("output").asText()).isEqualTo("before mid B after");
        assertThat(outcome.get("stack").get(0).get("display").asText()).isEqualTo("41");
        assertThat(outcome.get("stack").get(1).get("display").asText()).isEqualTo("8");
        // The process ran once, before the suspension, in the first JVM; resuming did not run it again.
        assertThat(Files.readAllLines(ws.resolve("log.txt"))).containsExactly("ran");
        assertThat(streamed).containsExactly("before ", "mid ");
    }

    @Test void aLocalNotStoredYetWhenTheRunPausedIsSavedAsUnset() throws Exception {
        // `text` and `rec` are stored only after the read the run pauses at: their slots hold nothing yet.
        Files.writeString(ws.resolve("b.txt"), "B");
        Session s = Images.keyed().newSession(SessionOptions.builder().workspace(ws).build());
        Outcome def = s.submit(Submission.of(": later ( -- string ! {fs.read(${workspace}/**)} ) \"b.txt\" path file-read "
                + "bytes-to-string if-ok else drop \"?\" then :> text { t: text } :> rec rec \"t\" record-get unwrap ;", "defs"));
        assertThat(def).as("%s", def).isInstanceOf(Outcome.Completed.class);
        Outcome o = s.submit(Submission.of("later", "main"));
        assertThat(o).isInstanceOf(Outcome.Suspended.class);
        Session restored = Images.keyed().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
        Outcome done = restored.approve(o.executionId(), dev.finch.capabilities.Scope.ONCE);
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.stack()).extracting(e -> e.display()).containsExactly("\"B\"");
    }

    @Test void aRunPausedInsideAClosureIsSavedWithItAndResumedInBothTiers() throws Exception {
        Files.writeString(ws.resolve("b.txt"), "B");
        String closure = "7 :> n [: ( -- string ! {fs.read(${workspace}/**)} ) \"b.txt\" path file-read bytes-to-string "
                + "if-ok else drop \"?\" then n int-to-string string-append ;] execute";
        // compiled: the closure literal is inside a word; interpreted: inside the top-level program
        for (String src : List.of(": go ( -- string ! {fs.read(${workspace}/**)} ) " + closure + " ; go", closure)) {
            Session s = Images.keyed().newSession(SessionOptions.builder().workspace(ws).build());
            Outcome o = s.submit(Submission.of(src, "main"));
            assertThat(o).as(src).isInstanceOf(Outcome.Suspended.class);
            Session restored = Images.keyed().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
            Outcome done = restored.approve(o.executionId(), dev.finch.capabilities.Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(e -> e.display()).containsExactly("\"B7\"");
        }
    }

    /**
     * A submission too large for one generated class (its words spread over several) pauses in its last word, inside a
     * call from it to a word of the first class, and resumes after a restore in a new Finch.
     */
    @Test void aRunPausedInASubmissionOfSeveralClassesIsSavedAndResumed() throws Exception {
        Files.writeString(ws.resolve("b.txt"), "B");
        StringBuilder src = new StringBuilder(": reader ( -- string ! {fs.read(${workspace}/**)} ) \"b.txt\" path file-read "
                + "bytes-to-string if-ok else drop \"?\" then ;\n");
        for (int i = 0; i < 1_500; i++) {
            src.append(": f").append(i).append(" ( int -- int ) ").append(i).append(" + :> y y 10 > if y 2 * else y 1 - then ;\n");
            src.append(": g").append(i).append(" ( string -- string ) string-upcase \"-").append(i).append("\" string-append ;\n");
        }
        src.append(": last ( -- string ! {fs.read(${workspace}/**)} ) 1 f1499 int-to-string reader string-append g0 ;\nlast");
        Session s = Images.keyed().newSession(SessionOptions.builder().workspace(ws).build());
        Outcome o = s.submit(Submission.of(src.toString(), "main"));
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
        Session restored = Images.keyed().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
        Outcome done = restored.approve(o.executionId(), Scope.ONCE);
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        // f1499: 1 + 1499 = 1500 > 10, doubled; then "B", upcased with g0's suffix.
        assertThat(done.stack()).extracting(e -> e.display()).containsExactly("\"3000B-0\"");
        assertThat(restored.submit(Submission.of("2 f0 \"x\" g1499", "t")).stack()).extracting(e -> e.display())
                .containsExactly("\"3000B-0\"", "1", "\"X-1499\"");
    }

    @Test void resumesInANewFinchInThisProcess() throws Exception {
        Session s = suspended(Images.keyed(), new ArrayList<>());
        String executionId = s.suspendedExecutions().iterator().next();
        String image = s.save(executionId);
        Session restored = Images.keyed().restore(image, SessionOptions.DEFAULT.withWorkspace(ws));
        List<String> later = new ArrayList<>();
        Outcome o = restored.approve(executionId, Scope.ONCE);
        assertThat(o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.fields().output()).isEqualTo("before mid B after");
        assertThat(restored.vmRevision()).isEqualTo(2);
        assertThat(Files.readAllLines(ws.resolve("log.txt"))).containsExactly("ran");
        // The restored session keeps its dictionary: the words defined before the image still run.
        Outcome again = restored.submit(Submission.of("1 step drop", "later").withSink(later::add));
        assertThat(again).isInstanceOf(Outcome.Suspended.class);
    }

    @Test void truncatedOrEditedImagesAreRefused() throws Exception {
        Session s = suspended(Images.keyed(), new ArrayList<>());
        String executionId = s.suspendedExecutions().iterator().next();
        String image = s.save(executionId);
        Finch finch = Images.keyed();
        SessionOptions at = SessionOptions.DEFAULT.withWorkspace(ws);
        for (int cut = 0; cut < image.length(); cut += Math.max(1, image.length() / 97)) {
            String truncated = image.substring(0, cut);
            assertThatThrownBy(() -> finch.restore(truncated, at)).isInstanceOf(SessionImage.ImageException.class);
        }
        String edited = image.replace("\\\"B\\\"", "\\\"C\\\"").replace("before ", "BEFORE ");
        assertThat(edited).isNotEqualTo(image);
        assertThatThrownBy(() -> finch.restore(edited, at)).isInstanceOf(SessionImage.ImageException.class).hasMessageContaining("not authentic");
        String older = image.replace(SessionImage.FORMAT, "finch-session/0");
        assertThat(older).isNotEqualTo(image);
        assertThatThrownBy(() -> finch.restore(older, at)).isInstanceOf(SessionImage.ImageException.class);
    }
}
