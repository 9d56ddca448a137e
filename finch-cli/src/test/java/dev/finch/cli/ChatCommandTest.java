package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 38 item 3: {@code finch chat} with the documented scripted provider, offline. */
class ChatCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The script docs/conversations.md and the README's tour use. */
    private static final Path HELLO = Path.of("..", "docs", "examples", "chat", "hello.script").toAbsolutePath().normalize();

    @TempDir Path ws;

    private ConformanceTest.Run chat(String stdin, String... extra) {
        List<String> args = new ArrayList<>(List.of("chat", "--no-state", "--provider", "script:" + HELLO, "--workspace", ws.toString()));
        args.addAll(List.of(extra));
        return ConformanceTest.invoke(args, stdin);
    }

    @Test void aPersonsLineGetsTheProgramsOutputAndAGrantIsAskedForThenTheTurnGoesOn() throws IOException {
        ConformanceTest.Run r = chat("hello\nwrite a note\no\n:quit\n");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("Hello! I answer in programs. Ask me to write a note.")
                .contains("the program asks: file-write (path \"note.txt\") <8 bytes: \"buy milk\">")
                .contains("allow fs.write(${workspace}/note.txt)? [o]nce/[s]ession/[p]roject/[a]lways/[n]o")
                .contains("I wrote note.txt. Done: completed.");
        assertThat(Files.readString(ws.resolve("note.txt"))).isEqualTo("buy milk");
    }

    @Test void aDenialReachesTheModelAndNothingIsWritten() {
        ConformanceTest.Run r = chat("hello\nwrite a note\nn\n");
        assertThat(r.out()).contains("Done: failed.");
        assertThat(Files.exists(ws.resolve("note.txt"))).isFalse();
    }

    @Test void jsonPrintsOneEventPerLine() throws IOException {
        ConformanceTest.Run r = chat("hello\nwrite a note\no\n", "--json");
        List<String> kinds = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (line.isBlank()) continue;
            JsonNode e = JSON.readTree(line);
            kinds.add(e.get("event").asText());
        }
        assertThat(kinds).startsWith("say", "outcome", "answered", "approval").endsWith("answered");
        assertThat(r.out()).contains("\"requirement\":\"fs.write(${workspace}/note.txt)\"").contains("\"source_id\":\"script-2\"");
    }

    @Test void aScriptThatRunsOutStopsTheTurnWithAStableCode() {
        ConformanceTest.Run r = chat("hello\nwrite a note\no\nand more\n");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("finch: the turn stopped: E-CONVERSATION-003");
    }

    @Test void chatNeedsAProvider() {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("chat", "--no-state"), "");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("chat needs --provider");
    }
}
