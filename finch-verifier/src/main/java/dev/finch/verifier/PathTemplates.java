package dev.finch.verifier;

import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Overload;
import dev.finch.ir.vocab.RequirementTemplate;
import dev.finch.ir.vocab.Vocabulary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Argument-dependent requirements, read from the declarations rather than from the words' names (contract:
 * "Capability parameters compose through calls"). Two kinds of callee have them:
 * <ul>
 *   <li>a vocabulary word whose overload names a requirement template beside its signature's bound ({@code
 *       fs.read($0)}, {@code fs.read($0/**)}, {@code model.ask($1)}, {@code tool.call($0,$1)});</li>
 *   <li>a definition — of this module or of the session — whose effects hold a template over its own parameters
 *       ({@code fs.read(${workspace}/$0)}), inferred here or written in its signature.</li>
 * </ul>
 * At every call of such a callee this walks what is known of each argument: a string literal; a literal refined by a
 * refining word ({@code path}, {@code host-path}, … into a canonical path under the root its output type names;
 * {@code tool-capability} into the grant's name); and, in a definition's body, one of its own parameters as given
 * or refined under a root — also through stack shuffles (any word whose signature is a pure permutation) and a local
 * stored once. The callee's template is instantiated with them ({@link #at}): known literals make it concrete (never
 * by string replacement: a path is refined, then built from its parts), the caller's parameters make it a template
 * over those (so a definition that passes its parameter on has a template itself), and an argument that is not known
 * leaves the bound. A literal that a refining word cannot refine (it escapes its root) is a verify error: the program
 * is refused before anything runs. An instantiation the callee's bound does not cover keeps the bound; the host
 * boundary re-checks every concrete requirement at run time either way.
 */
final class PathTemplates {
    /** What is known of the arguments of each call whose callee may have a template, by call. */
    private final IdentityHashMap<Checked.CallNode, Object[]> sites = new IdentityHashMap<>();
    private final List<Diagnostic> diagnostics;
    private final Vocabulary vocabulary;

    /** A body to walk: its block, and its parameters' types when it is a definition's (null for main and closures). */
    record Body(CheckedBlock block, List<Type> params) { }

    private PathTemplates(List<Diagnostic> diagnostics, Vocabulary vocabulary) {
        this.diagnostics = diagnostics;
        this.vocabulary = vocabulary;
    }

    /** None: no call anywhere has an argument-dependent requirement. */
    static final PathTemplates NONE = new PathTemplates(new ArrayList<>(), Vocabulary.EMPTY);

    /** What is known at every call whose callee may have a template, across the given bodies (closures included). */
    static PathTemplates of(List<Body> bodies, List<Diagnostic> diagnostics, Vocabulary vocabulary) {
        PathTemplates t = new PathTemplates(diagnostics, vocabulary);
        // Most programs call no refining word, no word with a template and no definition: then there is nothing to track.
        if (!t.anyTemplated(bodies)) return NONE;
        for (Body b : bodies) t.body(b.block(), b.params());
        return t;
    }

    private boolean anyTemplated(List<Body> bodies) {
        for (Body b : bodies) if (templated(b.block())) return true;
        return false;
    }

    private boolean templated(CheckedBlock b) {
        for (Node n : b.nodes()) {
            if (n instanceof Checked.CallNode c) {
                if (c.target().kind() == Checked.Target.Kind.WORD) return true;
                Overload o = overloadOf(c);
                if (o != null && (o.refines() || o.requires().isPresent())) return true;
            }
            if (n instanceof Checked.ClosureNode k && templated(k.body().body())) return true;
            for (CheckedBlock child : Checked.children(n)) if (templated(child)) return true;
        }
        return false;
    }

    /** The vocabulary overload a call chose, or null for a call of a definition or a constant. */
    private Overload overloadOf(Checked.CallNode c) {
        return switch (c.target().kind()) {
            case BUILTIN -> vocabulary.overload(((Checked.Target.Builtin) c.target()).overload()).orElse(null);
            case WORD, CONSTANT_REF -> null;
        };
    }

    // ---- instantiation ------------------------------------------------------------------------------------------

    /**
     * The requirements of call {@code c} whose callee needs {@code callee}: each template instantiated with what is
     * known of the call's arguments (concrete, a template over the caller's parameters, or its bound), and a
     * vocabulary word's bound replaced by its overload's template instantiated so, where the bound covers that.
     */
    Set<Capability> at(Checked.CallNode c, Set<Capability> callee) {
        Object[] args = sites.get(c);
        boolean anyTemplate = false;
        for (Capability cap : callee) anyTemplate |= RequirementTemplate.mentionsArgument(cap);
        Overload o = overloadOf(c);
        Optional<RequirementTemplate> declared = o == null ? Optional.empty() : o.requires();
        if (!anyTemplate && (declared.isEmpty() || args == null)) return callee;
        TreeSet<Capability> out = new TreeSet<>();
        for (Capability cap : callee) {
            Optional<RequirementTemplate> t = RequirementTemplate.mentionsArgument(cap) ? RequirementTemplate.of(cap) : Optional.empty();
            if (t.isEmpty()) {
                out.add(RequirementTemplate.mentionsArgument(cap) ? RequirementTemplate.boundOf(cap) : cap);
                continue;
            }
            out.add(args == null ? t.get().bound() : instantiate(t.get(), args).orElse(t.get().bound()));
        }
        if (declared.isPresent() && args != null) {
            Optional<Capability> concrete = instantiate(declared.get(), args);
            if (concrete.isPresent()) {
                Capability within = RequirementTemplate.boundOf(concrete.get());
                for (Capability bound : List.copyOf(out)) {
                    if (bound.name().equals(concrete.get().name()) && EffectCoverage.covers(bound, within)) {
                        out.remove(bound);
                        out.add(concrete.get());
                    }
                }
            }
        }
        return out;
    }

    /** {@code t} with each slot's argument: empty unless every one is known (as a literal or a caller's parameter). */
    private static Optional<Capability> instantiate(RequirementTemplate t, Object[] args) {
        List<String> out = new ArrayList<>();
        for (RequirementTemplate.Slot s : t.args()) {
            String v;
            if (s instanceof RequirementTemplate.Slot.Text x) {
                v = x.text();
            } else if (s instanceof RequirementTemplate.Slot.Keyed k) {
                String a = name(arg(args, k.index()));
                if (a == null) return Optional.empty();
                v = k.key() + "=" + (!k.subtree() ? a : a.isEmpty() ? "**" : subtree(a));
            } else if (s instanceof RequirementTemplate.Slot.Under u) {
                String a = under(u.root(), arg(args, u.index()));
                if (a == null) return Optional.empty();
                v = u.subtree() ? subtree(a) : a;
            } else {
                RequirementTemplate.Slot.Arg a = (RequirementTemplate.Slot.Arg) s;
                Object known = arg(args, a.index());
                String text = known instanceof ConcretePath p ? p.toString()
                        : known instanceof Param p && p.root() != null ? "${" + p.root() + "}/$" + p.index()
                        // A bare parameter of a path capability has no root to stand under: the bound stays.
                        : t.name().startsWith("fs.") ? null
                        // A literal URL is read as the boundary reads it (its query dropped, its host lower-cased…).
                        : t.name().equals("net.http") && known instanceof String url ? url(url) : name(known);
                if (text == null) return Optional.empty();
                v = a.subtree() ? subtree(text) : text;
            }
            out.add(v);
        }
        return Optional.of(new Capability(t.name(), out));
    }

    /** A literal URL as {@code net.http} names it, or null (the bound stays) when it is not one the boundary accepts. */
    private static String url(String literal) {
        var u = dev.finch.capabilities.UrlPattern.concrete(literal, dev.finch.ir.diag.Origin.UNKNOWN);
        return u.isOk() ? u.value().toString() : null;
    }

    private static Object arg(Object[] args, int i) { return i >= 0 && i < args.length ? args[i] : null; }

    private static String subtree(String path) { return path.endsWith("/") ? path + "**" : path + "/**"; }

    /** A known argument as a name: a literal, a refined grant name, or the caller's parameter as given. */
    private static String name(Object known) {
        if (known instanceof String s) return s;
        if (known instanceof Name n) return n.text();
        if (known instanceof Param p && p.root() == null) return "$" + p.index();
        return null;
    }

    /** A known argument as a path under {@code root}: a literal refined there, a path of that root, or the caller's parameter. */
    private static String under(String root, Object known) {
        if (known instanceof String s) {
            Root r = Root.bySpelling(root).orElse(null);
            if (r == null) return null;
            var p = ConcretePath.of(r, s);
            return p.isOk() ? p.value().toString() : null;
        }
        if (known instanceof ConcretePath p) return p.root().prefix().equals("${" + root + "}") ? p.toString() : null;
        if (known instanceof Param p && (p.root() == null || p.root().equals(root))) return "${" + root + "}/$" + p.index();
        return null;
    }

    // ---- what is known ------------------------------------------------------------------------------------------

    /** What is known of a value a refining word made from a literal name that is not a path (a tool grant's name). */
    private record Name(String text) { }

    /** A definition's own parameter {@code index}, as given ({@code root} null) or refined as a path under {@code root}. */
    private record Param(int index, String root) { }

    private void body(CheckedBlock body, List<Type> params) {
        Map<String, Integer> stores = new HashMap<>();
        for (Node n : CheckedRewriter.nodes(body)) {
            if (n.kind() == dev.finch.ir.instr.Instr.Kind.LOCAL_STORE) stores.merge(((Checked.LocalStoreNode) n).instr().name(), 1, Integer::sum);
        }
        Known known = new Known(null, body.in().size());
        if (params != null && params.size() == body.in().size()) {
            known.forget(0);
            for (int i = 0; i < params.size(); i++) known.push(new Param(i, params.get(i) instanceof Type.PathT pt ? pt.root() : null));
        }
        block(body, known, stores, new HashMap<>());
    }

    /**
     * What is known of each stack position (a string literal, a refined path, a name, a parameter; null when nothing
     * is). The positions under {@code low} are read from {@code below} — the state of the enclosing block at the node
     * whose child is walked, which does not change meanwhile — or are unknown when there is none; so a child block or
     * a reset costs what it changes, not the depth of the stack (a deep stack under many branches stays linear).
     */
    private static final class Known {
        private Known below;
        private int low;
        private final ArrayList<Object> top = new ArrayList<>();

        Known(Known below, int low) {
            this.below = below;
            this.low = low;
        }

        int size() { return low + top.size(); }

        Object get(int i) {
            for (Known k = this; k != null; k = k.below) {
                if (i >= k.low) return i - k.low < k.top.size() ? k.top.get(i - k.low) : null;
            }
            return null;
        }

        void push(Object v) { top.add(v); }

        Object pop() {
            if (!top.isEmpty()) return top.remove(top.size() - 1);
            if (low == 0) return null;
            low--;
            return below == null ? null : below.get(low);
        }

        /** Pops or pads with unknowns to {@code n} positions. */
        void resize(int n) {
            while (size() > n) pop();
            while (size() < n) push(null);
        }

        /** Nothing is known any more of the {@code n} positions the stack now has. */
        void forget(int n) {
            below = null;
            low = n;
            top.clear();
        }
    }

    /** Walks a block with what is known of each stack position. */
    private void block(CheckedBlock b, Known known, Map<String, Integer> stores, Map<String, Object> locals) {
        for (Node n : b.nodes()) {
            known.resize(n.before().size());
            boolean handled = switch (n.kind()) {
                case PUSH -> {
                    Literal l = ((Checked.PushNode) n).instr().literal();
                    known.push(switch (l.kind()) {
                        case STRING -> ((Literal.StringLit) l).value();
                        case INT, FLOAT, BOOL, UNIT, SYMBOL, JSON -> null;
                    });
                    yield true;
                }
                case CALL -> { call((Checked.CallNode) n, known); yield true; }
                case LOCAL_STORE -> {
                    String name = ((Checked.LocalStoreNode) n).instr().name();
                    Object v = known.pop();
                    if (stores.getOrDefault(name, 0) == 1 && v != null) locals.put(name, v);
                    yield true;
                }
                case LOCAL_LOAD -> { known.push(locals.get(((Checked.LocalLoadNode) n).instr().name())); yield true; }
                case CLOSURE -> {
                    // A closure's parameters are nobody's: its body is walked with nothing known.
                    body(((Checked.ClosureNode) n).body().body(), null);
                    known.push(null);
                    yield true;
                }
                case LIST, MAP, RECORD -> {
                    // A literal pushes one value; what it does not consume below keeps what is known of it.
                    for (CheckedBlock child : Checked.children(n)) block(child, new Known(null, child.in().size()), stores, locals);
                    known.resize(Math.max(0, Math.min(known.size(), n.after().size() - 1)));
                    known.push(null);
                    yield true;
                }
                case IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, QUOTE, PROPAGATE, CONSTANT -> {
                    for (CheckedBlock child : Checked.children(n)) {
                        block(child, new Known(known, Math.min(known.size(), child.in().size())), stores, locals);
                    }
                    known.forget(n.after().size());
                    yield true;
                }
            };
        }
    }

    private void call(Checked.CallNode c, Known known) {
        int ins = c.instantiated().ins().size();
        int base = known.size() - ins;
        Overload o = overloadOf(c);
        if (o != null && o.permutation().isPresent()) {
            List<Object> in = new ArrayList<>(ins);
            for (int i = 0; i < ins; i++) in.add(known.get(base + i));
            known.resize(base);
            for (int i : o.permutation().get()) known.push(in.get(i));
            return;
        }
        if (c.target().kind() == Checked.Target.Kind.WORD || (o != null && o.requires().isPresent())) {
            Object[] args = new Object[ins];
            boolean any = false;
            for (int i = 0; i < ins; i++) {
                args[i] = base + i >= 0 ? known.get(base + i) : null;
                any |= args[i] != null;
            }
            if (any) sites.put(c, args);
        }
        Object result = null;
        if (o != null && o.refines()) {
            Object arg = known.get(base);
            if (arg instanceof String s) result = refine(c, s);
            else if (arg instanceof Param p && p.root() == null) result = refineParam(c, p);
        }
        known.resize(base);
        for (int i = 0; i < c.instantiated().outs().size(); i++) known.push(i == 0 ? result : null);
    }

    /** What a refining word makes of literal {@code s}: a canonical path under its output's root, or a name. */
    private Object refine(Checked.CallNode c, String s) {
        Type out = c.instantiated().outs().get(0);
        if (!(out instanceof Type.PathT pt)) return new Name(s);
        Root root = Root.bySpelling(pt.root()).orElse(null);
        if (root == null) return null;
        var p = ConcretePath.of(root, s, c.origin());
        if (p.isOk()) return p.value();
        Diagnostic d = p.refusal().orElseThrow();
        diagnostics.add(new Diagnostic(dev.finch.ir.diag.Phase.VERIFY, d.code(), "`" + c.instr().word() + "` refuses \"" + s + "\": " + d.message(),
                c.origin(), "a path inside " + root.prefix(), s));
        return null;
    }

    /** What a refining word makes of the caller's parameter: the parameter under its output's root, or the parameter as a name. */
    private static Object refineParam(Checked.CallNode c, Param p) {
        Type out = c.instantiated().outs().get(0);
        return out instanceof Type.PathT pt ? new Param(p.index(), pt.root()) : p;
    }
}
