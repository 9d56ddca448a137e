package dev.finch.automation.words;

import dev.finch.automation.AutomationHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.CapabilitySpec;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.List;

/**
 * The desktop automation words (contract: "When desktop automation is enabled…"), each under its own
 * {@code desktop.automate(OP)} and answered by the run's {@link AutomationHost}. Each answers its operation's result
 * serialized as JSON text, in these shapes (keys in this order):
 *
 * <ul>
 *   <li>{@code automation-availability}: {@code {"available":true,"backend":"awt-robot"}} or
 *       {@code {"available":false,"backend":"…","reason":"…"}};</li>
 *   <li>{@code automation-displays}: {@code {"displays":[{"id":":0.0","x":0,"y":0,"width":1280,"height":1024,"primary":true}]}};</li>
 *   <li>{@code automation-windows}: {@code {"source":"wmctrl","windows":[{"id":"0x…","title":"…","x":…,"y":…,"width":…,"height":…}]}};</li>
 *   <li>{@code automation-click} (x, y, button): {@code {"clicked":true,"x":10,"y":20,"button":"left"}};</li>
 *   <li>{@code automation-type} (text): {@code {"typed":5}}, the number of characters (code points) typed.</li>
 * </ul>
 *
 * Arguments are checked first ({@code E-HOST-007}, nothing asked); then availability: without an automation host
 * (and not in deferred-host mode) {@code automation-availability} answers {@code "available":false} as data without a
 * request and the others fail with {@code E-HOST-013} before any request. Then the boundary: the request waits for
 * approval when its operation is not granted, and the host is called only once it is authorized.
 */
public final class AutomationWords {
    private AutomationWords() { }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The largest coordinate either way: far past any desktop, small enough that no arithmetic on it overflows. */
    static final long MAX_COORDINATE = 1_000_000;

    /** The most characters one {@code automation-type} types. */
    static final int MAX_TYPED = 10_000;

