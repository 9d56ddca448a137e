package dev.finch.capabilities;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class ContainmentTableTest {

    /** (outer, inner, outer contains inner). */
    static final List<Object[]> TABLE = List.of(
            row("${workspace}/**", "${workspace}/a", true),
            row("${workspace}/**", "${workspace}", true),
            row("${workspace}/**", "${workspace}/**", true),
            row("${workspace}/*", "${workspace}/**", false),
            row("${workspace}/**", "${workspace}/*", true),
            row("${workspace}/*", "${workspace}/a", true),
            row("${workspace}/*", "${workspace}/a/b", false),
            row("${workspace}/*", "${workspace}", false),
            row("${workspace}/a*", "${workspace}/ab*", true),
            row("${workspace}/ab*", "${workspace}/a*", false),
            row("${workspace}/**/x", "${workspace}/a/**/x", true),
            row("${workspace}/a/**/x", "${workspace}/**/x", false),
            row("${workspace}/**", "${project}/a", false),
            row("${project}/**", "${workspace}/a", false),
            row("${host-machine}/**", "${workspace}/a", false),
            row("${workspace}/**", "${host-machine}/**", false),
            row("${workspace}/**", "${task.output}", false),
            row("${task.output}/**", "${task.output}/r/s", true),
            row("${workspace}/src/**", "${workspace}/src/main/A.java", true),
            row("${workspace}/src/**", "${workspace}/srcx/A.java", false),
            row("${workspace}/src/**", "${workspace}/src", true),
            row("${workspace}/src/**", "${workspace}", false),
            row("${workspace}/*.java", "${workspace}/A.java", true),
            row("${workspace}/*.java", "${workspace}/A.javax", false),
            row("${workspace}/*.java", "${workspace}/*.java", true),
            row("${workspace}/*", "${workspace}/*.java", true),
            row("${workspace}/*.java", "${workspace}/*", false),
            row("${workspace}/?", "${workspace}/a", true),
            row("${workspace}/?", "${workspace}/ab", false),
            row("${workspace}/?*", "${workspace}/*", true),
            row("${workspace}/*", "${workspace}/?", true),
            row("${workspace}/??", "${workspace}/*", false),
            row("${workspace}/a*b", "${workspace}/ab", true),
            row("${workspace}/a*b", "${workspace}/a*b*b", true),
            row("${workspace}/a*b", "${workspace}/a*c", false),
            row("${workspace}/*a*", "${workspace}/*ab*", true),
            row("${workspace}/*ab*", "${workspace}/*a*", false),
            row("${workspace}/*a*b*", "${workspace}/*ab*", true),
            row("${workspace}/*ab*", "${workspace}/*a*b*", false),
            row("${workspace}/**/*.md", "${workspace}/docs/x/y.md", true),
            row("${workspace}/**/*.md", "${workspace}/y.md", true),
            row("${workspace}/**/*.md", "${workspace}/docs/**", false),
            row("${workspace}/docs/**", "${workspace}/docs/**/*.md", true),
            row("${workspace}/**/a/**", "${workspace}/x/a/y", true),
            row("${workspace}/**/a/**", "${workspace}/**/a/b/**", true),
            row("${workspace}/**/a/**", "${workspace}/**/b/**", false),
            row("${workspace}/*/**", "${workspace}/**", false),
            row("${workspace}/*/**", "${workspace}/a/**", true),
            row("${workspace}/**/**", "${workspace}/**", true),
            row("${workspace}/**", "${workspace}/**/**", true),
            row("${workspace}/a/b", "${workspace}/a/b", true),
            row("${workspace}/a/b", "${workspace}/a/c", false),
            row("${workspace}/a/b", "${workspace}/a/*", false),
            row("${workspace}", "${workspace}", true),
            row("${workspace}", "${workspace}/a", false),
            row("${workspace}/caf\u00e9", "${workspace}/cafe\u0301", false),
            row("${workspace}/cafe\u0301", "${workspace}/caf\u00e9", false),
            row("${workspace}/*x", "${workspace}/..\\..\\x", true),
            row("${workspace}/..\\*", "${workspace}/..\\..\\x", true),
            row("${workspace}/a/*/c", "${workspace}/a/**/c", false),
            row("${workspace}/a/**/c", "${workspace}/a/*/c", true),
            row("${workspace}/**/c", "${workspace}/a/*/c", true),
            row("${workspace}/*/*/c", "${workspace}/*/*/c", true),
            row("${workspace}/x/**", "${workspace}/x/**/y/**", true),
            row("${workspace}/**/x/**/y", "${workspace}/x/y", true),
            row("${workspace}/**/x/**/y", "${workspace}/y/x", false),
            row("${workspace}/a?c", "${workspace}/abc", true),
            row("${workspace}/a?c", "${workspace}/a*c", false),
            row("${workspace}/a*c", "${workspace}/a?c", true),
            row("${workspace}/A*", "${workspace}/a*", false),
            row("${workspace}/*/b/**", "${workspace}/a/b", true),
            row("${workspace}/*.*", "${workspace}/a.b.c", true),
            row("${workspace}/*.*.*", "${workspace}/*.*", false),
            row("${workspace}/*.*", "${workspace}/*.*.*", true),
            row("${workspace}/**/a", "${workspace}/**/*a", false),
            row("${workspace}/**/*a", "${workspace}/**/a", true),
            row("${workspace}/*/**/x", "${workspace}/**/x", false),
            row("${workspace}/**/x", "${workspace}/*/**/x", true),
            row("${workspace}/**/?", "${workspace}/**/*", false),
            row("${workspace}/**/*", "${workspace}/**", false),
            row("${workspace}/**/*", "${workspace}/*/**", true),
            row("${workspace}/~/**", "${workspace}/~/.ssh/id_rsa", true),
            row("${workspace}/.*", "${workspace}/.git", true),
            row("${workspace}/.*", "${workspace}/git", false));

    private static Object[] row(String outer, String inner, boolean expected) { return new Object[]{outer, inner, expected}; }

    static Stream<Arguments> table() { return TABLE.stream().map(Arguments::of); }

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @MethodSource("table")
    void containment(String outer, String inner, boolean expected) {
        PathPattern o = PathPattern.parse(outer).value();
        PathPattern i = PathPattern.parse(inner).value();
        assertThat(o.contains(i)).isEqualTo(expected);
        // The same answer through grants: fs.read(outer) permits fs.read(inner) exactly when contained.
        CapabilitySpec g = CapabilitySpec.parse("fs.read(" + outer + ")").value();
        assertThat(g.contains(CapabilitySpec.parse("fs.read(" + inner + ")").value())).isEqualTo(expected);
        if (i.isConcrete()) assertThat(o.matches(ConcretePath.parse(inner).value())).isEqualTo(expected);
    }

    @Test
    void tableIsLargeEnoughAndBalanced() {
        assertThat(TABLE).hasSizeGreaterThanOrEqualTo(60);
        long yes = TABLE.stream().filter(r -> (Boolean) r[2]).count();
        assertThat(yes).isBetween(20L, TABLE.size() - 20L);
    }

    @Test
    void processAndMemorySelectorsUseTheSameLogic() {
        CapabilitySpec bin = CapabilitySpec.parse("process.run(/usr/bin/*)").value();
        assertThat(bin.contains(CapabilitySpec.parse("process.run(/usr/bin/git)").value())).isTrue();
        assertThat(bin.contains(CapabilitySpec.parse("process.run(/usr/bin/x/git)").value())).isFalse();
        assertThat(bin.contains(CapabilitySpec.parse("process.run(**)").value())).isFalse();
        CapabilitySpec any = CapabilitySpec.parse("process.run(**)").value();
        assertThat(any.contains(bin)).isTrue();
        CapabilitySpec mem = CapabilitySpec.parse("memory.read(tree=session,path=notes/**)").value();
        assertThat(mem.contains(CapabilitySpec.parse("memory.read(tree=session,path=notes/*/x)").value())).isTrue();
        assertThat(mem.contains(CapabilitySpec.parse("memory.read(tree=session,path=**)").value())).isFalse();
    }
}
