package dev.finch.automation;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@link AutomationHost} on {@code java.awt.Robot}: the pointer and keyboard of the display this JVM can reach
 * (on Linux, the X11 server {@code DISPLAY} names). AWT is loaded only when an operation is first performed, never by
 * constructing the host; with {@code DISPLAY} unset (on Linux) or a headless JVM, the host answers "unavailable" and
 * every other operation fails with {@code E-HOST-023}.
 *
 * <p>Robot cannot list windows: {@link #windows} reads {@code wmctrl -lG} when {@code wmctrl} is on the {@code PATH}
 * (bounded in time and output) and fails with {@code E-HOST-023} otherwise. Typing presses keys of a US keyboard
 * layout, so it types printable ASCII, newline and tab; any other character is refused before a key is pressed.
 */
public final class AwtAutomationHost implements AutomationHost {
    /** The backend name availability reports. */
    public static final String BACKEND = "awt-robot";

    private static final long LISTER_TIMEOUT_SECONDS = 5;
    private static final int MAX_LISTER_OUTPUT = 1 << 20;

    private final String display;
    private Desktop desktop;
    /** Why AWT could not reach the display, once it failed: AWT does not initialize twice in one JVM. */
    private String failure;

    /** A host over the display of this process's environment ({@code DISPLAY}). */
    public AwtAutomationHost() { this(System.getenv("DISPLAY")); }

    AwtAutomationHost(String display) { this.display = display; }

    /**
     * Whether this process may have a display to drive, decided without loading AWT: not a headless JVM, and on Linux
     * (and other X11 systems) a {@code DISPLAY} in {@code env}. The command line installs the host only then.
     */
    public static boolean displayLikely(java.util.Map<String, String> env) {
        if (Boolean.getBoolean("java.awt.headless")) return false;
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (os.contains("win") || os.contains("mac")) return true;
        String d = env.get("DISPLAY");
        return d != null && !d.isBlank();
    }

    @Override public synchronized Availability availability() {
        Optional<String> why = unreachable();
        if (why.isPresent()) return Availability.no(BACKEND, why.get());
        return Availability.yes(BACKEND);
    }

    @Override public synchronized List<Display> displays() throws HostFailure { return desktop().displays(); }

    @Override public synchronized Windows windows() throws HostFailure {
        desktop();
        Path wmctrl = onPath("wmctrl").orElseThrow(() -> new HostFailure(HostCode.AUTOMATION,
                "listing windows needs wmctrl, which is not on the PATH (java.awt.Robot cannot list windows)"));
        return new Windows(parseWmctrl(run(wmctrl, "-lG")), "wmctrl");
    }

    @Override public synchronized void click(int x, int y, Button button) throws HostFailure {
        Desktop d = desktop();
        if (d.displays().stream().noneMatch(s -> s.contains(x, y))) {
            throw new HostFailure(HostCode.AUTOMATION, "(" + x + ", " + y + ") is on no screen (automation-displays lists their bounds)");
        }
        d.click(x, y, button);
    }

    @Override public synchronized void type(String text) throws HostFailure {
        int[][] keys = Keys.of(text);
        desktop().type(keys);
    }

    /** Why the display cannot be driven, if it cannot; AWT is touched only once the environment makes a display possible. */
    private Optional<String> unreachable() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        boolean x11 = !os.contains("win") && !os.contains("mac");
        if (Boolean.getBoolean("java.awt.headless")) return Optional.of("this JVM is headless (java.awt.headless=true)");
        if (x11 && (display == null || display.isBlank())) return Optional.of("no display: DISPLAY is not set");
        if (failure != null) return Optional.of(failure);
        try {
            if (desktop == null) desktop = new Desktop();
            return Optional.empty();
        } catch (HostFailure f) {
            failure = f.getMessage();
            return Optional.of(failure);
        }
    }

    private Desktop desktop() throws HostFailure {
        Optional<String> why = unreachable();
        if (why.isPresent()) throw new HostFailure(HostCode.AUTOMATION, "the desktop cannot be reached: " + why.get());
        return desktop;
    }

    /** The AWT side, in its own class so that nothing of AWT is loaded before the first operation. */
    private static final class Desktop {
        private final java.awt.Robot robot;

        Desktop() throws HostFailure {
            try {
                if (java.awt.GraphicsEnvironment.isHeadless()) throw new HostFailure(HostCode.AUTOMATION, "AWT reports a headless environment");
                robot = new java.awt.Robot();
                robot.setAutoDelay(5);
            } catch (java.awt.AWTException | RuntimeException | java.awt.AWTError | LinkageError e) {
                // RuntimeException: HeadlessException, SecurityException; LinkageError: a toolkit whose initialization failed.
                Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
                throw new HostFailure(HostCode.AUTOMATION, "java.awt.Robot is not available: " + cause.getMessage());
            }
        }

        List<Display> displays() {
            var env = java.awt.GraphicsEnvironment.getLocalGraphicsEnvironment();
            var primary = env.getDefaultScreenDevice();
            List<Display> out = new ArrayList<>();
            for (var device : env.getScreenDevices()) {
                var b = device.getDefaultConfiguration().getBounds();
                out.add(new Display(device.getIDstring(), b.x, b.y, b.width, b.height, device == primary));
            }
            return out;
        }

        void click(int x, int y, Button button) {
            int mask = java.awt.event.InputEvent.getMaskForButton(switch (button) {
                case LEFT -> 1;
                case MIDDLE -> 2;
                case RIGHT -> 3;
            });
            robot.mouseMove(x, y);
            robot.mousePress(mask);
            robot.mouseRelease(mask);
            robot.waitForIdle();
        }

        void type(int[][] keys) {
            for (int[] k : keys) {
                if (k[1] != 0) robot.keyPress(java.awt.event.KeyEvent.VK_SHIFT);
                robot.keyPress(k[0]);
                robot.keyRelease(k[0]);
                if (k[1] != 0) robot.keyRelease(java.awt.event.KeyEvent.VK_SHIFT);
            }
            robot.waitForIdle();
        }
    }

    /** US-layout key codes (the values of {@code java.awt.event.KeyEvent.VK_…}, fixed by the platform) without loading AWT. */
    static final class Keys {
        private Keys() { }

        private static final String UNSHIFTED = "`-=[]\\;',./";
        private static final String SHIFTED = "~_+{}|:\"<>?";
        private static final int[] PUNCTUATION = {0xC0, 0x2D, 0x3D, 0x5B, 0x5D, 0x5C, 0x3B, 0xDE, 0x2C, 0x2E, 0x2F};
        private static final String SHIFTED_DIGITS = ")!@#$%^&*(";

        /** {keycode, shift} per character, or a failure naming the first character a US keyboard cannot type. */
        static int[][] of(String text) throws HostFailure {
            int[][] out = new int[text.length()][];
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                int[] k = key(c);
                if (k == null) {
                    int cp = text.codePointAt(i);
                    throw new HostFailure(HostCode.AUTOMATION, String.format("U+%04X cannot be typed: java.awt.Robot types the keys of a US "
                            + "keyboard (printable ASCII, newline, tab); nothing was typed", cp));
                }
                out[i] = k;
            }
            return out;
        }

        private static int[] key(char c) {
            if (c >= 'a' && c <= 'z') return new int[] {'A' + (c - 'a'), 0};
            if (c >= 'A' && c <= 'Z') return new int[] {c, 1};
            if (c >= '0' && c <= '9') return new int[] {c, 0};
            if (c == ' ') return new int[] {0x20, 0};
            if (c == '\n') return new int[] {0x0A, 0};
            if (c == '\t') return new int[] {0x09, 0};
            int u = UNSHIFTED.indexOf(c);
            if (u >= 0) return new int[] {PUNCTUATION[u], 0};
            int s = SHIFTED.indexOf(c);
            if (s >= 0) return new int[] {PUNCTUATION[s], 1};
            int d = SHIFTED_DIGITS.indexOf(c);
            if (d >= 0) return new int[] {'0' + d, 1};
            return null;
        }
    }

    private static final Pattern WMCTRL_LINE =
            Pattern.compile("(0x[0-9a-fA-F]+)\\s+(-?\\d+)\\s+(-?\\d+)\\s+(-?\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)(?: (.*))?");

    /** The windows of {@code wmctrl -lG} output: id, desktop, x, y, width, height, client machine, title; other lines are skipped. */
    static List<Window> parseWmctrl(String output) {
        List<Window> out = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher m = WMCTRL_LINE.matcher(line.stripTrailing());
            if (!m.matches()) continue;
            try {
                out.add(new Window(m.group(1), m.group(8) == null ? "" : m.group(8), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)),
                        Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6))));
            } catch (NumberFormatException outOfRange) {
                // a coordinate past int: not a window a click could reach; skipped
            }
        }
        return out;
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) return Optional.empty();
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    /** Runs the lister directly (no shell) with a deadline and an output bound; its stdout as UTF-8. */
    private static String run(Path exe, String... args) throws HostFailure {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(List.of(args));
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("finch-windows", ".txt");
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(out.toFile()).start();
            if (!p.waitFor(LISTER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) throw new HostFailure(HostCode.AUTOMATION, exe + " did not finish in 5 s");
            if (p.exitValue() != 0) throw new HostFailure(HostCode.AUTOMATION, exe + " failed with exit code " + p.exitValue());
            if (Files.size(out) > MAX_LISTER_OUTPUT) throw new HostFailure(HostCode.AUTOMATION, exe + " wrote more than 1 MiB");
            return new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new HostFailure(HostCode.AUTOMATION, "cannot run " + exe + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostFailure(HostCode.AUTOMATION, exe + " was interrupted");
        } finally {
            if (p != null) p.destroyForcibly();
            if (out != null) {
                try { Files.deleteIfExists(out); } catch (IOException ignored) { /* a temp file; best effort */ }
            }
        }
    }
}
