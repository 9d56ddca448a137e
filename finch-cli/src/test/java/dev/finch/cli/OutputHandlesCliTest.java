package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code finch run} shows output handles: plain lines when stdout is not a terminal, drawn in place on one; in --json, the events. */
class OutputHandlesCliTest {
    @TempDir
    Path dir;

    private static final String PROGRAM = "\"start\\n\" say \"copy\" output-open dup 1 2 output-progress dup 2 2 output-progress "
            + "dup \"all copied\" output-replace output-close \"end\" say\n";

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void withoutATerminalEachEventIsOnePlainLineAndSayTextIsUnchanged() throws IOException {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", file("p.fth", PROGRAM).toString()), "");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).as("stdout is the say text, byte for byte").isEqualTo("start\nend");
        assertThat(r.err()).isEqualTo("[copy] open\n[copy] 1/2\n[copy] 2/2\n[copy] all copied\n[copy] closed\n");
    }

    @Test
    void eventLinesGoToStderrAndLeaveTheSayTextAlone() throws IOException {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", file("p.fth", "\"half\" say \"x\" output-open drop \"more\" say").toString()), "");
        assertThat(r.out()).isEqualTo("halfmore");
        assertThat(r.err()).isEqualTo("[x] open\n[x] closed\n");
    }

    @Test
    void aLispProgramShowsTheSame() throws IOException {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run",
                file("p.lisp", "(let ((h (output-open \"load\"))) (output-progress h 3 10) (output-close h))").toString()), "");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("[load] open\n[load] 3/10\n[load] closed\n");
    }

    @Test
    void onATerminalProgressIsRedrawnInPlace() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.execute(new String[] {"run", file("p.fth", PROGRAM).toString()}, new ByteArrayInputStream(new byte[0]), out,
                new ByteArrayOutputStream(), Map.of(), true);
        assertThat(exit).isZero();
        String bar1 = "copy " + OutputView.bar(1, 2) + " 1/2";
        String bar2 = "copy " + OutputView.bar(2, 2) + " 2/2";
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("start\n\rcopy\033[K\r" + bar1 + "\033[K\r" + bar2 + "\033[K\rcopy: all copied\033[K\nend");
    }

    @Test
    void theBarFillsInProportion() {
        assertThat(OutputView.bar(0, 10)).isEqualTo("[>                   ]");
        assertThat(OutputView.bar(3, 10)).isEqualTo("[======>             ]");
        assertThat(OutputView.bar(10, 10)).isEqualTo("[====================]");
    }

    @Test
    void jsonIncludesTheEventsInOrder() throws IOException {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", "--json", file("p.fth", PROGRAM).toString()), "");
        JsonNode o = r.outcomes().get(0);
        assertThat(o.get("output").asText()).isEqualTo("start\nend");
        assertThat(o.get("events").toString()).isEqualTo("[{\"kind\":\"say\",\"text\":\"start\\n\"},{\"kind\":\"open\",\"handle\":1,\"label\":\"copy\"},"
                + "{\"kind\":\"progress\",\"handle\":1,\"done\":2,\"total\":2},{\"kind\":\"replace\",\"handle\":1,\"text\":\"all copied\"},"
                + "{\"kind\":\"close\",\"handle\":1},{\"kind\":\"say\",\"text\":\"end\"}]");
    }

    @Test
    void theViewWritesReplacedTextOnOneLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OutputView v = new OutputView(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        v.event(new dev.finch.vm.OutputEvent.Open(1, "a"));
        v.event(new dev.finch.vm.OutputEvent.Replace(1, "two\nlines"));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("[a] open\n[a] two lines\n");
    }
}
