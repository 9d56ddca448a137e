package dev.finch.ir.cap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Capability spellings: parsed into name and top-level arguments, printed canonically (decisions D9). */
class CapabilityTest {

    @Test
    void parsesNameAndArguments() {
        Capability c = Capability.parse("fs.read(${workspace}/**)").orElseThrow();
        assertThat(c.name()).isEqualTo("fs.read");
        assertThat(c.args()).containsExactly("${workspace}/**");
        assertThat(c).hasToString("fs.read(${workspace}/**)");
    }

    @Test
    void fileSpellingsAreReadAsFs() {
        assertThat(Capability.parse("file.read(/x)").orElseThrow()).isEqualTo(Capability.of("fs.read", "/x"));
        assertThat(Capability.parse("file.write(/y)").orElseThrow().toString()).isEqualTo("fs.write(/y)");
    }

    @Test
    void argumentsAreTrimmedAndSplitOnlyAtTopLevel() {
        assertThat(Capability.parse(" mcp.call( server , tool ) ").orElseThrow()).isEqualTo(Capability.of("mcp.call", "server", "tool"));
        assertThat(Capability.parse("a.b(x(y),[z,w])").orElseThrow().args()).containsExactly("x(y)", "[z,w]");
        assertThat(Capability.parse("process.run(\"a,b\",c)").orElseThrow().args()).containsExactly("\"a,b\"", "c");
    }

    @Test
    void withoutArguments() {
        assertThat(Capability.parse("session.emit")).contains(Capability.SESSION_EMIT);
        assertThat(Capability.SESSION_EMIT.args()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bad", "a.b(", "a.b(x,)", "a..b", "1a", "a.b(x))(", "a.b(x]"})
    void rejectsMalformedSpellings(String text) {
        assertThat(Capability.parse(text)).isEmpty();
    }

    @Test
    void splitTopLevelReportsUnbalancedBrackets() {
        assertThat(Capability.splitTopLevel("a,(b,c),d", ',')).containsExactly("a", "(b,c)", "d");
        assertThat(Capability.splitTopLevel("a,(b", ',')).isNull();
        assertThat(Capability.splitTopLevel("a)", ',')).isNull();
        assertThat(Capability.splitTopLevel("\"x", ',')).isNull();
        assertThat(Capability.splitTopLevel("", ',')).isEmpty();
    }

    @Test
    void ordersByCanonicalSpelling() {
        List<Capability> sorted = new java.util.ArrayList<>(List.of(Capability.SESSION_EMIT, Capability.of("fs.write", "/b"), Capability.of("fs.read", "/a")));
        java.util.Collections.sort(sorted);
        assertThat(sorted).extracting(Capability::toString).containsExactly("fs.read(/a)", "fs.write(/b)", "session.emit");
    }
}
