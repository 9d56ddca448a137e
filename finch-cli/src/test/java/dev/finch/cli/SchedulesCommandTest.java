package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a program run from the command line schedules work in the state directory (the policies its flags define;
 * the grant to schedule is its own), and a separate process, {@code finch schedules run} on the same state, runs it
 * with the policy's grants and prints its outcome, until Ctrl-C. Each command is its own JVM, as a person's are.
 */
class SchedulesCommandTest {
    private static final String POLICY = "report:memory.write(tree=global,path=**);max-runs=5";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    record Ran(int exit, String out, String err) { }

    private List<String> java(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.finch.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** {@code finch ARGS} as its own process, to its end. */
    private Ran finch(String... args) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(java(args)).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        // A hang guard only.
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("finch " + String.join(" ", args) + " did not end");
        }
        return new Ran(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test void aRunSchedulesWorkThatTheSchedulerProcessRunsWithItsPolicysGrants() throws Exception {
        String state = dir.resolve("state").toString();
        Files.writeString(dir.resolve("make.lisp"), """
                (say (schedule-create "report" "PT1S" "(memory-put \\"global\\" \\"from-cli\\" (json-of-int 1)) (say \\"program ran\\")"))
                (say " ")
                (define (tally) (say "word ran") (+ 40 2))
                (say (schedule-create { :policy "report" :when "PT1S" :word "tally" }))
                """);
        Ran made = finch("run", "--state", state, "--schedule-policy", POLICY, "--grant", "schedule.create(policy=report)", "make.lisp");
        assertThat(made.exit()).as(made.err()).isZero();
        String[] ids = made.out().split(" ");
        assertThat(ids).hasSize(2).allSatisfy(id -> assertThat(id).startsWith("sch-"));
        // finch run only keeps them; `schedules list` shows both, one a program and one a word.
        Ran listed = finch("schedules", "list", "--state", state);
        assertThat(listed.exit()).as(listed.err()).isZero();
        assertThat(listed.out()).contains(ids[0] + "  report  PT1S  lisp program  runs 0", ids[1] + "  report  PT1S  word tally  runs 0");

        Process scheduler = new ProcessBuilder(java("schedules", "run", "--json", "--refresh", "1", "--state", state, "--schedule-policy", POLICY))
                .directory(dir.toFile()).redirectError(dir.resolve("scheduler.err").toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(scheduler.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (IOException ended) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            Map<String, JsonNode> runs = new HashMap<>();
            while (runs.size() < 2) {
                String line = lines.poll(2, TimeUnit.MINUTES); // a hang guard only
                assertThat(line).as("a run's outcome (stderr: %s)", Files.readString(dir.resolve("scheduler.err"))).isNotNull();
                JsonNode run = JSON.readTree(line);
                runs.put(run.get("schedule_id").asText(), run);
            }
            JsonNode program = runs.get(ids[0]);
            assertThat(program.get("policy").asText()).isEqualTo("report");
            assertThat(program.get("run").asInt()).isEqualTo(1);
            // The policy's grant let it write memory: without it the run would wait for a grant (suspended).
            assertThat(program.at("/outcome/status").asText()).isEqualTo("completed");
            assertThat(program.at("/outcome/output").asText()).isEqualTo("program ran");
            assertThat(program.at("/outcome/source_id").asText()).isEqualTo("schedule:" + ids[0]);
            JsonNode word = runs.get(ids[1]);
            assertThat(word.at("/outcome/status").asText()).isEqualTo("completed");
            assertThat(word.at("/outcome/output").asText()).isEqualTo("word ran");
            assertThat(word.at("/outcome/stack/0/display").asText()).isEqualTo("42");
            // Ctrl-C stops it.
            new ProcessBuilder("kill", "-INT", Long.toString(scheduler.pid())).start().waitFor();
            assertThat(scheduler.waitFor(2, TimeUnit.MINUTES)).as("the scheduler stopped on SIGINT").isTrue();
            assertThat(Files.readString(dir.resolve("scheduler.err"))).contains("running the schedules of report", "stopped");
        } finally {
            scheduler.destroyForcibly();
        }
        // Done: nothing is kept, and the memory the run wrote is there for the next process.
        assertThat(finch("schedules", "list", "--state", state).out()).isEmpty();
        Files.writeString(dir.resolve("read.lisp"), "(say (show (memory-get \"global\" \"from-cli\")))");
        Ran read = finch("run", "--state", state, "--grant", "memory.read(tree=global,path=**)", "read.lisp");
        assertThat(read.out()).contains("1");
    }

    /** {@code finch ARGS} in this JVM (usage errors return before anything runs). */
    private static Ran inProcess(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(args, new ByteArrayInputStream(new byte[0]), out, err);
        return new Ran(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test void aPolicySpecSaysItsLimitsAndMissedRuns() throws Exception {
        var p = ScheduleOptions.parse("report:memory.write(tree=global,path=**); max-runs=3;lifetime=P2D;missed=skip;", dev.finch.SessionOptions.DEFAULT);
        assertThat(p.name()).isEqualTo("report");
        assertThat(p.maxRuns()).isEqualTo(3);
        assertThat(p.lifetime()).contains(java.time.Duration.ofDays(2));
        assertThat(p.missed()).isEqualTo(dev.finch.schedule.MissedRuns.SKIP);
        var plain = ScheduleOptions.parse("nightly", dev.finch.SessionOptions.DEFAULT);
        assertThat(plain.maxRuns()).isEqualTo(Long.MAX_VALUE);
        assertThat(plain.lifetime()).isEmpty();
        assertThat(plain.missed()).isEqualTo(dev.finch.schedule.MissedRuns.RUN_ONCE);
    }

    @Test void policiesAreCheckedAndSchedulingNeedsItsOwnGrant() throws Exception {
        Path state = dir.resolve("state");
        Path make = Files.writeString(dir.resolve("make.lisp"), "(say (schedule-create \"report\" \"PT1H\" \"(say 1)\"))");
        for (String bad : List.of("no space:x", "report:max-runs=0", "report:lifetime=forever", "report:missed=later", "report:fs.read(", "")) {
            Ran r = inProcess("run", "--state", state.toString(), "--schedule-policy", bad, make.toString());
            assertThat(r.exit()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--schedule-policy").doesNotContain("Exception");
        }
        assertThat(inProcess("run", "--state", state.toString(), "--schedule-policy", "a", "--schedule-policy", "a", make.toString()).exit()).isEqualTo(2);
        // A defined policy is availability: scheduling still waits for its grant (exit 3), and is refused for a policy not defined.
        Ran waits = inProcess("run", "--state", state.toString(), "--schedule-policy", "report:max-runs=1;missed=skip;lifetime=P1D", make.toString());
        assertThat(waits.exit()).as(waits.err()).isEqualTo(3);
        assertThat(waits.err()).contains("schedule.create(policy=report)");
        Ran undefined = inProcess("run", "--state", state.toString(), "--grant", "schedule.create(policy=report)", make.toString());
        assertThat(undefined.exit()).isEqualTo(1);
        assertThat(undefined.err()).contains("E-SCHEDULE-002");
        // The schedules commands need the state directory, and `run` policies to run.
        assertThat(inProcess("schedules", "list", "--no-state").exit()).isEqualTo(2);
        assertThat(inProcess("schedules", "run", "--state", state.toString()).err()).contains("--schedule-policy");
        assertThat(inProcess("schedules").exit()).isEqualTo(2);
        Ran cancel = inProcess("schedules", "cancel", "--state", state.toString(), "sch-none");
        assertThat(cancel.exit()).isEqualTo(1);
        assertThat(cancel.err()).contains("no schedule sch-none");
    }

    @Test void aKeptScheduleIsListedAsJsonAndCancelled() throws Exception {
        Path state = dir.resolve("state");
        Path make = Files.writeString(dir.resolve("make.fth"), "{ language: \"norman\" policy: \"report\" program: \"(+ 1 2)\" when: \"PT1H\" } schedule-create say");
        Ran made = inProcess("run", "--state", state.toString(), "--schedule-policy", "report", "--grant", "schedule.create(policy=report)", make.toString());
        assertThat(made.exit()).as(made.err()).isZero();
        Ran listed = inProcess("schedules", "list", "--json", "--state", state.toString());
        JsonNode kept = JSON.readTree(listed.out());
        assertThat(kept.get("id").asText()).isEqualTo(made.out());
        assertThat(kept.get("language").asText()).isEqualTo("norman");
        assertThat(kept.get("word").isNull()).isTrue();
        assertThat(kept.get("program").asText()).isEqualTo("(+ 1 2)");
        assertThat(kept.get("next").asText()).isNotEmpty();
        Ran cancel = inProcess("schedules", "cancel", "--state", state.toString(), made.out());
        assertThat(cancel.exit()).as(cancel.err()).isZero();
        assertThat(inProcess("schedules", "list", "--state", state.toString()).out()).isEmpty();
    }
}
