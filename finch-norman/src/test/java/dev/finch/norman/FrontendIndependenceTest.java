package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Decisions D1: finch-norman may depend on the verifier and the VM for its test harness only. No class of the
 * frontend package (dev.finch.norman, not its harness or junit subpackages) refers to either.
 */
class FrontendIndependenceTest {
    @Test void theFrontendPackageUsesNeitherTheVerifierNorTheVm() throws IOException, URISyntaxException {
        Path dir = Path.of(Norman.class.getResource("Norman.class").toURI()).getParent();
        List<Path> classes;
        try (Stream<Path> s = Files.list(dir)) {
            classes = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(classes).hasSizeGreaterThan(10);
        for (Path c : classes) {
            // Class references appear in the constant pool as internal names.
            String pool = new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1);
            assertThat(pool).as(c.getFileName().toString()).doesNotContain("dev/finch/vm/").doesNotContain("dev/finch/verifier/")
                    .doesNotContain("org/junit/");
        }
    }
}
