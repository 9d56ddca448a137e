package dev.finch.automation;

import dev.finch.vm.boundary.HostFailure;
import java.util.List;
import java.util.Objects;

/**
 * Where the {@code automation-*} words go (contract: "When desktop automation is enabled…"): a desktop the host lets
 * programs observe and drive. Each operation is authorized at the boundary under its own
 * {@code desktop.automate(OP)} before the host is called, at most once per request; the words turn the answers here
 * into the JSON text programs receive (the automation words document the shapes: {@code finch inspect automation-windows}), so every host answers in the
 * same shapes.
 *
 * <p>A session without an automation host has no desktop: {@code automation-availability} answers
 * {@code {"available":false,…}} as data without a request, and the other words fail with {@code E-HOST-013} before
 * anything is asked. {@link AwtAutomationHost} drives an X11 display with {@code java.awt.Robot}.
 *
 * <p>Implementations must be thread-safe when several sessions share them.
 */
public interface AutomationHost {
    /** A mouse button {@code automation-click} presses and releases. */
    enum Button {
        LEFT, MIDDLE, RIGHT;

        /** The lowercase name programs spell ({@code "left"}). */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** Whether the desktop can be driven now; {@code backend} names the implementation, {@code reason} says why not. */
    record Availability(boolean available, String backend, String reason) {
        public Availability { Objects.requireNonNull(backend, "backend"); }

        public static Availability yes(String backend) { return new Availability(true, backend, null); }

        public static Availability no(String backend, String reason) { return new Availability(false, backend, Objects.requireNonNull(reason, "reason")); }
    }

    /** One screen, its bounds in the desktop's virtual coordinates (where {@code automation-click} points). */
    record Display(String id, int x, int y, int width, int height, boolean primary) {
        public Display { Objects.requireNonNull(id, "id"); }

        /** Whether the point lies on this screen. */
        public boolean contains(long px, long py) { return px >= x && py >= y && px < (long) x + width && py < (long) y + height; }
    }

    /** One top-level window: the window system's id, its title and its bounds in virtual coordinates. */
    record Window(String id, String title, int x, int y, int width, int height) {
        public Window { Objects.requireNonNull(id, "id"); Objects.requireNonNull(title, "title"); }
    }

    /** The window list and what produced it (for example {@code wmctrl}). */
    record Windows(List<Window> windows, String source) {
        public Windows { windows = List.copyOf(windows); Objects.requireNonNull(source, "source"); }
    }

    /** Whether the desktop can be driven now. Never fails: a desktop that cannot be reached is "unavailable". */
    Availability availability();

    /** The screens; {@link HostFailure} ({@code E-HOST-023}) when the desktop cannot be reached. */
    List<Display> displays() throws HostFailure;

    /** The top-level windows; {@link HostFailure} when they cannot be listed. */
    Windows windows() throws HostFailure;

    /** Moves the pointer to (x, y) and clicks {@code button}; {@link HostFailure} when the point is on no screen or the click fails. */
    void click(int x, int y, Button button) throws HostFailure;

    /**
     * Types {@code text} into the focused window, a key at a time. {@link HostFailure} before any key is pressed when
     * a character cannot be typed on this desktop.
     */
    void type(String text) throws HostFailure;
}
