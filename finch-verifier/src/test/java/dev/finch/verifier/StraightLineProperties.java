package dev.finch.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Randomly generated well-typed straight-line programs over int (with bool and string for the polymorphic and
 * overloaded words) always verify, and the final row is the one the generator's own model predicts.
 */
class StraightLineProperties {
    private static final Type INT = Type.Prim.INT;
    private static final Type BOOL = Type.Prim.BOOL;
    private static final Type STR = Type.Prim.STRING;
    private static final List<Type> KINDS = List.of(INT, BOOL, STR);

    /** A generated program: its source, the session stack it starts on and the row the model predicts. */
    record Program(String source, List<Type> env, List<Type> predicted) { }

    static Program generate(List<Integer> choices, List<Integer> envKinds) {
        List<Type> env = new ArrayList<>();
        for (int k : envKinds) env.add(KINDS.get(k));
        List<Type> st = new ArrayList<>(env);
        StringBuilder src = new StringBuilder();
        for (int c : choices) {
            List<String> options = applicable(st);
            String op = options.get(c % options.size());
            apply(op, st, c);
            src.append(op.equals("lit-int") ? String.valueOf(c % 100) : op.equals("lit-str") ? "\"s" + c % 10 + "\"" : op.equals("lit-bool") ? (c % 2 == 0 ? "true" : "false") : op)
                    .append(' ');
        }
        return new Program(src.toString().trim(), env, st);
    }

    private static Type top(List<Type> st, int i) { return st.get(st.size() - 1 - i); }

    private static List<String> applicable(List<Type> st) {
        List<String> ops = new ArrayList<>(List.of("lit-int", "lit-int", "lit-str", "lit-bool"));
        int n = st.size();
        if (n >= 1) {
            ops.addAll(List.of("dup", "drop"));
            if (top(st, 0) == INT) ops.addAll(List.of("negate", "int-to-string"));
            if (top(st, 0) == STR) ops.add("string-length");
            if (top(st, 0) == BOOL) ops.add("not");
        }
        if (n >= 2) {
            ops.addAll(List.of("swap", "over", "nip", "tuck"));
            Type a = top(st, 1), b = top(st, 0);
            if (a == INT && b == INT) ops.addAll(List.of("+", "-", "*", "+", "-", "*", "<", ">="));
            if (a == STR && b == STR) ops.addAll(List.of("<", "string-append"));
            if (a == BOOL && b == BOOL) ops.addAll(List.of("and", "or"));
            if (a == b) ops.addAll(List.of("=", "<>"));
        }
        if (n >= 3) ops.add("rot");
        return ops;
    }

    private static void apply(String op, List<Type> st, int c) {
        int n = st.size();
        switch (op) {
            case "lit-int": st.add(INT); break;
            case "lit-str": st.add(STR); break;
            case "lit-bool": st.add(BOOL); break;
            case "dup": st.add(st.get(n - 1)); break;
            case "drop": st.remove(n - 1); break;
            case "swap": { Type b = st.remove(n - 1); st.add(n - 2, b); break; }
            case "over": st.add(st.get(n - 2)); break;
            case "nip": st.remove(n - 2); break;
            case "tuck": st.add(n - 2, st.get(n - 1)); break;
            case "rot": st.add(st.remove(n - 3)); break;
            case "negate": case "not": break;
            case "int-to-string": st.set(n - 1, STR); break;
            case "string-length": st.set(n - 1, INT); break;
            case "+": case "-": case "*": case "string-append": case "and": case "or": st.remove(n - 1); break;
            case "<": case ">=": case "=": case "<>": st.remove(n - 1); st.set(n - 2, BOOL); break;
            default: throw new IllegalStateException(op);
        }
    }

    @Property(tries = 300)
    void wellTypedProgramsVerifyWithThePredictedRow(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 10_000) Integer> choices,
                                                    @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 2) Integer> envKinds) {
        Program p = generate(choices, envKinds);
        Verification v = Verifier.verify(Ir.module(p.source()), new Environment(Ir.VOCABULARY, Map.of(), Map.of(), p.env()));
        assertThat(v.diagnostics()).as(p.source()).isEmpty();
        Checked.CheckedModule m = v.module().orElseThrow();
        assertThat(m.main().signature().ins()).isEqualTo(p.env());
        assertThat(m.main().signature().outs()).as(p.source()).isEqualTo(p.predicted());
        assertThat(m.main().body().out()).isEqualTo(p.predicted());
        assertThat(Check.noMetas(m.main())).isTrue();
        assertThat(m.inferredCapabilities()).isEmpty();
    }

    @Property(tries = 200)
    void theSameBodyAsAWordWithTheDeclaredSignatureVerifies(
            @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 10_000) Integer> choices,
            @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 2) Integer> envKinds) {
        Program p = generate(choices, envKinds);
        String sig = Type.Fn.of(p.env(), p.predicted()).toString();
        Verification v = Verifier.verify(Ir.module(": generated ( " + sig + " ) " + p.source() + " ; generated"),
                new Environment(Ir.VOCABULARY, Map.of(), Map.of(), p.env()));
        assertThat(v.diagnostics()).as(p.source()).isEmpty();
        assertThat(v.module().orElseThrow().main().signature().outs()).as(p.source()).isEqualTo(p.predicted());
    }

    /**
     * Without a signature the word's inputs are unknown while it is inferred, so an overloaded word on them takes
     * its first overload (int); a body that starts from nothing has no such choice and infers exactly the row.
     */
    @Property(tries = 200)
    void aWordWithoutInputsInfersThePredictedRow(@ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 10_000) Integer> choices) {
        Program p = generate(choices, List.of());
        Verification v = Verifier.verify(Ir.module(": generated " + p.source() + " ; generated"), Ir.EMPTY);
        assertThat(v.diagnostics()).as(p.source()).isEmpty();
        Checked.CheckedModule m = v.module().orElseThrow();
        assertThat(Check.word(m, "generated").signature()).isEqualTo(Type.Fn.of(List.of(), p.predicted()));
        assertThat(m.main().signature().outs()).isEqualTo(p.predicted());
    }

    @Property(tries = 100)
    void droppingTheTopOfANonEmptyProgramChangesTheRowPredictably(
            @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 10_000) Integer> choices) {
        Program p = generate(choices, List.of());
        if (p.predicted().isEmpty()) return;
        Verification v = Verifier.verify(Ir.module(p.source() + " drop"), Ir.EMPTY);
        assertThat(v.module().orElseThrow().main().signature().outs()).isEqualTo(p.predicted().subList(0, p.predicted().size() - 1));
        Type wrong = p.predicted().get(p.predicted().size() - 1) == Type.Prim.STRING ? Type.Prim.INT : Type.Prim.STRING;
        String op = wrong == Type.Prim.STRING ? "string-length" : "negate";
        Verification bad = Verifier.verify(Ir.module(p.source() + " " + op), Ir.EMPTY);
        assertThat(bad.ok()).isFalse();
        assertThat(bad.diagnostics().get(0).code()).isIn(VerifyCode.TYPE_MISMATCH.code());
    }
}
