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
import java.util.Optional;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Argument-dependent requirements, read from the words' declarations rather than from their names. A host word's
 * signature states the conservative bound ({@code fs.read(${workspace}/**)}); its overload's requirement template
 * ({@code fs.read($0)}, {@code fs.read($0/**)}, {@code model.ask($1)}, {@code tool.call($0,$1)}) says which arguments
 * make it concrete. Where those arguments are known at the call site — a string literal, a literal refined by a
 * refining word ({@code path}, {@code host-path}, … into a canonical path under the root its output type names; {@code
 * tool-capability} into the grant's name), possibly through stack shuffles (any word whose signature is a pure
 * permutation) or a local stored once — the template is instantiated with them (contract: "templates over immutable
 * refined path values, never string replacement"). A literal that a refining word cannot refine (it escapes its
 * root) is a verify error: the program is refused before anything runs. An instantiation the bound does not cover
 * keeps the bound; the host boundary re-checks every concrete requirement at run time either way.
 */
final class PathTemplates {
    /** Made once some body turns out to call a templated or refining word. */
    private IdentityHashMap<Checked.CallNode, Capability> sites;
    private final List<Diagnostic> diagnostics;
    private final Vocabulary vocabulary;

    private PathTemplates(List<Diagnostic> diagnostics, Vocabulary vocabulary) {
        this.diagnostics = diagnostics;
        this.vocabulary = vocabulary;
    }

    /** The concrete requirement of each host call whose template arguments are known, across the given bodies. */
    static Map<Checked.CallNode, Capability> instantiate(List<CheckedBlock> bodies, List<Diagnostic> diagnostics, Vocabulary vocabulary) {
        PathTemplates t = new PathTemplates(diagnostics, vocabulary);
        // Most programs call no refining word and no word with a template: then there is nothing to track.
        if (!t.anyTemplated(bodies)) return Map.of();
        t.sites = new IdentityHashMap<>();
        for (CheckedBlock b : bodies) t.body(b);
        return t.sites;
    }

    /**
     * Whether any of {@code bodies} — nested blocks and closure bodies included, as {@link #body} walks them — calls a
     * refining word or one whose overload has a requirement template.
     */
    private boolean anyTemplated(List<CheckedBlock> bodies) {
        for (CheckedBlock b : bodies) if (templated(b)) return true;
        return false;
    }

    private boolean templated(CheckedBlock b) {
        for (Node n : b.nodes()) {
            if (n instanceof Checked.CallNode c) {
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

    private void body(CheckedBlock body) {
        Map<String, Integer> stores = new HashMap<>();
        for (Node n : CheckedRewriter.nodes(body)) {
            boolean handled = switch (n.kind()) {
                case LOCAL_STORE -> { stores.merge(((Checked.LocalStoreNode) n).instr().name(), 1, Integer::sum); yield true; }
                case PUSH, CALL, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, CLOSURE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true;
            };
        }
        block(body, new Known(null, body.in().size()), stores, new HashMap<>());
    }

    /**
     * What is known of each stack position (a string literal, a refined path, a name; null when nothing is). The
     * positions under {@code low} are read from {@code below} — the state of the enclosing block at the node whose
     * child is walked, which does not change meanwhile — or are unknown when there is none; so a child block or a
     * reset costs what it changes, not the depth of the stack (a deep stack under many branches stays linear).
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

    /** Walks a block with what is known of each stack position (a string literal or a refined path). */
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
                    body(((Checked.ClosureNode) n).body().body());
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

    /** What is known of a value a refining word made from a literal name that is not a path (a tool grant's name). */
    private record Name(String text) { }

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
        Object result = null;
        if (o != null && o.refines() && known.get(base) instanceof String s) result = refine(c, s);
        if (o != null && o.requires().isPresent()) instantiate(c, o.requires().get(), known, base);
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

    /** The template instantiated with what is known of its arguments, when the bound covers the result. */
    private void instantiate(Checked.CallNode c, RequirementTemplate t, Known known, int base) {
        Optional<Capability> concrete = t.instantiate(i -> {
            Object v = base + i < known.size() ? known.get(base + i) : null;
            if (v instanceof ConcretePath p) return p.toString();
            if (v instanceof Name n) return n.text();
            if (v instanceof String str) return str;
            return null;
        });
        if (concrete.isEmpty()) return;
        for (Capability bound : c.instantiated().effects()) {
            if (bound.name().equals(concrete.get().name()) && EffectCoverage.covers(bound, concrete.get())) {
                sites.put(c, concrete.get());
                return;
            }
        }
    }

    /** The call's effects with its bound replaced by the concrete requirement, when one is known. */
    static java.util.Set<Capability> effects(Checked.CallNode c, java.util.Set<Capability> declared, Map<Checked.CallNode, Capability> sites) {
        Capability concrete = sites.get(c);
        if (concrete == null) return declared;
        java.util.TreeSet<Capability> out = new java.util.TreeSet<>();
        for (Capability cap : declared) {
            if (cap.name().equals(concrete.name()) && EffectCoverage.covers(cap, concrete)) continue;
            out.add(cap);
        }
        out.add(concrete);
        return out;
    }
}
