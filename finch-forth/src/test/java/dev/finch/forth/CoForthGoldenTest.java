package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.instr.Module;
import dev.finch.ir.print.CoForthPrinter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: each {@code golden/NAME.fth} lowers to the IR dump in {@code NAME.ir} and prints as the canonical
 * Co-Forth in {@code NAME.canon.fth}. Regenerate with {@code -Dfinch.golden.update=true}.
 */
class CoForthGoldenTest {
    private static final Path DIR = Path.of("src/test/resources/golden");
    private static final boolean UPDATE = Boolean.getBoolean("finch.golden.update");

    static Stream<String> programs() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".fth") && !n.endsWith(".canon.fth"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("programs")
    void lowersToTheGoldenIrAndCanonicalText(String name) throws IOException {
        String source = Files.readString(DIR.resolve(name + ".fth"));
        Lowering lowering = new CoForth().lower(source, name + ".fth", Ir.ENV);
        assertThat(lowering.diagnostics()).isEmpty();
        Module module = lowering.module().orElseThrow();

        check(DIR.resolve(name + ".ir"), Ir.dump(module));
        String canonical = CoForthPrinter.print(module);
        check(DIR.resolve(name + ".canon.fth"), canonical);

        Lowering again = new CoForth().lower(canonical, name + ".canon.fth", Ir.ENV);
        assertThat(again.diagnostics()).isEmpty();
        assertThat(Ir.erase(again.module().orElseThrow())).isEqualTo(Ir.erase(module));
    }

    private static void check(Path file, String actual) throws IOException {
        if (UPDATE || !Files.exists(file)) Files.writeString(file, actual, StandardCharsets.UTF_8);
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
}
