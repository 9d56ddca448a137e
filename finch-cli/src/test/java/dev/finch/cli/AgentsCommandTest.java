package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Child agents from the command line (issue 20's done-when): {@code finch run --provider script:FILE} runs
 * {@code docs/examples/delegate/delegate.lisp}, whose two children hold different delegated grants; both are awaited and their
 * final messages printed, and the child that reads outside its grant has a structured diagnostic in its result. The
 * program, the script and the output docs/agents.md shows are exactly the example's.
 */
class AgentsCommandTest {
    private static final Path ROOT = Path.of("..");
    private static final Path EXAMPLE = ROOT.resolve("docs/examples/delegate");
    @TempDir Path dir;

    private record Ran(int status, String out, String err) { }

    private static Ran finch(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.execute(args, new ByteArrayInputStream(new byte[0]), out, err, Map.of());
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String[] example(String... extra) {
        String[] base = {"run", "--provider", "script:" + EXAMPLE.resolve("children.script"), "--workspace", EXAMPLE.resolve("workspace").toString(),
                "--grant", "agent.spawn(max_depth=1,max_children=2)", "--grant", "fs.read(${workspace}/public/**)",
                "--grant", "fs.read(${workspace}/private/**)"};
        String[] all = new String[base.length + extra.length + 1];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        all[all.length - 1] = EXAMPLE.resolve("delegate.lisp").toString();
        return all;
    }

    private static String block(String doc, String marker) {
        Matcher m = Pattern.compile("<!-- " + Pattern.quote(marker) + " -->\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL).matcher(doc);
        assertThat(m.find()).as("docs/agents.md has a <!-- %s --> block", marker).isTrue();
        return m.group(1);
    }

    @Test void twoChildrenWithDifferentGrantsAreAwaitedAndTheOneOutsideItsGrantReportsADiagnostic() throws IOException {
        Ran r = finch(example());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                reader (completed): notes say: Finch runs the programs models write.
                auditor (completed): the read failed: E-HOST-001
                auditor diagnostics: ["E-HOST-001"]
                """);
        String doc = Files.readString(ROOT.resolve("docs/agents.md"), StandardCharsets.UTF_8);
        assertThat(block(doc, "example: docs/examples/delegate/delegate.lisp")).isEqualTo(Files.readString(EXAMPLE.resolve("delegate.lisp")).stripTrailing());
        assertThat(block(doc, "example: docs/examples/delegate/children.script")).isEqualTo(Files.readString(EXAMPLE.resolve("children.script")).stripTrailing());
        assertThat(block(doc, "example output")).isEqualTo(r.out().stripTrailing());
    }

    @Test void withJsonTheParentsOutcomeNamesTheBoundItInferred() throws IOException {
        Ran r = finch(example("--json"));
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertThat(o.get("status").asText()).isEqualTo("completed");
        assertThat(o.get("inferred_capabilities").toString()).contains("agent.spawn(max_depth=999999,max_children=999999)");
    }

    @Test void withoutTheSpawnGrantTheRunSuspendsAndNoChildStarts() {
        Ran r = finch("run", "--provider", "script:" + EXAMPLE.resolve("children.script"), "--workspace", EXAMPLE.resolve("workspace").toString(),
                EXAMPLE.resolve("delegate.lisp").toString());
        assertThat(r.status()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains("agent.spawn(max_depth=1,max_children=1)");
    }

    @Test void aScriptThatCannotBeReadOrParsedIsAUsageError() throws IOException {
        Ran missing = finch("run", "--provider", "script:" + dir.resolve("nope.script"), EXAMPLE.resolve("delegate.lisp").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read the agent script");
        Path bad = Files.writeString(dir.resolve("bad.script"), ">>> dance\n");
        Ran malformed = finch("run", "--provider", "script:" + bad, EXAMPLE.resolve("delegate.lisp").toString());
        assertThat(malformed.status()).isEqualTo(2);
        assertThat(malformed.err()).contains("unknown turn 'dance'");
        Ran priced = finch("run", "--provider", "script:" + EXAMPLE.resolve("children.script"), "--model", "m=1,2,3", EXAMPLE.resolve("delegate.lisp").toString());
        assertThat(priced.status()).isEqualTo(2);
        assertThat(priced.err()).contains("not with a script");
    }

    @Test void withoutAProviderTheAgentWordsFailWithTheirCode() throws IOException {
        Path p = Files.writeString(dir.resolve("a.fth"), "\"x\" agent-spawn drop");
        Ran r = finch("run", "--grant", "agent.spawn(max_depth=1,max_children=1)", p.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("E-AGENT-001");
    }
}
