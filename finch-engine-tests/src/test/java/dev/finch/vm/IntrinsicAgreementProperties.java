package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.word.Impl;
import dev.finch.vm.word.Library;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Every intrinsic's emitter agrees with its reference implementation: for each overload declared with an
 * {@link Intrinsic}, generated inputs are pushed and the word is called in a compiled program, and its outputs must
 * equal, bit for bit ({@code Double.equals}: the sign of zero and nan included), what the declared method answers for
 * the same inputs. The interpreter runs the declared method itself, so this is also the tiers' agreement on them.
 */
class IntrinsicAgreementProperties {
    private static final Vm COMPILED = new Vm(ModuleCompiler.Tiering.COMPILE_ALL);

    @AfterContainer static void close() { COMPILED.close(); }

    /** One call: an intrinsic overload and inputs of the types its signature takes (type variables as ints, bools, floats). */
    record Call(Impl impl, Type.Fn inst, List<Object> inputs) {
        @Override public String toString() { return impl + " " + inst + " " + inputs; }
    }

    @Property(tries = 2000)
    void everyIntrinsicAgreesWithItsReferenceImplementation(@ForAll("calls") Call call) {
        Build b = new Build(List.of());
        for (int i = 0; i < call.inputs().size(); i++) b.push(literal(call.inst().ins().get(i), call.inputs().get(i)));
        b.call(call.impl(), call.inst());
        RunResult r = COMPILED.run("agree", Build.module(Build.main(b, false)), VmState.EMPTY, Limits.DEFAULT, OutputSink.NONE, new CancelToken());
        assertThat(r).as("%s", call).isInstanceOf(RunResult.Completed.class);
        List<Object> compiled = new ArrayList<>();
        for (TypedValue v : ((RunResult.Completed) r).state().stack()) compiled.add(v.value());
        Object ref = call.impl().invoke(null, 0, call.inst(), Build.O, call.inputs().toArray());
        List<Object> expected = call.inst().outs().size() > 1 ? List.of((Object[]) ref)
                : call.inst().outs().isEmpty() ? List.of() : java.util.Collections.singletonList(ref);
        assertThat(compiled).as("%s", call).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(Objects.equals(compiled.get(i), expected.get(i))).as("%s output %d: compiled %s, reference %s", call, i,
                    compiled.get(i), expected.get(i)).isTrue();
        }
    }

    @Property(tries = 1)
    void everyIntrinsicIsGenerated() {
        assertThat(intrinsics()).extracting(i -> i.intrinsic()).containsAll(
                java.util.EnumSet.complementOf(java.util.EnumSet.of(Intrinsic.NONE)));
    }

    private static List<Impl> intrinsics() {
        return Library.core().impls().stream().filter(i -> i.intrinsic() != Intrinsic.NONE).toList();
    }

    @Provide
    Arbitrary<Call> calls() {
        List<Arbitrary<Call>> each = new ArrayList<>();
        for (Impl impl : intrinsics()) {
            for (Type var : List.of(Type.INT, Type.FLOAT, Type.BOOL, Type.STRING)) {
                Type.Fn inst = instantiate(impl.overload().signature(), var);
                List<Arbitrary<Object>> ins = new ArrayList<>();
                for (Type t : inst.ins()) ins.add(values(t));
                each.add(Combinators.combine(ins).as(vs -> new Call(impl, inst, List.copyOf(vs))));
                if (!hasVars(impl.overload().signature())) break;
            }
        }
        return Arbitraries.oneOf(each);
    }

    private static boolean hasVars(Type.Fn f) { return !Type.isGround(f); }

    /** The signature with every type variable replaced by {@code t}. */
    private static Type.Fn instantiate(Type.Fn f, Type t) {
        List<Type> ins = f.ins().stream().map(x -> x instanceof Type.Var ? t : x).toList();
        List<Type> outs = f.outs().stream().map(x -> x instanceof Type.Var ? t : x).toList();
        return Type.Fn.of(ins, outs);
    }

    @SuppressWarnings("unchecked")
    private static Arbitrary<Object> values(Type t) {
        if (t == Type.INT) return (Arbitrary<Object>) (Arbitrary<?>) Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
        if (t == Type.FLOAT) {
            return (Arbitrary<Object>) (Arbitrary<?>) Arbitraries.oneOf(Arbitraries.doubles(),
                    Arbitraries.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1.0, -1.0));
        }
        if (t == Type.BOOL) return (Arbitrary<Object>) (Arbitrary<?>) Arbitraries.of(true, false);
        if (t == Type.STRING) return (Arbitrary<Object>) (Arbitrary<?>) Arbitraries.strings().ofMaxLength(4);
        throw new IllegalArgumentException("no generator for " + t);
    }

    private static Literal literal(Type t, Object v) {
        if (t == Type.INT) return new Literal.IntLit((Long) v);
        if (t == Type.FLOAT) return new Literal.FloatLit((Double) v);
        if (t == Type.BOOL) return new Literal.BoolLit((Boolean) v);
        return new Literal.StringLit((String) v);
    }
}
