package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Suspension;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs every program through the compiled tier; {@link InterpretedVmTest} runs the same tests interpreted, {@link
 * ApartVmTest} compiled with each word in a class of its own.
 */
class VmTest {
    static Vm VM;

    /** Each class sets its own tier: a subclass's {@code @BeforeAll} runs after this one and replaces the VM. */
    @BeforeAll static void compileEverything() { VM = new Vm(dev.finch.vm.compile.ModuleCompiler.Tiering.COMPILE_ALL); }

    @AfterAll static void close() { VM.close(); }

    static RunResult run(CheckedWord main, CheckedWord... words) {
        return VM.run("t", Build.module(main, words), VmState.EMPTY, Limits.DEFAULT, OutputSink.NONE, new CancelToken());
    }

    static RunResult run(Limits limits, CheckedWord main, CheckedWord... words) {
        return VM.run("t", Build.module(main, words), VmState.EMPTY, limits, OutputSink.NONE, new CancelToken());
    }

    /** fib as a recursive word: ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then */
    static CheckedWord fib() {
        Type.Fn sig = Build.sig("int -> int");
        Build b = new Build(List.of(Type.INT));
        b.op("dup", "int -> int int").pushInt(2).op("<", "int int -> bool")
                .ifElse(t -> { }, e -> e.op("dup", "int -> int int").pushInt(1).op("-", "int int -> int").word("fib", sig, false)
                        .op("swap", "int int -> int int").pushInt(2).op("-", "int int -> int").word("fib", sig, false)
                        .op("+", "int int -> int"));
        return b.asWord("fib", sig, false);
    }

    @Test void recursiveFib() {
        Build m = new Build(List.of()).pushInt(20).word("fib", Build.sig("int -> int"), false);
        RunResult r = run(Build.main(m, false), fib());
        assertThat(r).isInstanceOf(RunResult.Completed.class);
        VmState s = ((RunResult.Completed) r).state();
        assertThat(s.stack()).extracting(TypedValue::display).containsExactly("6765");
        assertThat(s.words()).containsKey("fib");
    }

    @Test void sayStreamsOutputInOrder() {
        List<String> chunks = new ArrayList<>();
        Build m = new Build(List.of()).pushStr("hello, ").op("say", "string ->").pushInt(40).pushInt(2).op("+", "int int -> int")
                .op("int-to-string", "int -> string").op("say", "string ->");
        RunResult r = VM.run("t", Build.module(Build.main(m, false)), VmState.EMPTY, Limits.DEFAULT, chunks::add, new CancelToken());
        assertThat(r.output()).isEqualTo("hello, 42");
        assertThat(chunks).containsExactly("hello, ", "42");
    }

    @Test void overflowIsAnExecuteError() {
        Build m = new Build(List.of()).pushInt(Long.MAX_VALUE).pushInt(1).op("+", "int int -> int");
        RunResult r = run(Build.main(m, false));
        assertThat(r).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-ARITH-001");
    }

    @Test void divisionByZeroIsAnExecuteError() {
        Build m = new Build(List.of()).pushInt(1).pushInt(0).op("/", "int int -> int");
        RunResult r = run(Build.main(m, false));
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-ARITH-002");
    }

    @Test void unwrapOfNone() {
        Build m = new Build(List.of()).list(Type.INT, e -> e.pushInt(3)).pushInt(9).op("list-get", "list<int> int -> option<int>")
                .op("unwrap", "option<int> -> int");
        RunResult r = run(Build.main(m, false));
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-OPTION-001");
    }

    @Test void infiniteLoopHitsTheStepLimit() {
        Build m = new Build(List.of()).loop(t -> t.pushBool(true), body -> { });
        RunResult r = run(Limits.DEFAULT.withMaxSteps(1_000_000), Build.main(m, false));
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-LIMIT-001");
    }

    @Test void infiniteLoopHitsTheDeadline() {
        Build m = new Build(List.of()).loop(t -> t.pushBool(true), body -> { });
        // Endless, with no step limit: only the deadline can have stopped it.
        RunResult r = run(Limits.DEFAULT.withMaxSteps(Long.MAX_VALUE).withTimeout(Duration.ofMillis(200)), Build.main(m, false));
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-LIMIT-002");
    }

