package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.tools.ToolSpec;
import dev.finch.tools.ToolSurface;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's tool-surface and incremental-submission example is this code, run here and shown there verbatim. */
@Timeout(60)   // a hang guard per test (each takes milliseconds); nothing here bounds wall time
class ReadmeToolsExampleTest {
    @Test
    void theToolExampleRunsAndIsTheOneInTheReadme() throws IOException {
        Session session = Finch.create().newSession();
        // README-tools:begin
        ToolSurface tools = ToolSurface.of(session);
        String declared = tools.toolsJson();                        // [{name, description, input_schema}…]
        String state = tools.handle("get_vm_state", "{}");           // {"protocol":…,"vm_revision":0,…}
        String reply = tools.handle("submit_program",                // the model's tool call, its id as source
                "{\"source\":\"(say \\\"hi\\\")\",\"expected_vm_revision\":0}", "resp-7/call-1");
        SubmissionBuffer buffer = session.buffer("editor-1");        // incremental Co-Forth
        buffer.feed(": cube ( int -- int ) dup dup").feed(" * * ; 3 cube");  // buffered; nothing runs
        Outcome cubed = buffer.flush().orElseThrow();                // the explicit program boundary
        // README-tools:end
        assertThat(tools.tools()).extracting(ToolSpec::name)
                .containsExactly("get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program");
        assertThat(declared).contains("\"input_schema\"");
        assertThat(state).contains("\"vm_revision\":0");
        assertThat(reply).contains("\"status\":\"completed\"").contains("\"output\":\"hi\"").contains("\"source_id\":\"resp-7/call-1\"");
        assertThat(cubed.stack()).containsExactly(new StackEntry("int", "27"));

        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        assertThat(readme).contains(snippet());
    }

    static String snippet() throws IOException {
        String src = Files.readString(Path.of("src/test/java/dev/finch/ReadmeToolsExampleTest.java"), StandardCharsets.UTF_8);
        String begin = "// README-tools:begin\n";
        String body = src.substring(src.indexOf(begin) + begin.length(), src.indexOf("        // README-tools:end"));
        return body.lines().map(l -> l.length() >= 8 ? l.substring(8) : l.strip()).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
