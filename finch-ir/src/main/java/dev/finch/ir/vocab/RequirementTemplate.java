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
 * a keyed parameter whose value is argument 0; {@code fs.read(${workspace}/$0)} argument 0 refined as a path under
 * that root (a text refined by {@code path}, or a path of that root).
 *
 * <p>Two kinds of declaration use them. A vocabulary word's overload names one beside its signature, whose effect of
 * the same name is the conservative bound that stands wherever an argument is not known. A definition's signature
 * may hold one among its effects ({@code : load-doc ( string -- bytes ! {fs.read(${workspace}/$0)} )}, inferred or
 * written), over the definition's own parameters: a call site where they are known requires the concrete
 * instantiation, anywhere else its {@link #bound()} — {@code ${root}/**} for a path slot, {@code *} for a name,
 * {@code **} for {@code process.run}'s executable and {@code net.http}'s URL. Function values' types never hold one ({@link #bounded}).
 * Where every slot's argument is known, a template is instantiated from what is known of each ({@link #instantiate}).
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

        /**
         * A keyed parameter {@code key=…} whose value is what is known of argument {@code index}; with {@code subtree}
         * ({@code path=$1/**}), everything at or below that path.
         */
        record Keyed(String key, int index, boolean subtree) implements Slot { }

        /** Argument {@code index} refined as a path under {@code root} ({@code ${root}/$N}); with {@code subtree}, all below it. */
        record Under(String root, int index, boolean subtree) implements Slot { }
    }

    private static final class Syntax {
        static final java.util.regex.Pattern ARG = java.util.regex.Pattern.compile("\\$([0-9]{1,4})(/\\*\\*)?");
        static final java.util.regex.Pattern KEYED = java.util.regex.Pattern.compile("([a-z_]+)=\\$([0-9]{1,4})(/\\*\\*)?");
        static final java.util.regex.Pattern UNDER = java.util.regex.Pattern.compile("\\$\\{([a-z][a-z0-9._-]*)\\}/\\$([0-9]{1,4})(/\\*\\*)?");
        static final java.util.regex.Pattern SLOT = java.util.regex.Pattern.compile("\\$[0-9]");
    }

    /**
     * Parses {@code name($0)}, {@code name($0/**)}, {@code name($0,$1)}, {@code name(key=$0)}, {@code name(${root}/$0)}
     * or a mix with literal parameters; empty when the text is not a template (it names no argument, or names one in a
     * place no slot is: {@code fs.read(${workspace}/docs/$0)}).
     */
    public static Optional<RequirementTemplate> parse(String text) {
        Optional<Capability> c = Capability.parse(text);
        return c.isEmpty() ? Optional.empty() : of(c.get());
    }

    /** {@code c} read as a template (see {@link #parse}); empty when it is none. */
    public static Optional<RequirementTemplate> of(Capability c) {
        List<Slot> slots = new ArrayList<>();
        boolean any = false;
        for (String s : c.args()) {
            java.util.regex.Matcher m;
            if ((m = Syntax.ARG.matcher(s)).matches()) {
                slots.add(new Slot.Arg(Integer.parseInt(m.group(1)), m.group(2) != null));
                any = true;
            } else if ((m = Syntax.KEYED.matcher(s)).matches()) {
                slots.add(new Slot.Keyed(m.group(1), Integer.parseInt(m.group(2)), m.group(3) != null));
                any = true;
            } else if ((m = Syntax.UNDER.matcher(s)).matches()) {
                slots.add(new Slot.Under(m.group(1), Integer.parseInt(m.group(2)), m.group(3) != null));
                any = true;
            } else if (Syntax.SLOT.matcher(s).find()) {
                return Optional.empty();
            } else {
                slots.add(new Slot.Text(s));
            }
        }
        return any ? Optional.of(new RequirementTemplate(c.name(), slots)) : Optional.empty();
    }

    /**
     * True when {@code c} names an argument ({@code $N}) anywhere: a template, or a spelling that tries to be one where
     * no slot can be ({@link #of} is then empty). Never a grant's or a concrete requirement's spelling.
     */
    public static boolean mentionsArgument(Capability c) {
        for (String a : c.args()) if (Syntax.SLOT.matcher(a).find()) return true;
        return false;
    }

    /** What each kind of slot widens to where its argument is not known: a name any name, an executable or a URL any. */
    private static String widest(String capability) { return capability.equals("process.run") || capability.equals("net.http") ? "**" : "*"; }

    /**
     * The conservative requirement that stands for this template wherever its arguments are not known: each path slot
     * {@code ${root}/**}, each other slot {@code *} ({@code **} for {@code process.run} and {@code net.http}). A bare path slot of {@code
     * fs.read}/{@code fs.write} ({@code fs.read($0)}, a vocabulary word's) has no root to widen to: its bound is the
     * word's signature's, and this answers {@code ${workspace}/**}.
     */
    public Capability bound() {
        List<String> out = new ArrayList<>();
        for (Slot s : args) {
            if (s instanceof Slot.Text t) out.add(t.text());
            else if (s instanceof Slot.Keyed k) out.add(k.key() + (k.key().equals("path") ? "=**" : "=*"));
            else if (s instanceof Slot.Under u) out.add("${" + u.root() + "}/**");
            else out.add(name.startsWith("fs.") ? "${workspace}/**" : widest(name));
        }
        return new Capability(name, out);
    }

    /** {@code c}, or its bound when it is a template. */
    public static Capability boundOf(Capability c) { return of(c).map(RequirementTemplate::bound).orElse(c); }

    /** {@code caps} with every template replaced by its bound (the same set when there is none). */
    public static java.util.SortedSet<Capability> bounded(java.util.Set<Capability> caps) {
        java.util.TreeSet<Capability> out = new java.util.TreeSet<>();
        boolean any = false;
        for (Capability c : caps) {
            Capability b = boundOf(c);
            any |= b != c;
            out.add(b);
        }
        return any ? out : caps instanceof java.util.SortedSet<Capability> s ? s : out;
    }

    /**
     * A callable type as a value has it: its effects bounded. A template speaks of a definition's parameters at its call
     * sites; a function value (an execution token, a closure) is called where nothing knows which definition it is.
     */
    public static dev.finch.ir.type.Type.Fn bounded(dev.finch.ir.type.Type.Fn f) {
        for (Capability c : f.effects()) if (mentionsArgument(c)) return f.withEffects(bounded(f.effects()));
        return f;
    }

    /** The highest argument index a slot names. */
    public int maxArgument() {
        int max = -1;
        for (Slot s : args) {
            if (s instanceof Slot.Arg a) max = Math.max(max, a.index());
            if (s instanceof Slot.Keyed k) max = Math.max(max, k.index());
            if (s instanceof Slot.Under u) max = Math.max(max, u.index());
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
                out.add(k.key() + "=" + (k.subtree() ? subtreeOf(v) : v));
            } else if (s instanceof Slot.Under u) {
                // The argument's canonical path (its root already in it): the verifier refines it before it asks.
                String v = known.apply(u.index());
                if (v == null) return Optional.empty();
                out.add(u.subtree() ? (v.endsWith("/") ? v + "**" : v + "/**") : v);
            } else {
                Slot.Arg a = (Slot.Arg) s;
                String v = known.apply(a.index());
                if (v == null) return Optional.empty();
                out.add(a.subtree() ? (v.endsWith("/") ? v + "**" : v + "/**") : v);
            }
        }
        return Optional.of(new Capability(name, out));
    }

    /** Everything at or below {@code path} ({@code **} for the empty path: a whole tree). */
    private static String subtreeOf(String path) { return path.isEmpty() ? "**" : path.endsWith("/") ? path + "**" : path + "/**"; }

    @Override public String toString() {
        List<String> out = new ArrayList<>();
        for (Slot s : args) {
            if (s instanceof Slot.Text t) out.add(t.text());
            else if (s instanceof Slot.Keyed k) out.add(k.key() + "=$" + k.index() + (k.subtree() ? "/**" : ""));
            else if (s instanceof Slot.Under u) out.add("${" + u.root() + "}/$" + u.index() + (u.subtree() ? "/**" : ""));
            else out.add("$" + ((Slot.Arg) s).index() + (((Slot.Arg) s).subtree() ? "/**" : ""));
        }
        return name + "(" + String.join(",", out) + ")";
    }
}