    @Word(name = "automation-availability", category = Category.PROCESS,
            doc = "Whether the desktop can be driven, as JSON text {\"available\":bool,\"backend\":string,\"reason\"?:string}; "
                    + "without an automation host, {\"available\":false,…} at once, asking nothing.")
    @Overload(sig = "-> string ! {desktop.automate(availability)}")
    public static Object availability(Ctx ctx, Type.Fn site, Origin o) {
        if (host(ctx) == null && !dev.finch.vm.boundary.RunHost.of(ctx).config().deferred() && !ctx.takeResumePeek()) {
            return availabilityJson(AutomationHost.Availability.no("none", "no automation host is installed in this session"));
        }
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "automation-availability", requirement("availability"), EffectRequest.inputs(site), site.outs(), o,
                () -> availabilityJson(installed(ctx).availability()));
    }

    @Word(name = "automation-displays", category = Category.PROCESS,
            doc = "The screens, as JSON text {\"displays\":[{\"id\",\"x\",\"y\",\"width\",\"height\",\"primary\"}]} in desktop coordinates.")
    @Overload(sig = "-> string ! {desktop.automate(displays)}")
    public static Object displays(Ctx ctx, Type.Fn site, Origin o) {
        available(ctx, "automation-displays", o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "automation-displays", requirement("displays"), EffectRequest.inputs(site), site.outs(), o, () -> {
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("displays");
            for (AutomationHost.Display d : installed(ctx).displays()) {
                list.addObject().put("id", d.id()).put("x", d.x()).put("y", d.y()).put("width", d.width()).put("height", d.height())
                        .put("primary", d.primary());
            }
            return out.toString();
        });
    }

    @Word(name = "automation-windows", category = Category.PROCESS,
            doc = "The top-level windows, as JSON text {\"source\":string,\"windows\":[{\"id\",\"title\",\"x\",\"y\",\"width\",\"height\"}]}.")
    @Overload(sig = "-> string ! {desktop.automate(windows)}")
    public static Object windows(Ctx ctx, Type.Fn site, Origin o) {
        available(ctx, "automation-windows", o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "automation-windows", requirement("windows"), EffectRequest.inputs(site), site.outs(), o, () -> {
            AutomationHost.Windows w = installed(ctx).windows();
            ObjectNode out = JSON.createObjectNode();
            out.put("source", w.source());
            ArrayNode list = out.putArray("windows");
            for (AutomationHost.Window win : w.windows()) {
                list.addObject().put("id", win.id()).put("title", win.title()).put("x", win.x()).put("y", win.y())
                        .put("width", win.width()).put("height", win.height());
            }
            return out.toString();
        });
    }

    @Word(name = "automation-click", category = Category.PROCESS,
            doc = "Click a mouse button (\"left\", \"middle\" or \"right\") at x y in desktop coordinates; JSON text "
                    + "{\"clicked\":true,\"x\",\"y\",\"button\"}.")
    @Overload(sig = "int int string -> string ! {desktop.automate(click)}")
    public static Object click(Ctx ctx, long x, long y, String button, Type.Fn site, Origin o) {
        if (Math.abs(x) > MAX_COORDINATE || Math.abs(y) > MAX_COORDINATE) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "automation-click takes coordinates from -1000000 to 1000000, not " + x + " " + y);
        }
        AutomationHost.Button b = button(button, o);
        available(ctx, "automation-click", o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "automation-click", requirement("click"), EffectRequest.inputs(site, x, y, button), site.outs(), o, () -> {
            installed(ctx).click((int) x, (int) y, b);
            return JSON.createObjectNode().put("clicked", true).put("x", x).put("y", y).put("button", b.spelling()).toString();
        });
    }

    @Word(name = "automation-type", category = Category.PROCESS,
            doc = "Type text into the focused window (at most 10,000 characters; newline and tab are keys, other control characters are refused); "
                    + "JSON text {\"typed\":count}.")
    @Overload(sig = "string -> string ! {desktop.automate(type)}")
    public static Object type(Ctx ctx, String text, Type.Fn site, Origin o) {
        int count = text.codePointCount(0, text.length());
        if (count > MAX_TYPED) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "automation-type types at most 10000 characters, not " + count);
        text.codePoints().filter(c -> Character.isISOControl(c) && c != '\n' && c != '\t').findFirst().ifPresent(c -> {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, String.format("automation-type cannot type the control character U+%04X", c));
        });
        available(ctx, "automation-type", o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "automation-type", requirement("type"), EffectRequest.inputs(site, text), site.outs(), o, () -> {
            installed(ctx).type(text);
            return JSON.createObjectNode().put("typed", count).toString();
        });
    }

    private static AutomationHost.Button button(String spelling, Origin o) {
        for (AutomationHost.Button b : AutomationHost.Button.values()) if (b.spelling().equals(spelling)) return b;
        throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "automation-click takes the button \"left\", \"middle\" or \"right\", not \""
                + (spelling.length() > 20 ? spelling.substring(0, 20) + "…" : spelling) + "\"");
    }

    /** {@code desktop.automate(op)}: the one requirement each word has, from the one list of operations. */
    private static Capability requirement(String op) {
        if (!CapabilitySpec.DesktopAutomate.OPERATIONS.contains(op)) throw new IllegalArgumentException(op);
        return Capability.of("desktop.automate", op);
    }

    private static AutomationHost host(Ctx ctx) { return dev.finch.vm.boundary.RunHost.of(ctx).config().binding(AutomationHost.class); }

    /** Availability before authorization: a prompt to approve a click on a desktop that is not there would ask for nothing. */
    private static void available(Ctx ctx, String word, Origin o) {
        if (host(ctx) != null || dev.finch.vm.boundary.RunHost.of(ctx).config().deferred() || ctx.takeResumePeek()) return;
        throw new FinchTrap(HostCode.NO_BINDING, o, "no automation host is installed in this session, so " + word
                + " has no desktop (automation-availability says so as data)");
    }

    /** The host at dispatch (a run resumed in a process without one cannot be dispatched). */
    private static AutomationHost installed(Ctx ctx) throws HostFailure {
        AutomationHost h = host(ctx);
        if (h == null) throw new HostFailure(HostCode.NO_BINDING, "no automation host is installed in this session");
        return h;
    }

    private static String availabilityJson(AutomationHost.Availability a) {
        ObjectNode out = JSON.createObjectNode().put("available", a.available()).put("backend", a.backend());
        if (a.reason() != null) out.put("reason", a.reason());
        return out.toString();
    }
}
