package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code finch run} installs the Robot desktop only when its environment names a display. */
class AutomationCliTest {
    @TempDir Path dir;

    private String run(Map<String, String> env, String... grants) throws IOException {
        Path p = dir.resolve("a.fth");
        Files.writeString(p, "automation-availability say");
        String[] args = new String[2 + 2 * grants.length];
        args[0] = "run";
        for (int i = 0; i < grants.length; i++) { args[1 + 2 * i] = "--grant"; args[2 + 2 * i] = grants[i]; }
        args[args.length - 1] = p.toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.execute(args, new ByteArrayInputStream(new byte[0]), out, new ByteArrayOutputStream(), env, false);
        return exit + " " + out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutADisplayThereIsNoDesktop() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(System.getProperty("os.name", "").toLowerCase().matches(".*(win|mac).*"),
                "DISPLAY decides only on X11 systems (Windows and macOS always have a desktop)");
        assertThat(run(Map.of())).isEqualTo("0 {\"available\":false,\"backend\":\"none\",\"reason\":\"no automation host is installed in this session\"}");
    }

    @Test
    void withADisplayTheRobotDesktopIsInstalledAndStillNeedsItsGrant() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("java.awt.headless"), "a headless JVM installs no desktop");
        assertThat(run(Map.of("DISPLAY", ":987"))).as("installed, so the operation asks first").startsWith("3 ");
        // The Robot host reads the process's own DISPLAY: whatever it answers, it is the awt-robot backend's answer.
        assertThat(run(Map.of("DISPLAY", ":987"), "desktop.automate(availability)")).startsWith("0 {\"available\":").contains("\"backend\":\"awt-robot\"");
    }
}
