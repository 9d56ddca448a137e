package dev.finch.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test assertions over {@link Verifier} results. */
final class Check {
    private Check() { }

    static Checked.CheckedModule ok(String src, Type... stack) { return ok(src, new Environment(Ir.VOCABULARY, Map.of(), Map.of(), List.of(stack))); }

    static Checked.CheckedModule ok(String src, Environment env) {
        Verification v = Verifier.verify(Ir.module(src), env);
        assertThat(v.diagnostics()).as("diagnostics of %s", src).isEmpty();
        assertThat(v.ok()).isTrue();
        return v.module().orElseThrow();
    }

    static Diagnostic fails(String src, VerifyCode code, Type... stack) { return fails(src, code, new Environment(Ir.VOCABULARY, Map.of(), Map.of(), List.of(stack))); }

    static Diagnostic fails(String src, VerifyCode code, Environment env) {
        Verification v = Verifier.verify(Ir.module(src), env);
        assertThat(v.ok()).as("verification of %s", src).isFalse();
        assertThat(v.module()).isEmpty();
        assertThat(v.diagnostics()).as("diagnostics of %s", src).isNotEmpty();
        Diagnostic d = v.diagnostics().get(0);
        assertThat(d.phase()).isEqualTo(Phase.VERIFY);
        assertThat(d.code()).as("code for %s: %s", src, d).isEqualTo(code.code());
        assertThat(d.message()).isNotBlank();
        return d;
    }

    /** The final stack of main, spelled. */
    static List<String> finalStack(Checked.CheckedModule m) {
        List<String> out = new ArrayList<>();
        for (Type t : m.main().signature().outs()) out.add(t.toString());
        return out;
    }

    static Checked.CheckedWord word(Checked.CheckedModule m, String name) {
        return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    /** Every node of a word (nested blocks and closure bodies included). */
    static List<Checked.Node> nodes(Checked.CheckedWord w) {
        List<Checked.Node> out = new ArrayList<>();
        collect(w.body(), out);
        return out;
    }

    private static void collect(Checked.CheckedBlock b, List<Checked.Node> out) {
        for (Checked.Node n : CheckedRewriter.nodes(b)) {
            out.add(n);
            if (n instanceof Checked.ClosureNode c) collect(c.body().body(), out);
        }
    }

    /** True when no type anywhere in the word holds a meta-variable. */
    static boolean noMetas(Checked.CheckedWord w) {
        for (Checked.Node n : nodes(w)) {
            for (Type t : n.before()) if (Types.firstMeta(t).isPresent()) return false;
            for (Type t : n.after()) if (Types.firstMeta(t).isPresent()) return false;
        }
        return Types.firstMeta(w.signature()).isEmpty();
    }
}