    @Test void runawayRecursionHitsTheDepthLimit() {
        Type.Fn sig = Build.sig("int -> int");
        Build w = new Build(List.of(Type.INT)).pushInt(1).op("+", "int int -> int").word("down", sig, false);
        Build m = new Build(List.of()).pushInt(0).word("down", sig, false);
        RunResult r = run(Limits.DEFAULT.withMaxDepth(50_000), Build.main(m, false), w.asWord("down", sig, false));
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-LIMIT-003");
    }

    @Test void yieldSuspendsAndResumesAtDepth() {
        // : inner ( int -- int yields<int,unit> ) dup yield 10 * ;   : outer ( int -- int ... ) 1 + inner 3 + ;
        Type.Fn innerSig = Build.sig("int -> int yields<int,unit>");
        Build inner = new Build(List.of(Type.INT)).op("dup", "int -> int int").op("yield", "int -> yields<int,unit>")
                .pushInt(10).op("*", "int int -> int");
        Build outer = new Build(List.of(Type.INT)).pushStr("a").op("say", "string ->").pushInt(1).op("+", "int int -> int")
                .word("inner", innerSig, true).pushInt(3).op("+", "int int -> int").pushStr("b").op("say", "string ->");
        Build m = new Build(List.of()).pushInt(100).pushInt(4).word("outer", innerSig, true).op("+", "int int -> int");
        RunResult r = run(Build.main(m, true), inner.asWord("inner", innerSig, true), outer.asWord("outer", innerSig, true));
        assertThat(r).isInstanceOf(RunResult.Suspended.class);
        Suspension s = ((RunResult.Suspended) r).suspension();
        assertThat(s.payload().display()).isEqualTo("5");
        assertThat(s.frames()).extracting(f -> f.substring(0, f.indexOf('@'))).containsExactly("main", "outer", "inner");
        assertThat(r.output()).isEqualTo("a");
        RunResult done = VM.resume(s, Limits.DEFAULT, OutputSink.NONE, new CancelToken());
        assertThat(done).isInstanceOf(RunResult.Completed.class);
        assertThat(done.output()).isEqualTo("ab");
        assertThat(((RunResult.Completed) done).state().stack()).extracting(TypedValue::display).containsExactly("153");
        // A continuation runs once.
        RunResult again = VM.resume(s, Limits.DEFAULT, OutputSink.NONE, new CancelToken());
        assertThat(((RunResult.Failed) again).diagnostics().get(0).code()).isEqualTo("E-RUN-002");
    }

    @Test void variantAndRecordOps() {
        Type vt = dev.finch.ir.type.TypeSyntax.parse("variant{none|some(int)}");
        Build m = new Build(List.of()).pushInt(7)
                .op("variant", "int -> variant{none|some(int)}", new Immediate.TypeArg(vt), new Immediate.NameArg("some"))
                .op("variant-get", "variant{none|some(int)} -> option<int>", new Immediate.NameArg("some"))
                .ifSome(Type.INT, s -> s.pushInt(1).op("+", "int int -> int").op("int-to-string", "int -> string").op("say", "string ->"),
                        n -> n.pushStr("none").op("say", "string ->"));
        RunResult r = run(Build.main(m, false));
        assertThat(r.output()).isEqualTo("8");
    }

    @Test void functionTooLargeForOneJvmMethodStillRuns() {
        Type.Fn sig = Build.sig("int -> int");
        Build w = new Build(List.of(Type.INT));
        for (int i = 0; i < 9000; i++) w.pushInt(1).op("+", "int int -> int");
        Build m = new Build(List.of()).pushInt(5).word("big", sig, false);
        RunResult r = run(Build.main(m, false), w.asWord("big", sig, false));
        assertThat(((RunResult.Completed) r).state().stack()).extracting(TypedValue::display).containsExactly("9005");
    }
}
