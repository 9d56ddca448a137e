package dev.finch.capabilities;

import dev.finch.ir.diag.Diagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Escape attempts against the refinement a program's {@code (path "…")} goes through (reliability.md row 13). Each
 * is either refused with its code, or kept as literal names strictly inside the root.
 */
class HostilePathTest {

    /** (input, expected code, or null when the input is kept, then the literal segments it must become). */
    static final List<Object[]> CORPUS = new ArrayList<>();

    private static void refused(String input, CapabilityCode code) { CORPUS.add(new Object[]{input, code, List.of()}); }

    private static void literal(String input, String... segments) { CORPUS.add(new Object[]{input, null, List.of(segments)}); }

    static {
        refused("..", CapabilityCode.PATH_PARENT);
        refused("../x", CapabilityCode.PATH_PARENT);
        refused("../../x", CapabilityCode.PATH_PARENT);
        refused("a/../../b", CapabilityCode.PATH_PARENT);
        refused("a/..", CapabilityCode.PATH_PARENT);
        refused("src/../../outside", CapabilityCode.PATH_PARENT);
        refused("/etc/passwd", CapabilityCode.PATH_ABSOLUTE);
        refused("/", CapabilityCode.PATH_ABSOLUTE);
        refused("//etc/passwd", CapabilityCode.PATH_ABSOLUTE);
        refused("a\u0000b", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("\u0000", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("notes/n.txt\u0000.png", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("./.", CapabilityCode.PATH_DOT);
        refused("./x", CapabilityCode.PATH_DOT);
        refused("a/./b", CapabilityCode.PATH_DOT);
        refused("a//b", CapabilityCode.PATH_EMPTY_SEGMENT);
        refused("a/", CapabilityCode.PATH_EMPTY_SEGMENT);
        refused("", CapabilityCode.PATH_EMPTY_SEGMENT);
        refused("file:///etc/passwd", CapabilityCode.PATH_EMPTY_SEGMENT);
        refused("x".repeat(256), CapabilityCode.PATH_TOO_LONG);
        refused("\u00e9".repeat(128), CapabilityCode.PATH_TOO_LONG);
        refused("a/".repeat(2100) + "a", CapabilityCode.PATH_TOO_LONG);
        refused("a\nb", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("a\rb", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("a\tb", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("\u001b[2Jx", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("\u202etxt.exe", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("\u200b..", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("\ufeffa", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("a\ud800b", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("x\u2028y", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused(" ..", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused(".. ", CapabilityCode.PATH_FORBIDDEN_CHAR);
        refused("a/*", CapabilityCode.PATH_RESERVED_CHAR);
        refused("**", CapabilityCode.PATH_RESERVED_CHAR);
        refused("a?", CapabilityCode.PATH_RESERVED_CHAR);
        refused("${workspace}/x", CapabilityCode.PATH_RESERVED_CHAR);
        refused("${host-machine}/etc/passwd", CapabilityCode.PATH_RESERVED_CHAR);
        refused("x,y", CapabilityCode.PATH_RESERVED_CHAR);
        refused("a)b", CapabilityCode.PATH_RESERVED_CHAR);

        literal("%2e%2e", "%2e%2e");
        literal("%2e%2e/%2fetc%2fpasswd", "%2e%2e", "%2fetc%2fpasswd");
        literal("..\\..\\x", "..\\..\\x");
        literal("~", "~");
        literal("~/.ssh/id_rsa", "~", ".ssh", "id_rsa");
        literal("~root", "~root");
        literal("...", "...");
        literal("....", "....");
        literal("\uff0e\uff0e/x", "\uff0e\uff0e", "x");
        literal("\u2024\u2024", "\u2024\u2024");
        literal("caf\u00e9", "caf\u00e9");
        literal("cafe\u0301", "cafe\u0301");
        literal("C:\\Windows\\system32", "C:\\Windows\\system32");
        literal("\\\\server\\share", "\\\\server\\share");
        literal("$HOME/x", "$HOME", "x");
        literal("%00", "%00");
        literal("..%c0%af", "..%c0%af");
        literal(".hidden", ".hidden");
        literal("a b", "a b");
        literal("x".repeat(255), "x".repeat(255));
        literal("notes/n.txt", "notes", "n.txt");
    }

    static Stream<Arguments> corpus() {
        return CORPUS.stream().map(r -> Arguments.of(printable((String) r[0]), r[0], r[1], r[2]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    @SuppressWarnings("unchecked")
    void refusedOrKeptLiteralInsideTheRoot(String label, String input, CapabilityCode code, List<String> segments) {
        Attempt<ConcretePath> a = ConcretePath.of(Root.WORKSPACE, input);
        if (code != null) {
            assertThat(a.isOk()).as("must be refused: " + label).isFalse();
            Diagnostic d = a.refusal().orElseThrow();
            assertThat(d.code()).isEqualTo(code.code());
            assertThat(d.phase()).isEqualTo(code.phase());
            assertThat(d.message()).isNotBlank();
            // A diagnostic never carries the raw invisible characters it complains about.
            if (d.found() != null) assertThat(d.found()).doesNotContain("\u0000", "\u202e", "\u001b");
            // The same text is refused as a grant selector too (wildcards alone are legal in selectors).
            if (!input.contains("*") && !input.contains("?"))
                assertThat(PathPattern.parse("${workspace}/" + input).isOk()).isFalse();
        } else {
            assertThat(a.refusals()).as(label).isEmpty();
            ConcretePath p = a.value();
            assertThat(p.root()).isEqualTo(Root.WORKSPACE);
            assertThat(p.segments()).isEqualTo(segments);
            assertThat(p.segments()).noneMatch(s -> s.equals("..") || s.equals(".") || s.isEmpty() || s.contains("/"));
            assertThat(PathPattern.parse("${workspace}/**").value().matches(p)).isTrue();
            assertThat(PathPattern.parse("${host-machine}/**").value().matches(p)).isFalse();
            // Printing and reading back keeps exactly the same names.
            assertThat(ConcretePath.parse(p.toString()).value()).isEqualTo(p);
        }
    }

    @Test
    void corpusHasAtLeastFortyEscapeAttempts() {
        assertThat(CORPUS).hasSizeGreaterThanOrEqualTo(40);
        assertThat(CORPUS.stream().filter(r -> r[1] != null)).hasSizeGreaterThanOrEqualTo(40);
    }

    @Test
    void nfcAndNfdStayDistinct() {
        ConcretePath nfc = ConcretePath.of(Root.WORKSPACE, "caf\u00e9").value();
        ConcretePath nfd = ConcretePath.of(Root.WORKSPACE, "cafe\u0301").value();
        assertThat(nfc).isNotEqualTo(nfd);
        assertThat(PathPattern.of(nfc).matches(nfd)).isFalse();
    }

    @Test
    void dotAloneNamesTheRootAndNothingElse() {
        ConcretePath root = ConcretePath.of(Root.PROJECT, ".").value();
        assertThat(root.segments()).isEmpty();
        assertThat(root.toString()).isEqualTo("${project}");
        assertThat(root.relative()).isEqualTo(".");
        assertThat(PathPattern.parse("${project}/*").value().matches(root)).isFalse();
        assertThat(PathPattern.parse("${project}/**").value().matches(root)).isTrue();
    }

    @Test
    void concreteSelectorsRefuseEscapesToo() {
        for (String s : List.of("${workspace}/../x", "${workspace}/a/../../b", "/etc/passwd", "${workspace}//x",
                "${home}/x", "${workspace}x", "~/x", "${workspace}/a*", "${workspace}/a\u0000"))
            assertThat(ConcretePath.parse(s).isOk()).as(printable(s)).isFalse();
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(40).forEach(cp -> {
            if (cp < 0x20 || cp > 0x7e) b.append(String.format("\\u%04x", cp));
            else b.appendCodePoint(cp);
        });
        if (s.isEmpty()) return "<empty>";
        return s.length() > 40 ? b + "…(" + s.length() + ")" : b.toString();
    }
}
