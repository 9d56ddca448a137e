package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 33's program, as a new user met it: a Lisp program that defines a top-level value before it pauses for a
 * write, saved, restored in a new {@link Finch} with the same key and approved there. It completes with the value on
 * the stack, its outcome writes as JSON, the session's stack reads, and the next turn sees the definition — in both
 * tiers, and the same in Co-Forth.
 */
class IssueProgramImageTest {
    @TempDir Path ws;

    private static final String LISP = """
            (say "summarising… ")
            (define summary (string-append "orders: " (int-to-string 3)))
            (file-write (path "summary.txt") (string-to-bytes summary))
            (say "written")
            summary
            """;

    private static final String FORTH = """
            "summarising… " say
            "orders: " 3 int-to-string string-append constant summary
            "summary.txt" path summary string-to-bytes file-write
            "written" say
            summary
            """;

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED", "AUTO"})
    void theDefinitionSurvivesTheImageAndTheNextTurnSeesIt(Finch.Tier tier) throws Exception {
        for (String program : new String[] {LISP, FORTH}) {
            Files.deleteIfExists(ws.resolve("summary.txt"));
            Session s = Finch.builder().tier(tier).imageKey(Images.KEY).build().newSession(SessionOptions.DEFAULT.withWorkspace(ws));
            Outcome o = s.submit(Submission.of(program, "issue"));
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("fs.write(${workspace}/summary.txt)");
            Session back = Finch.builder().tier(tier).imageKey(Images.KEY).build().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
            Outcome done = back.approve(o.executionId(), Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(StackEntry::display).containsExactly("\"orders: 3\"");
            assertThat(done.output()).isEqualTo("summarising… written");
            assertThat(FinchJson.write(done)).contains("\"display\":\"\\\"orders: 3\\\"\"");
            assertThat(back.stack()).extracting(StackEntry::display).containsExactly("\"orders: 3\"");
            assertThat(Files.readString(ws.resolve("summary.txt"))).isEqualTo("orders: 3");
            Outcome next = back.submit(Submission.of("(string-append summary \"!\")", "next").withLanguage(Language.LISP));
            assertThat(next.stack()).as("%s", next).extracting(StackEntry::display).containsExactly("\"orders: 3\"", "\"orders: 3!\"");
        }
    }
}
