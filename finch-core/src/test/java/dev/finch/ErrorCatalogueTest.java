package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.DiagnosticCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorCatalogueTest {
    /** Surefire runs in the module directory; the catalogue lives in the repository's docs. */
    private static final Path DOC = Path.of("..", "docs", "errors.md");

    @Test
    void everyCodeIsDocumentedWithItsPhase() throws IOException {
        if (Boolean.getBoolean("finch.regenerate")) Files.writeString(DOC, ErrorCatalogue.markdown(), StandardCharsets.UTF_8);
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        for (DiagnosticCode c : ErrorCatalogue.codes()) {
            assertThat(doc).as("docs/errors.md lists %s (regenerate: -Dfinch.regenerate=true)", c.code())
                    .contains("| `" + c.code() + "` | " + c.phase().spelling() + " |");
        }
    }

    @Test
    void codesAreWellFormedAndUnique() {
        Set<String> seen = new HashSet<>();
        java.util.List<String> duplicates = new java.util.ArrayList<>();
        for (DiagnosticCode c : ErrorCatalogue.codes()) {
            assertThat(c.code()).matches("E-[A-Z]+-\\d{3}");
            if (!seen.add(c.code())) duplicates.add(c.code() + " (" + c.getClass().getSimpleName() + ": " + c.meaning() + ")");
            assertThat(c.meaning()).isNotBlank();
        }
        // A code means one thing everywhere: callers match codes, never messages (decisions D4).
        assertThat(duplicates).as("codes declared twice").isEmpty();
        assertThat(seen).contains("E-SESSION-001", "E-SESSION-003");
    }
}
