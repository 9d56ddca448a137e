package dev.finch.ir.vocab;

import dev.finch.ir.cap.Capability;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * An argument-dependent capability requirement (contract: "a restricted template AST over immutable refined path
 * values, never string replacement"). {@code fs.read($0)} reads "the refined path of argument 0"; {@code
 * fs.read($0/**)} its whole subtree; {@code tool.call($0,$1)} two known arguments; {@code program.invoke(language=$0)}
 * a keyed parameter whose value is argument 0. The overload's declared effect
 * of the same name is the conservative bound that stands wherever an argument is not known; where every slot's
 * argument is known, the template is instantiated from what is known of each ({@link #instantiate}).
 *
 * @param name the capability's canonical name
 * @param args the parameters, each a literal text or a slot
 */
public record RequirementTemplate(String name, List<Slot> args) {
    public RequirementTemplate { args = List.copyOf(args); }

    /** One parameter of the template. */
    public sealed interface Slot {
        /** A literal parameter. */
        record Text(String text) implements Slot { }

        /** What is known of argument {@code index}; with {@code subtree}, everything below that path. */
        record Arg(int index, boolean subtree) implements Slot { }

        /** A keyed parameter {@code key=…} whose value is what is known of argument {@code index}. */
        record Keyed(String key, int index) implements Slot { }
    }

    /**
     * Parses {@code name($0)}, {@code name($0/**)}, {@code name($0,$1)} or a mix with literal parameters; empty when
     * the text is not a template (it names no argument).
     */
    public static Optional<RequirementTemplate> parse(String text) {
        Optional<Capability> c = Capability.parse(text.replace("$", "_arg_"));
        if (c.isEmpty()) return Optional.empty();
        List<Slot> slots = new ArrayList<>();
        boolean any = false;
        for (String a : c.get().args()) {
            String s = a.replace("_arg_", "$");
            if (s.matches("\\$[0-9]+(/\\*\\*)?")) {
                boolean subtree = s.endsWith("/**");
                slots.add(new Slot.Arg(Integer.parseInt(s.substring(1, subtree ? s.length() - 3 : s.length())), subtree));
                any = true;
            } else if (s.matches("[a-z_]+=\\$[0-9]+")) {
                int eq = s.indexOf('=');
                slots.add(new Slot.Keyed(s.substring(0, eq), Integer.parseInt(s.substring(eq + 2))));
                any = true;
            } else if (s.contains("$")) {
                return Optional.empty();
            } else {
                slots.add(new Slot.Text(s));
            }
        }
        return any ? Optional.of(new RequirementTemplate(c.get().name(), slots)) : Optional.empty();
    }

    /** The highest argument index a slot names. */
    public int maxArgument() {
        int max = -1;
        for (Slot s : args) {
            if (s instanceof Slot.Arg a) max = Math.max(max, a.index());
            if (s instanceof Slot.Keyed k) max = Math.max(max, k.index());
        }
        return max;
    }

    /**
     * The concrete requirement, given the text known of each argument ({@code known} answers null for an argument
     * that is not known); empty unless every slot is known. A subtree slot of a path {@code p} becomes {@code p/**}.
     */
    public Optional<Capability> instantiate(IntFunction<String> known) {
        List<String> out = new ArrayList<>();
        for (Slot s : args) {
            if (s instanceof Slot.Text t) {
                out.add(t.text());
            } else if (s instanceof Slot.Keyed k) {
                String v = known.apply(k.index());
                if (v == null) return Optional.empty();
                out.add(k.key() + "=" + v);
            } else {
                Slot.Arg a = (Slot.Arg) s;
                String v = known.apply(a.index());
                if (v == null) return Optional.empty();
                out.add(a.subtree() ? (v.endsWith("/") ? v + "**" : v + "/**") : v);
            }
        }
        return Optional.of(new Capability(name, out));
    }

    @Override public String toString() {
        List<String> out = new ArrayList<>();
        for (Slot s : args) {
            if (s instanceof Slot.Text t) out.add(t.text());
            else if (s instanceof Slot.Keyed k) out.add(k.key() + "=$" + k.index());
            else out.add("$" + ((Slot.Arg) s).index() + (((Slot.Arg) s).subtree() ? "/**" : ""));
        }
        return name + "(" + String.join(",", out) + ")";
    }
}
