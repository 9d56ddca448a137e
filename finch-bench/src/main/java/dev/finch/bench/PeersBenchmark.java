package dev.finch.bench;

import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import groovy.lang.GroovyClassLoader;
import groovy.lang.GroovyShell;
import groovy.transform.CompileStatic;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import javax.script.Invocable;
import javax.script.ScriptEngine;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.customizers.ASTTransformationCustomizer;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.Scriptable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same workloads on Finch, its peers and handwritten Java, in one run: a never-seen one-line program
 * ({@code x = i; x*2+1}, {@code i} a counter) in a warm engine; a brand-new engine answering {@code 1+2}; fib(27)
 * and the sum of 0 … 5·10^6−1 called from Java through each engine's public call path. Peers: LuaJ 3.0.1
 * (interpreter), Rhino 1.9.2 (interpreted for new programs, compiled for the kernels), Nashorn 15.4, Groovy 5.0.8
 * ({@code @CompileStatic}), Chicory 1.7.5 (WebAssembly: its interpreter, and for the kernels also its compiler to JVM
 * bytecode; the modules are {@link WasmModules}). For Chicory a new program is a module never seen before (the
 * one-liner with {@code i} as its constant), encoded, parsed, validated, instantiated and called; a brand-new engine is
 * a new instance of a module parsed anew. Median per operation: {@code Mode.SampleTime}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xss16m", "-Xms1g", "-Xmx1g"})
public class PeersBenchmark {
    static final String LUA_KERNELS = "function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\n"
            + "function sum(n) local t = 0 for i = 0, n - 1 do t = t + i end return t end";
    static final String JS_KERNELS = "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2); }\n"
            + "function sum(n) { var t = 0; for (var i = 0; i < n; i++) t += i; return t; }";
    static final String GROOVY_KERNELS = "class K { static long fib(long n) { n < 2 ? n : fib(n - 1) + fib(n - 2) }\n"
            + "static long sum(long n) { long t = 0; for (long i = 0; i < n; i++) t += i; t } }";

    private long counter;
    private Finch finch;
    private Session finchSession;
    private Globals lua;
    private LuaValue luaFib;
    private LuaValue luaSum;
    private Context rhino;
    private Scriptable rhinoScope;
    private Function rhinoFib;
    private Function rhinoSum;
    private ScriptEngine nashorn;
    private GroovyShell groovy;
    private MethodHandle groovyFib;
    private MethodHandle groovySum;
    private ExportFunction chicoryFib;
    private ExportFunction chicorySum;
    private ExportFunction chicoryCompiledFib;
    private ExportFunction chicoryCompiledSum;

    @Setup public void setup() throws Throwable {
        finch = Finch.builder().build();
        finchSession = finch.newSession();
        Outcome defined = finchSession.submit(Submission.of(Kernels.FIB + " " + CallBenchmark.SUM5, "kernels.fth"));
        if (!(defined instanceof Outcome.Completed)) throw new IllegalStateException(defined.toString());
        lua = JsePlatform.standardGlobals();
        lua.load(LUA_KERNELS).call();
        luaFib = lua.get("fib");
        luaSum = lua.get("sum");
        rhino = Context.enter();
        rhinoScope = rhino.initStandardObjects();
        rhino.evaluateString(rhinoScope, JS_KERNELS, "kernels.js", 1, null);
        rhinoFib = (Function) rhinoScope.get("fib", rhinoScope);
        rhinoSum = (Function) rhinoScope.get("sum", rhinoScope);
        nashorn = new org.openjdk.nashorn.api.scripting.NashornScriptEngineFactory().getScriptEngine();
        nashorn.eval(JS_KERNELS);
        groovy = new GroovyShell(staticGroovy());
        FibSum<MethodHandle> groovyKernels = groovyKernels();
        groovyFib = groovyKernels.fib();
        groovySum = groovyKernels.sum();
        FibSum<ExportFunction> interpreted = chicoryKernels(false);
        chicoryFib = interpreted.fib();
        chicorySum = interpreted.sum();
        FibSum<ExportFunction> compiled = chicoryKernels(true);
        chicoryCompiledFib = compiled.fib();
        chicoryCompiledSum = compiled.sum();
        check(luaFib.call(LuaValue.valueOf(27)).tolong(), "LuaJ");
        check(((Number) rhinoFib.call(rhino, rhinoScope, rhinoScope, new Object[] {27})).longValue(), "Rhino");
        check(((Number) ((Invocable) nashorn).invokeFunction("fib", 27)).longValue(), "Nashorn");
        check((long) groovyFib.invokeExact(27L), "Groovy");
        check(chicoryFib.apply(27)[0], "Chicory");
        check(chicoryCompiledFib.apply(27)[0], "Chicory compiled");
        checkSum(chicorySum.apply(5_000_000)[0], "Chicory");
        checkSum(chicoryCompiledSum.apply(5_000_000)[0], "Chicory compiled");
        if (newProgramChicory() != 2 * counter + 1) throw new IllegalStateException("Chicory: new program");
        if (freshEngineChicory() != 3) throw new IllegalStateException("Chicory: 1+2");
    }

