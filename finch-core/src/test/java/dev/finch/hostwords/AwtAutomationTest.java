package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Robot host on a real X11 server: an Xvfb started for the test, and a child JVM ({@link AwtAutomationChild})
 * whose {@code DISPLAY} names it. Skipped, with the reason, where Xvfb is not installed (CI installs it with
 * {@code apt-get install xvfb}).
 */
class AwtAutomationTest {
    @TempDir Path tmp;

    private static Optional<Path> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    @Test
    void theRobotHostDrivesAnXvfbDisplay() throws Exception {
        Optional<Path> xvfb = onPath("Xvfb");
        Assumptions.assumeTrue(xvfb.isPresent(), "Xvfb is not installed (apt-get install xvfb): no X11 display can be had for the Robot host");
        Assumptions.assumeFalse(System.getProperty("os.name", "").toLowerCase().matches(".*(win|mac).*"), "X11 only");
        int n = 90 + (int) (ProcessHandle.current().pid() % 500);
        Process server = new ProcessBuilder(xvfb.get().toString(), ":" + n, "-screen", "0", "1024x768x24", "-nolisten", "tcp")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("xvfb.log").toFile()).start();
        try {
            Path socket = Path.of("/tmp/.X11-unix/X" + n);
            for (int i = 0; i < 100 && !Files.exists(socket) && server.isAlive(); i++) Thread.sleep(100);
            Assumptions.assumeTrue(server.isAlive() && Files.exists(socket),
                    "Xvfb :" + n + " did not start: " + Files.readString(tmp.resolve("xvfb.log")));
            Map<String, String> out = child(":" + n);
            assertThat(out.get("(automation-availability)")).isEqualTo(q("{\"available\":true,\"backend\":\"awt-robot\"}"));
            assertThat(out.get("(automation-displays)")).as("one primary 1024x768 screen at the origin")
                    .contains("\\\"x\\\":0,\\\"y\\\":0,\\\"width\\\":1024,\\\"height\\\":768,\\\"primary\\\":true}]}");
            assertThat(out.get("(automation-click 300 200 \"left\")")).isEqualTo(q("{\"clicked\":true,\"x\":300,\"y\":200,\"button\":\"left\"}"));
            assertThat(out.get("clicks")).as("the field saw the click where the program put it").isEqualTo("1@300,200");
            assertThat(out.get("(automation-type \"Hi there!\")")).isEqualTo(q("{\"typed\":9}"));
            assertThat(out.get("text")).as("the focused field received the keys").isEqualTo("Hi there!");
            assertThat(out.get("(automation-type \"caf\\u00e9\")")).as("refused before any key").isEqualTo("failed E-HOST-023");
            assertThat(out.get("(automation-click 5000 5000 \"left\")")).isEqualTo("failed E-HOST-023");
            if (onPath("wmctrl").isPresent()) assertThat(out.get("(automation-windows)")).contains("wmctrl");
            else assertThat(out.get("(automation-windows)")).as("no window lister installed").isEqualTo("failed E-HOST-023");
        } finally {
            server.destroy();
            if (!server.waitFor(5, TimeUnit.SECONDS)) server.destroyForcibly();
        }
    }

    @Test
    void aDisplayWithoutAServerIsUnavailableEveryTime() throws Exception {
        Assumptions.assumeFalse(System.getProperty("os.name", "").toLowerCase().matches(".*(win|mac).*"), "X11 only");
        Map<String, String> out = child(":" + (7000 + (int) (ProcessHandle.current().pid() % 500)), "no-server");
        assertThat(out.get("(automation-availability)")).contains("available\\\":false").contains("awt-robot").contains("Can't connect");
        assertThat(out.get("(automation-displays)")).isEqualTo("failed E-HOST-023");
        assertThat(out.get("(string-append (automation-availability) \"\")")).as("AWT initializes once; the answer stays the same")
                .isEqualTo(out.get("(automation-availability)"));
    }

    private static String q(String json) { return dev.finch.vm.Value.of(json).display(); }

    /** Runs the child with {@code DISPLAY}; its "out PROGRAM\tANSWER" lines keyed by program, the others by their first word. */
    private Map<String, String> child(String display, String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "-Djava.awt.headless=false", "-cp", System.getProperty("java.class.path"),
                AwtAutomationChild.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile());
        pb.environment().put("DISPLAY", display);
        Process p = pb.start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        if (!done) p.destroyForcibly();
        List<String> lines = Files.readAllLines(tmp.resolve("child.log"), StandardCharsets.UTF_8);
        assertThat(done && p.exitValue() == 0).as("the child finished: %s", String.join("\n", lines)).isTrue();
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("out (")) {
                int tab = line.indexOf('\t');
                out.put(line.substring(4, tab), line.substring(tab + 1));
            } else if (line.startsWith("clicks ") || line.startsWith("text ")) {
                int sp = line.indexOf(' ');
                out.put(line.substring(0, sp), line.substring(sp + 1));
            }
        }
        assertThat(out).as(lines.stream().collect(Collectors.joining("\n"))).containsKeys("clicks", "text");
        return out;
    }
}
