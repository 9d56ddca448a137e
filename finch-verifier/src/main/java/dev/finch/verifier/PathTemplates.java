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
import dev.finch.ir.vocab.Vocabulary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Argument-dependent requirements. µNorman's {@code model-ask} and {@code tool-call} name their grant (and
 * operation) by literals, so their bounds {@code model.ask(*)} and {@code tool.call(*,*)} are instantiated with them.
 * Files (contract: "templates over immutable refined path values, never string replacement"): A host word's vocabulary signature states the conservative bound ({@code fs.read(${workspace}/**)});
 * where its path argument is known at the call site — a literal refined by {@code path} (or {@code host-path}, …),
 * possibly through stack shuffles or a local stored once — the requirement is instantiated with that canonical
 * path, built from the refined path's parts. A literal that cannot be refined (it escapes its root) is a verify
 * error: the program is refused before anything runs. Unknown arguments keep the bound; the host boundary
 * re-checks every concrete path at run time either way.
 */
final class PathTemplates {
    private static final Map<String, Root> REFINERS = Map.of("path", Root.WORKSPACE, "host-path", Root.HOST_MACHINE,
            "project-path", Root.PROJECT, "task-output-path", Root.TASK_OUTPUT);
    private static final Map<String, int[]> SHUFFLES = Map.of("dup", new int[] {0, 0}, "drop", new int[] {}, "swap", new int[] {1, 0},
            "over", new int[] {0, 1, 0}, "rot", new int[] {1, 2, 0}, "nip", new int[] {1}, "tuck", new int[] {1, 0, 1});

    private final IdentityHashMap<Checked.CallNode, Capability> sites = new IdentityHashMap<>();
    private final List<Diagnostic> diagnostics;

    private PathTemplates(List<Diagnostic> diagnostics) { this.diagnostics = diagnostics; }

    /** The concrete requirement of each host call whose path argument is known, across the given bodies. */
    static IdentityHashMap<Checked.CallNode, Capability> instantiate(List<CheckedBlock> bodies, List<Diagnostic> diagnostics) {
        PathTemplates t = new PathTemplates(diagnostics);
        for (CheckedBlock b : bodies) t.body(b);
        return t.sites;
    }

    private void body(CheckedBlock body) {
        Map<String, Integer> stores = new HashMap<>();
        CheckedRewriter.forEach(body, n -> {
            if (n instanceof Checked.LocalStoreNode s) stores.merge(s.instr().name(), 1, Integer::sum);
        });
        block(body, unknown(body.in().size()), stores, new HashMap<>());
    }

    private static List<Object> unknown(int n) {
        List<Object> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(null);
        return l;
    }

    /** Walks a block with what is known of each stack position (a string literal or a refined path). */
    private void block(CheckedBlock b, List<Object> known, Map<String, Integer> stores, Map<String, Object> locals) {
        for (Node n : b.nodes()) {
            int before = n.before().size();
            while (known.size() < before) known.add(null);
            while (known.size() > before) known.remove(known.size() - 1);
            if (n instanceof Checked.PushNode p) {
                known.add(p.instr().literal() instanceof Literal.StringLit s ? s.value() : null);
            } else if (n instanceof Checked.CallNode c) {
                call(c, known);
            } else if (n instanceof Checked.LocalStoreNode s) {
                Object v = known.remove(known.size() - 1);
                if (stores.getOrDefault(s.instr().name(), 0) == 1 && v != null) locals.put(s.instr().name(), v);
            } else if (n instanceof Checked.LocalLoadNode l) {
                known.add(locals.get(l.instr().name()));
            } else if (n instanceof Checked.ClosureNode c) {
                body(c.body().body());
                known.add(null);
            } else if (n instanceof Checked.ListNode || n instanceof Checked.MapNode || n instanceof Checked.RecordNode) {
                // A literal pushes one value; what it does not consume below keeps what is known of it.
                for (CheckedBlock child : Checked.children(n)) block(child, new ArrayList<>(), stores, locals);
                int kept = Math.max(0, Math.min(known.size(), n.after().size() - 1));
                known.subList(kept, known.size()).clear();
                known.add(null);
            } else {
                for (CheckedBlock child : Checked.children(n)) {
                    List<Object> inner = new ArrayList<>(known.subList(0, Math.min(known.size(), child.in().size())));
                    block(child, inner, stores, locals);
                }
                known.clear();
                known.addAll(unknown(n.after().size()));
            }
        }
    }

    /** What is known of a tool capability value made from a grant's name here ({@code tool-capability}). */
    private record ToolName(String grant) { }

    private void call(Checked.CallNode c, List<Object> known) {
        String name = c.instr().word();
        int ins = c.instantiated().ins().size();
        int base = known.size() - ins;
        if (c.target() instanceof Checked.Target.Builtin) {
            // µNorman's host words name their grant (and operation) by literals: the requirement is that grant's.
            if (name.equals("model-ask") && known.get(base + 1) instanceof String grant) sites.put(c, Capability.of("model.ask", grant));
            if (name.equals("tool-call") && known.get(base) instanceof ToolName t && known.get(base + 1) instanceof String op) {
                sites.put(c, Capability.of("tool.call", t.grant(), op));
            }
            if (name.equals("tool-capability") && known.get(base) instanceof String grant) {
                known.subList(base, known.size()).clear();
                known.add(new ToolName(grant));
                return;
            }
        }
        if (c.target() instanceof Checked.Target.Builtin && SHUFFLES.containsKey(name)) {
            List<Object> in = new ArrayList<>(known.subList(base, known.size()));
            known.subList(base, known.size()).clear();
            for (int i : SHUFFLES.get(name)) known.add(in.get(i));
            return;
        }
        Object result = null;
        if (c.target() instanceof Checked.Target.Builtin && REFINERS.containsKey(name) && known.get(base) instanceof String s) {
            var p = ConcretePath.of(REFINERS.get(name), s, c.origin());
            if (p.isOk()) {
                result = p.value();
            } else {
                Diagnostic d = p.refusal().orElseThrow();
                diagnostics.add(new Diagnostic(dev.finch.ir.diag.Phase.VERIFY, d.code(), "`" + name + "` refuses \"" + s + "\": " + d.message(),
                        c.origin(), "a path inside " + REFINERS.get(name).prefix(), s));
            }
        } else if (c.target() instanceof Checked.Target.Builtin && Vocabulary.word(name).isPresent()) {
            instantiate(c, known, base);
        }
        known.subList(base, known.size()).clear();
        for (int i = 0; i < c.instantiated().outs().size(); i++) known.add(i == 0 ? result : null);
    }

    /** A host word with a refined-path input known here: its bound requirement, instantiated with that path. */
    private void instantiate(Checked.CallNode c, List<Object> known, int base) {
        List<Type> ins = c.instantiated().ins();
        for (int i = 0; i < ins.size(); i++) {
            if (!(ins.get(i) instanceof Type.PathT) || !(known.get(base + i) instanceof ConcretePath path)) continue;
            for (Capability bound : c.instantiated().effects()) {
                if (!(bound.name().equals("fs.read") || bound.name().equals("fs.write")) || bound.args().size() != 1) continue;
                if (!bound.args().get(0).startsWith(path.root().prefix())) continue;
                // tree-list reads the whole subtree under its directory.
                String selector = c.instr().word().equals("tree-list")
                        ? (path.segments().isEmpty() ? path.root().prefix() + "/**" : path + "/**")
                        : path.toString();
                sites.put(c, Capability.of(bound.name(), selector));
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