    private static void check(long fib27, String who) {
        if (fib27 != Kernels.javaFib(27)) throw new IllegalStateException(who + ": fib(27) = " + fib27);
    }

    private static void checkSum(long sum5m, String who) {
        if (sum5m != Kernels.javaSum(5_000_000)) throw new IllegalStateException(who + ": sum to 5M = " + sum5m);
    }

    /** One engine's two kernels, fib and the sum. */
    record FibSum<T>(T fib, T sum) { }

    /** The Groovy kernels compiled with {@code @CompileStatic}: {@code (long) long} handles. */
    static FibSum<MethodHandle> groovyKernels() throws ReflectiveOperationException, java.io.IOException {
        try (GroovyClassLoader loader = new GroovyClassLoader(PeersBenchmark.class.getClassLoader(), staticGroovy())) {
            Class<?> k = loader.parseClass(GROOVY_KERNELS);
            MethodType longToLong = MethodType.methodType(long.class, long.class);
            return new FibSum<>(MethodHandles.publicLookup().findStatic(k, "fib", longToLong),
                    MethodHandles.publicLookup().findStatic(k, "sum", longToLong));
        }
    }

    /** Chicory's kernels ({@link WasmModules#KERNELS}): run by its interpreter, or by its compiler to JVM bytecode. */
    static FibSum<ExportFunction> chicoryKernels(boolean compiled) {
        WasmModule kernels = Parser.parse(WasmModules.KERNELS);
        Instance.Builder b = Instance.builder(kernels);
        Instance i = compiled ? b.withMachineFactory(MachineFactoryCompiler.compile(kernels)).build() : b.build();
        return new FibSum<>(i.export("fib"), i.export("sum"));
    }

    static CompilerConfiguration staticGroovy() {
        CompilerConfiguration c = new CompilerConfiguration();
        c.addCompilationCustomizers(new ASTTransformationCustomizer(CompileStatic.class));
        return c;
    }

    @TearDown public void tearDown() {
        finch.close();
        Context.exit();
    }

    // ---- a never-seen one-line program in a warm engine ----

    @Benchmark public Outcome newProgramFinchForth() { return finch.newSession().submit(Submission.of(++counter + " :> x x 2 * 1 +", "turn.fth")); }

    @Benchmark public Outcome newProgramFinchLisp() {
        return finch.newSession().submit(Submission.of("(let ((x " + ++counter + ")) (+ (* x 2) 1))", "turn.lisp"));
    }

    @Benchmark public LuaValue newProgramLuaJ() { return lua.load("local x = " + ++counter + " return x*2+1").call(); }

