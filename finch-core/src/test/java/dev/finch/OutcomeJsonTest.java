package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutcomeJsonTest {

    private static String golden(String name) throws IOException {
        try (InputStream in = OutcomeJsonTest.class.getResourceAsStream("/golden/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }

    @Test
    void failedOutcomeIsExactlyTheD4Object() throws IOException {
        Diagnostic d = new Diagnostic(Phase.VERIFY, "E-VERIFY-002", "`-` needs int int", Origin.of("prog.fth", 1, 9), "int", "string");
        Outcome o = new Outcome.Failed(new Outcome.Fields("s1-e2", "prog.fth", "forth", "partial\n",
                List.of(new StackEntry("int", "5"), new StackEntry("string", "\"six\"")), List.of(dev.finch.vm.Value.of(5), dev.finch.vm.Value.of("six")),
                List.of("session.emit"), List.of(), List.of(d), 1, 1));
        assertThat(FinchJson.write(o)).isEqualTo(golden("outcome-failed.json"));
    }

    @Test
    void completedOutcomeWritesNullExpectedAndEmptyLists() throws IOException {
        Outcome o = new Outcome.Completed(new Outcome.Fields("s1-e1", "turn-1", "lisp", "hi",
                List.of(new StackEntry("option<int>", "(some 3)")), List.of(dev.finch.vm.Value.some(dev.finch.vm.Value.of(3))), List.of(), List.of(), List.of(), 1, 1));
        assertThat(FinchJson.write(o)).isEqualTo(golden("outcome-completed.json"));
    }

    @Test
    void theEventsFieldListsSayChunksAndOutputHandleEventsInOrder() throws IOException {
        Session s = Finch.builder().build().newSession();
        Outcome o = s.submit(Submission.of("\"a\" say \"job\" output-open dup 1 3 output-progress dup \"done\" output-replace output-close \"b\" say", "t.fth"));
        var tree = new ObjectMapper().readTree(FinchJson.write(o));
        assertThat(tree.get("output").asText()).isEqualTo("ab");
        assertThat(tree.get("events").toString()).isEqualTo("[{\"kind\":\"say\",\"text\":\"a\"},{\"kind\":\"open\",\"handle\":1,\"label\":\"job\"},"
                + "{\"kind\":\"progress\",\"handle\":1,\"done\":1,\"total\":3},{\"kind\":\"replace\",\"handle\":1,\"text\":\"done\"},"
                + "{\"kind\":\"close\",\"handle\":1},{\"kind\":\"say\",\"text\":\"b\"}]");
        // The field sits after "output"; every D4 field is as it was.
        List<String> names = new java.util.ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertThat(names.subList(0, 8)).containsExactly("protocol", "execution_id", "source_id", "language", "status", "output", "events", "stack");
    }

    @Test
    void anyObjectMapperWritesTheSameObject() throws IOException {
        Outcome o = new Outcome.Suspended(new Outcome.Fields("s1-e3", "x", "forth", "", List.of(), List.of(), List.of(), List.of(),
                List.of(), 0, 1), Optional.of(new StackEntry("unit", "()")));
        String viaPlainMapper = new ObjectMapper().writeValueAsString(o);
        assertThat(viaPlainMapper).isEqualTo(FinchJson.write(o));
        var tree = new ObjectMapper().readTree(viaPlainMapper);
        assertThat(tree.get("status").asText()).isEqualTo("suspended");
        assertThat(tree.get("protocol").asText()).isEqualTo("FINCH-VM-TYPED/1");
        // D4, extended: a suspended outcome says what it waits for (here a yield, so no pending request).
        assertThat(tree.get("yielded").get("type").asText()).isEqualTo("unit");
        assertThat(tree.get("yielded").get("display").asText()).isEqualTo("()");
        assertThat(tree.get("pending_request").isNull()).isTrue();
    }

    @Test
    void checkResultHasTheD2Keys() throws IOException {
        CheckResult r = new CheckResult(CheckResult.Status.OK, "forth", List.of(new CheckResult.Definition("sq", "int -> int")),
                List.of(), List.of(), Optional.of(": sq ( int -- int ) dup * ;\n"));
        assertThat(FinchJson.write(r)).isEqualTo(
                "{\"status\":\"ok\",\"language\":\"forth\",\"definitions\":[{\"name\":\"sq\",\"signature\":\"int -> int\"}],"
                        + "\"inferred_capabilities\":[],\"diagnostics\":[]}");
    }
}
