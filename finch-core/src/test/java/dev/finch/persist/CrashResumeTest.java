package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.Unit;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Reliability row 18: a run with K effects in deferred-host mode, where the host crashes at every journal write
 * point — after performing an effect but before answering the VM — and restarts from the last saved session image.
 * The host's own journal, keyed by (execution id, sequence), answers the replayed request without performing it
 * again: every effect happens exactly once, and the run ends as if nothing had crashed.
 */
class CrashResumeTest {
    private static final String PROGRAM = "\"a\" say \"x.txt\" path \"1\" string-to-bytes file-write \"b\" say "
            + "\"y.txt\" path \"2\" string-to-bytes file-write \"c\" say "
            + "\"x.txt\" path file-read bytes-to-string if-ok say else drop then";

    /** The embedder's side: performs effects (in memory) and journals their results by sequence. */
    static final class Host {
        final Map<String, byte[]> files = new HashMap<>();
        final Map<Long, Object> journal = new HashMap<>();
        final Map<Long, Integer> performed = new HashMap<>();

        Object perform(EffectRequest r) {
            performed.merge(r.sequence(), 1, Integer::sum);
            String file = r.arguments().get(0);
            return switch (r.operation()) {
                case "file-write" -> {
                    files.put(file, String.valueOf(r.sequence()).getBytes(StandardCharsets.UTF_8));
                    yield Unit.INSTANCE;
                }
                case "file-read" -> Bytes.wrap("one".getBytes(StandardCharsets.UTF_8));
                default -> throw new IllegalStateException(r.operation());
            };
        }
    }

    @Test void everyEffectHappensOnceWhateverPointTheHostCrashesAt() {
        int effects = 3;
        for (int crashAt = 1; crashAt <= effects; crashAt++) {
            Host host = new Host();
            Finch finch = Images.keyed();
            SessionOptions options = SessionOptions.builder().grants(List.of("fs.read(${workspace}/**)", "fs.write(${workspace}/**)")).deferred(true).build();
            Session s = finch.newSession(options);
            Outcome o = s.submit(Submission.of(PROGRAM, "crash"));
            String executionId = o.fields().executionId();
            while (o instanceof Outcome.Suspended) {
                EffectRequest r = s.pendingRequest(executionId).orElseThrow();
                String image = s.save(executionId);                       // persisted at the suspension
                Object result = host.journal.containsKey(r.sequence()) ? host.journal.get(r.sequence()) : host.perform(r);
                host.journal.put(r.sequence(), result);                   // the host's journal write point
                if (r.sequence() == crashAt && host.performed.get(r.sequence()) == 1) {
                    // Crash before answering: a new process restores the image and the request is replayed.
                    s = Images.keyed().restore(image, options);
                    EffectRequest again = s.pendingRequest(executionId).orElseThrow();
                    assertThat(again.sequence()).isEqualTo(r.sequence());
                    result = host.journal.containsKey(again.sequence()) ? host.journal.get(again.sequence()) : host.perform(again);
                }
                o = s.respond(executionId, new HostResponse.Result(r.sequence(), result));
            }
            assertThat(o).as("crash at %d", crashAt).isInstanceOf(Outcome.Completed.class);
            assertThat(o.fields().output()).isEqualTo("abcone");
            assertThat(host.performed).containsOnlyKeys(1L, 2L, 3L).allSatisfy((seq, n) -> assertThat(n).isEqualTo(1));
        }
    }
}
