package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scripted provider's file format: turns per role, the default role, placeholders, and what it refuses. */
class ScriptedProviderTest {
    private static AgentProvider.Conversation conversation(String role, AgentProvider.Message... messages) {
        return new AgentProvider.Conversation("m", role, "system", List.of(messages), List.of(), 100);
    }

    @Test void eachRoleHasItsTurnsAndTheDefaultRoleTakesTheRest() throws Exception {
        ScriptedProvider p = ScriptedProvider.parse("""
                # comment
                >>> final
                default answer
                ## role a
                >>> program lisp
                (say "x")

                >>> tool search_word
                {"query": "file"}
                >>> final
                a: {{output}} / {{status}} / {{codes}}
                """);
        assertThat(p.next(conversation("zzz")).text()).isEqualTo("default answer");
        AgentProvider.Turn first = p.next(conversation("a"));
        assertThat(first.calls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("submit_program");
            assertThat(c.argumentsJson()).isEqualTo("{\"source\":\"(say \\\"x\\\")\",\"language\":\"lisp\"}");
        });
        AgentProvider.Message t1 = new AgentProvider.AssistantTurn(first);
        AgentProvider.Message r1 = new AgentProvider.ToolResults(List.of(new AgentProvider.ToolResult("script-1",
                "{\"status\":\"failed\",\"output\":\"x\",\"diagnostics\":[{\"code\":\"E-HOST-001\"},{\"code\":\"E-X-2\"}]}")));
        AgentProvider.Turn second = p.next(conversation("a", new AgentProvider.UserText("task"), t1, r1));
        assertThat(second.calls()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("search_word"));
        AgentProvider.Turn third = p.next(conversation("a", new AgentProvider.UserText("task"), t1, r1, new AgentProvider.AssistantTurn(second), r1));
        assertThat(third.calls()).isEmpty();
        assertThat(third.text()).isEqualTo("a: x / failed / E-HOST-001,E-X-2");
        assertThatThrownBy(() -> p.next(conversation("a", t1, t1, t1))).isInstanceOf(AgentProvider.Failure.class).hasMessageContaining("has 3 turns");
    }

    @Test void malformedScriptsAreRefusedWithTheirLine() {
        assertThatThrownBy(() -> ScriptedProvider.parse("hello\n")).hasMessageContaining("line 1");
        assertThatThrownBy(() -> ScriptedProvider.parse(">>> final\nx\n## roles a\n")).hasMessageContaining("line 3");
        assertThatThrownBy(() -> ScriptedProvider.parse(">>> program cobol\n")).hasMessageContaining("cobol");
        assertThatThrownBy(() -> ScriptedProvider.parse(">>> tool\n")).hasMessageContaining("needs the tool's name");
        assertThatThrownBy(() -> ScriptedProvider.parse(">>> tool x\n[1]\n")).hasMessageContaining("one JSON object");
        assertThatThrownBy(() -> ScriptedProvider.parse("## role a\n>>> final\nx\n").next(conversation("b")))
                .isInstanceOf(AgentProvider.Failure.class).hasMessageContaining("no turns for role 'b'");
    }
}
