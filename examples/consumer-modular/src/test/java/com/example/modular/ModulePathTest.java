package com.example.modular;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Launches this application as a module — {@code java --module-path … --module com.example.modular/…Main} — with
 * Finch and its libraries on the module path, nothing on the class path: {@code requires finch.core} must resolve ASM,
 * Jackson, ANTLR and vavr, and the programs must run.
 */
class ModulePathTest {
    @Test
    void theApplicationRunsOnTheModulePath() throws IOException, InterruptedException {
        // The test's own class path minus the test tools: this module's classes, Finch's modules and their libraries.
        String modulePath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.contains("test-classes") && !e.matches(".*(junit|opentest4j|apiguardian|surefire).*"))
                .collect(Collectors.joining(File.pathSeparator));
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--module-path", modulePath, "--module", "com.example.modular/com.example.modular.Main"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the application finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertEquals(List.of("completed 144", "completed 25", "completed ", "module finch.core in com.example.modular"),
                out.lines().collect(Collectors.toList()), out);
    }
}
