package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Keeps {@code docs/lisp.md} true: every {@code ```lisp} block is followed by expectation lines
 * {@code ; => output: …} (exact say text, escapes {@code \n \t \" \\}), {@code ; => stack: …} (the displays, bottom to
 * top, separated by {@code " | "}), {@code ; => error: CODE} (the run fails with that first diagnostic code) or
 * {@code ; => forth: …} (the lines of its canonical Co-Forth). A block without any expectation fails: no untested
 * examples. Each block runs in a fresh session with the source id {@code doc.lisp}; without an {@code output} line
 * the output must be empty, without a {@code stack} line the stack must be empty.
 */
class DocsLispExamplesTest {
    private static final Path PAGE = Path.of("..", "docs", "lisp.md");
    /** The step limit is what bounds an example; the deadline is a hang guard (examples take milliseconds). */
    private static final Finch FINCH = Finch.builder().maxSteps(10_000_000).timeout(Duration.ofSeconds(60)).build();

    /** One example: its code, the line it starts on, and its expectation lines without the {@code ; => } prefix. */
    record Example(String code, int line, List<String> expectations) { }

    @TestFactory
    Stream<DynamicTest> everyLispExampleDoesWhatThePageSays() throws IOException {
        List<Example> examples = examples(Files.readAllLines(PAGE));
        assertThat(examples).as("lisp examples in %s", PAGE).hasSizeGreaterThanOrEqualTo(20);
        return examples.stream().map(e -> DynamicTest.dynamicTest("lisp.md line " + e.line(), () -> check(e)));
    }

    static List<Example> examples(List<String> lines) {
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```lisp")) continue;
            int start = i + 1;
            StringBuilder code = new StringBuilder();
            int j = start;
            while (j < lines.size() && !lines.get(j).strip().equals("```")) code.append(lines.get(j++)).append('\n');
            List<String> expect = new ArrayList<>();
            int k = j + 1;
            while (k < lines.size() && lines.get(k).startsWith("; => ")) expect.add(lines.get(k++).substring(5));
            out.add(new Example(code.toString(), start + 1, expect));
            i = k - 1;
        }
        return out;
    }

    private static void check(Example e) {
        assertThat(e.expectations()).as("the example at line %d states what it does (; => output|stack|error|forth)", e.line()).isNotEmpty();
        String output = "";
        String stack = null;
        String error = null;
        List<String> forth = new ArrayList<>();
        for (String x : e.expectations()) {
            int colon = x.indexOf(": ");
            String key = colon < 0 ? x : x.substring(0, colon);
            String value = colon < 0 ? "" : x.substring(colon + 2);
            switch (key) {
                case "output": output = unescape(value); break;
                case "stack": stack = value; break;
                case "error": error = value.strip(); break;
                case "forth": forth.add(value); break;
                default: throw new AssertionError("unknown expectation '" + key + "' at line " + e.line());
            }
        }
        Session session = FINCH.newSession();
        // A join of a CPU task still computing pauses the run; `finch run` waits for the task and goes on.
        Outcome o = session.awaitTasks(session.submit(Submission.of(e.code(), "doc.lisp").withLanguage(Language.LISP)));
        // The contract's interactive rule, as `finch run` applies it: a unit yield is a timeslice, resumed at once.
        for (int i = 0; i < 1_000 && o instanceof Outcome.Suspended su && su.isUnitYield(); i++) {
            o = session.awaitTasks(session.resume(o.executionId()));
        }
        String what = "the example at line " + e.line() + ":\n" + e.code() + "-> " + o.diagnostics();
        if (error != null) {
            assertThat(o.status()).as(what).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics().get(0).code()).as(what).isEqualTo(error);
            return;
        }
        assertThat(o.status()).as(what).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).as(what).isEqualTo(output);
        List<String> displays = new ArrayList<>();
        for (StackEntry s : o.stack()) displays.add(s.display());
        assertThat(String.join(" | ", displays)).as(what).isEqualTo(stack == null ? "" : stack);
        if (!forth.isEmpty()) {
            CheckResult c = FINCH.newSession().check(Submission.of(e.code(), "doc.lisp").withLanguage(Language.LISP));
            assertThat(c.canonicalForth().orElse("")).as(what).isEqualTo(String.join("\n", forth) + "\n");
        }
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char n = s.charAt(++i);
            b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
        }
        return b.toString();
    }
}
