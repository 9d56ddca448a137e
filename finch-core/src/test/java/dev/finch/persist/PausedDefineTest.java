package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PausedDefineTest {
    @TempDir Path ws;

    @Test void issueProgram() throws Exception {
        Session s = Images.keyed().newSession(SessionOptions.DEFAULT.withWorkspace(ws));
        Outcome o = s.submit(Submission.of("""
                (say "summarising… ")
                (define summary (string-append "orders: " (int-to-string 3)))
                (file-write (path "summary.txt") (string-to-bytes summary))
                (say "written")
                summary
                """, "issue"));
        assertThat(o).isInstanceOf(Outcome.Suspended.class);
        Session back = Images.keyed().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
        Outcome done = back.approve(o.executionId(), Scope.ONCE);
        System.out.println(FinchJson.write(done));
        assertThat(done.stack()).extracting(StackEntry::display).containsExactly("\"orders: 3\"");
        assertThat(Files.readString(ws.resolve("summary.txt"))).isEqualTo("orders: 3");
    }
}
