package dev.finch.lisp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.TypeSyntax;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Lisp sources of the shared conformance cases, lowered and compared with golden IR dumps (or diagnostics).
 * Regenerate with {@code -Dfinch.golden.update=true} (writes into src/test/resources/golden).
 */
class ConformanceGoldenTest {
    /** Host words as a session would publish them (the capability cases call them). */
    static final Environment HOST = new Environment(Support.VOCABULARY, java.util.Map.of(
            "path", TypeSyntax.parseSignature("string -> path"),
            "file-read", TypeSyntax.parseSignature("path -> bytes ! {fs.read(${workspace}/**)}")), java.util.Map.of(), java.util.List.of());

    @ParameterizedTest
    @ValueSource(strings = {"lisp-closure", "lisp-define", "lisp-hello", "lisp-match-option", "lisp-parse-error", "lisp-roundtrip",
            "lisp-top-value", "session-cross-language-1", "cap-read-granted", "cap-escape-denied"})
    void matchesGolden(String name) throws IOException {
        String source = resource("/conformance/" + name + ".lisp");
        Lowering l = new Lisp().lower(source, name + ".lisp", name.startsWith("cap-") ? HOST : Support.EMPTY);
        String actual = l.ok() ? IrDump.module(l.module().orElseThrow())
                : l.diagnostics().stream().map(Diagnostic::toString).collect(Collectors.joining("\n"));
        Path golden = Path.of("src/test/resources/golden", name + ".ir");
        if (Boolean.getBoolean("finch.golden.update")) {
            Files.writeString(golden, actual + "\n");
        }
        assertThat(actual).isEqualTo(resource("/golden/" + name + ".ir").strip());
    }

    private static String resource(String path) throws IOException {
        try (InputStream in = ConformanceGoldenTest.class.getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