    @Benchmark public Object newProgramRhinoInterpreted() {
        rhino.setInterpretedMode(true);
        try {
            return rhino.evaluateString(rhinoScope, "var x = " + ++counter + "; x*2+1", "turn.js", 1, null);
        } finally {
            rhino.setInterpretedMode(false);
        }
    }

    @Benchmark public Object newProgramNashorn() throws Exception { return nashorn.eval("var x = " + ++counter + "; x*2+1"); }

    @Benchmark public Object newProgramGroovyStatic() { return groovy.evaluate("long x = " + ++counter + "L; x*2+1"); }

    @Benchmark public long newProgramChicory() {
        return Instance.builder(Parser.parse(WasmModules.turn(++counter))).build().export("run").apply()[0];
    }

    // ---- a brand-new engine answering 1+2 ----

    @Benchmark public Outcome freshEngineFinch() {
        try (Finch fresh = Finch.builder().build()) {
            return fresh.newSession().submit(Submission.of("1 2 +", "fresh.fth"));
        }
    }

    @Benchmark public LuaValue freshEngineLuaJ() { return JsePlatform.standardGlobals().load("return 1+2").call(); }

    @Benchmark public Object freshEngineRhino() {
        Context cx = Context.enter();
        try {
            cx.setInterpretedMode(true);
            return cx.evaluateString(cx.initStandardObjects(), "1+2", "fresh.js", 1, null);
        } finally {
            Context.exit();
        }
    }

    @Benchmark public Object freshEngineNashorn() throws Exception {
        return new org.openjdk.nashorn.api.scripting.NashornScriptEngineFactory().getScriptEngine().eval("1+2");
    }

    @Benchmark public Object freshEngineGroovy() { return new GroovyShell(staticGroovy()).evaluate("1+2"); }

    @Benchmark public long freshEngineChicory() {
        return Instance.builder(Parser.parse(WasmModules.ONE_PLUS_TWO)).build().export("run").apply()[0];
    }

    // ---- fib(27) and the sum to 5M, called from Java ----

    @Benchmark public Outcome fib27Finch() { return finchSession.call("fib", Value.of(27)); }

    @Benchmark public LuaValue fib27LuaJ() { return luaFib.call(LuaValue.valueOf(27)); }

    @Benchmark public Object fib27Rhino() { return rhinoFib.call(rhino, rhinoScope, rhinoScope, new Object[] {27}); }

    @Benchmark public Object fib27Nashorn() throws Exception { return ((Invocable) nashorn).invokeFunction("fib", 27); }

    @Benchmark public long fib27GroovyStatic() throws Throwable { return (long) groovyFib.invokeExact(27L); }

    @Benchmark public long fib27Chicory() { return chicoryFib.apply(27)[0]; }

    @Benchmark public long fib27ChicoryCompiled() { return chicoryCompiledFib.apply(27)[0]; }

    @Benchmark public long fib27Java() { return Kernels.javaFib(27); }

    @Benchmark public Outcome sum5mFinch() { return finchSession.call("sum-to", Value.of(5_000_000)); }

    @Benchmark public LuaValue sum5mLuaJ() { return luaSum.call(LuaValue.valueOf(5_000_000)); }

    @Benchmark public Object sum5mRhino() { return rhinoSum.call(rhino, rhinoScope, rhinoScope, new Object[] {5_000_000}); }

    @Benchmark public Object sum5mNashorn() throws Exception { return ((Invocable) nashorn).invokeFunction("sum", 5_000_000); }

    @Benchmark public long sum5mGroovyStatic() throws Throwable { return (long) groovySum.invokeExact(5_000_000L); }

    @Benchmark public long sum5mChicory() { return chicorySum.apply(5_000_000)[0]; }

    @Benchmark public long sum5mChicoryCompiled() { return chicoryCompiledSum.apply(5_000_000)[0]; }

    @Benchmark public long sum5mJava() { return Kernels.javaSum(5_000_000L); }
}
