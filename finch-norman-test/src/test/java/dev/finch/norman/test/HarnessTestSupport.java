package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.SourceLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** What the harness tests share: one harness per class, resources, and running a file that must load. */
abstract class HarnessTestSupport {
    static TestHarness harness;

    @BeforeAll static void start() { harness = new TestHarness(SourceLoader.inMemory(Map.of())); }

    @AfterAll static void stop() { harness.close(); }

    static String resource(String name) {
        try (InputStream in = HarnessTestSupport.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static List<String> messages(FileReport r) { return r.results().stream().map(t -> t.name() + ": " + t.passed() + " " + t.message()).toList(); }

    static FileReport run(String text) {
        FileReport r = harness.runAll(text, "t.nm");
        assertThat(r.diagnostics()).isEmpty();
        return r;
    }
}
