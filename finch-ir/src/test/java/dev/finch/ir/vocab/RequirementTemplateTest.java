package dev.finch.ir.vocab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Templates over a definition's parameters (issue 36): their spelling, their bound, and function values' types. */
class RequirementTemplateTest {
    @Test void everySlotParsesAndPrintsBack() {
        for (String text : List.of("fs.read($0)", "fs.read($0/**)", "tool.call($0,$1)", "program.invoke(language=$0)", "fs.read(${workspace}/$0)",
                "fs.write(${task.output}/$3/**)", "mcp.call(github,$1)")) {
            RequirementTemplate t = RequirementTemplate.parse(text).orElseThrow(() -> new AssertionError(text));
            assertThat(t.toString()).isEqualTo(text);
        }
        assertThat(RequirementTemplate.parse("fs.read(${workspace}/$0)").orElseThrow().args())
                .containsExactly(new RequirementTemplate.Slot.Under("workspace", 0, false));
    }

    @Test void whatNamesNoArgumentOrNamesOneWhereNoSlotIsIsNoTemplate() {
        assertThat(RequirementTemplate.parse("fs.read(${workspace}/**)")).isEmpty();
        assertThat(RequirementTemplate.parse("fs.read(${workspace}/docs/$0)")).isEmpty();
        assertThat(RequirementTemplate.mentionsArgument(Capability.parse("fs.read(${workspace}/docs/$0)").orElseThrow())).isTrue();
        assertThat(RequirementTemplate.mentionsArgument(Capability.parse("fs.read(${workspace}/**)").orElseThrow())).isFalse();
    }

    @Test void aTemplatesBoundWidensEachSlot() {
        assertThat(bound("fs.read(${workspace}/$0)")).isEqualTo("fs.read(${workspace}/**)");
        assertThat(bound("fs.write(${project}/$1/**)")).isEqualTo("fs.write(${project}/**)");
        assertThat(bound("model.ask($0)")).isEqualTo("model.ask(*)");
        assertThat(bound("tool.call(py,$1)")).isEqualTo("tool.call(py,*)");
        assertThat(bound("program.invoke(language=$0)")).isEqualTo("program.invoke(language=*)");
        assertThat(bound("process.run($0)")).isEqualTo("process.run(**)");
        assertThat(RequirementTemplate.boundOf(Capability.SESSION_EMIT)).isSameAs(Capability.SESSION_EMIT);
    }

    @Test void aFunctionValuesTypeHoldsBoundsOnly() {
        Type.Fn word = TypeSyntax.parseSignature("string -> bytes ! {fs.read(${workspace}/$0),session.emit}");
        Type.Fn value = RequirementTemplate.bounded(word);
        assertThat(value.effects()).containsExactly(Capability.parse("fs.read(${workspace}/**)").orElseThrow(), Capability.SESSION_EMIT);
        assertThat(value.ins()).isEqualTo(word.ins());
        Type.Fn plain = TypeSyntax.parseSignature("string -> bytes ! {fs.read(${workspace}/**)}");
        assertThat(RequirementTemplate.bounded(plain)).isSameAs(plain);
        assertThat(RequirementTemplate.bounded(Set.of(Capability.SESSION_EMIT))).containsExactly(Capability.SESSION_EMIT);
    }

    @Test void aSignatureWithATemplateReadsBackExactly() {
        String text = "string (string -> unit) -> bytes ! {fs.read(${workspace}/$0),model.ask($1)}";
        assertThat(TypeSyntax.parseSignature(text).toString()).isEqualTo(text);
    }

    private static String bound(String template) { return RequirementTemplate.parse(template).orElseThrow().bound().toString(); }
}
