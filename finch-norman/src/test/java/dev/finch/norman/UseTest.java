package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UseTest {
    @Test
    void usedFilesResolveRelativeToTheUsingFileAndLoadOnce() {
        SourceLoader files = SourceLoader.inMemory(Map.of(
                "app/lib/a.nm", "(use \"b.nm\")\n(define inc (x) (+ x one))",
                "app/lib/b.nm", "(val one 1)",
                "app/lib/c.nm", "(use \"./b.nm\")\n(define dec (x) (- x one))"));
        NormanProgram p = new Norman(files).check("(use \"lib/a.nm\")\n(use \"lib/c.nm\")\n(check-expect (inc (dec 1)) 1)", "app/main.nm");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.definitions().stream().filter(d -> d instanceof Ast.Val).count()).isEqualTo(1);
        Ast.Def one = p.definitions().stream().filter(d -> d instanceof Ast.Val).findFirst().orElseThrow();
        assertThat(one.origin().source()).isEqualTo("app/lib/b.nm");
        assertThat(p.types()).containsEntry("inc", "(Num -> Num)");
    }

    @Test
    void cyclesAreRefusedAtTheUseThatClosesThem() {
        SourceLoader files = SourceLoader.inMemory(Map.of("a.nm", "(use \"b.nm\")", "b.nm", "(val x 1)\n(use \"a.nm\")"));
        NormanProgram p = new Norman(files).check("(use \"a.nm\")", "main.nm");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-021");
            assertThat(d.origin().source()).isEqualTo("b.nm");
            assertThat(d.origin().line()).isEqualTo(2);
            assertThat(d.message()).contains("a.nm → b.nm → a.nm");
        });
    }

    @Test
    void aFileUsingItselfIsACycle() {
        NormanProgram p = new Norman(SourceLoader.inMemory(Map.of())).check("(use \"main.nm\")", "main.nm");
        assertThat(p.diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-021");
    }

    @Test
    void aMissingFileIsReported() {
        NormanProgram p = new Norman(SourceLoader.inMemory(Map.of())).check("\n  (use \"nope.nm\")", "main.nm");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-020");
            assertThat(d.origin().line()).isEqualTo(2);
            assertThat(d.origin().column()).isEqualTo(3);
        });
    }

    @Test
    void theFileSystemLoaderResolvesRelativePaths(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib/sq.nm"), "(define sq (x) (* x x))");
        Path main = dir.resolve("main.nm");
        Files.writeString(main, "(use \"lib/sq.nm\")\n(check-expect (sq 3) 9)");
        NormanProgram p = new Norman().check(Files.readString(main), main.toString());
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("sq", "(Num -> Num)");
    }
}
