package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.lisp.Lisp;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.Value;
import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.word.Library;
import org.junit.jupiter.api.Test;

/**
 * A submission with more definitions and constants than one generated class holds (finch-bench's Growth found the
 * limit at about 3,000 generated lines: the constant pool, then the class initializer at 10,000) compiles in several
 * classes that call each other's words, runs, and its words stay callable from later submissions.
 */
class OversizedProgramTest {
    /** Three definitions a step, each calling the step's earlier ones: {@code "41" h<i>} answers {@code 41 + 2·(41 + i)}. */
    private static String forth(int steps) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < steps; i++) {
            s.append(": f").append(i).append(" ( int -- int ) ").append(i).append(" + :> y y 10 > if y 2 * else y 1 - then ;\n");
            s.append(": g").append(i).append(" ( string -- string ) string-upcase \"-").append(i).append("\" string-append ;\n");
            s.append(": h").append(i).append(" ( string -- int ) :> t t string-to-int if-some dup f").append(i)
                    .append(" + else t g").append(i).append(" string-length then ;\n");
        }
        return s.append("\"41\" h0\n").toString();
    }

    /** A ring of {@code n} functions, each calling the next and the last the first: one cycle through every class. */
    private static String lispRing(int n, int calls) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append("(define (f").append(i).append(" k) (if (= k 0) ").append(i).append(" (f").append((i + 1) % n).append(" (- k 1))))\n");
        }
        return s.append("(f0 ").append(calls).append(")\n").toString();
    }

    @Test
    void threeThousandLinesOfDefinitionsCompileAndRun() {
        try (Finch finch = Finch.builder().build()) {
            var session = finch.newSession();
            Outcome o = session.submit(Submission.of(forth(1_000), "big.fth"));
            assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(o.values()).containsExactly(Value.of(123));
            // The last definitions, compiled in another class than the first, are the session's words now.
            Outcome later = session.submit(Submission.of("\"41\" h999 \"x\" h998", "t.fth"));
            assertThat(later.values()).containsExactly(Value.of(123), Value.of(41 + 2 * (41 + 999)), Value.of(5));
        }
    }

    @Test
    void aCycleOfCallsThroughEveryClassOfOneSubmissionRuns() {
        int n = 3_000;
        try (Finch finch = Finch.builder().build()) {
            Outcome o = finch.newSession().submit(Submission.of(lispRing(n, n + 7), "ring.lisp"));
            assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
            // n + 7 calls go once round the ring and seven functions further.
            assertThat(o.values()).containsExactly(Value.of(7));
        }
    }

    @Test
    void theRingIsCompiledInSeveralClassesAndTheSmallProgramInOne() {
        assertThat(compile(lispRing(3_000, 1), ModuleCompiler.Tiering.COMPILE_ALL).classes()).isGreaterThan(1);
        assertThat(compile(lispRing(30, 1), ModuleCompiler.Tiering.COMPILE_ALL).classes()).isEqualTo(1);
        // The differential tier the spec corpus also runs in: each word a class of its own (the main with the last).
        assertThat(compile(lispRing(30, 1), ModuleCompiler.Tiering.COMPILE_APART).classes()).isEqualTo(30);
    }

    /** Lowers, verifies and compiles {@code lisp} on a thread with a session's big stack (the ring is one deep cycle). */
    private static ModuleCompiler.Compiled compile(String lisp, ModuleCompiler.Tiering tiering) {
        var out = new java.util.concurrent.atomic.AtomicReference<ModuleCompiler.Compiled>();
        var failure = new java.util.concurrent.atomic.AtomicReference<Throwable>();
        Thread t = new Thread(null, () -> {
            try {
                out.set(compileHere(lisp, tiering));
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "compile", 512L << 20);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        if (failure.get() != null) throw new AssertionError(failure.get());
        return out.get();
    }

    private static ModuleCompiler.Compiled compileHere(String lisp, ModuleCompiler.Tiering tiering) {
        Environment env = Environment.of(Library.core().vocabulary()).withBudget(CompileBudget.standard());
        var lowering = new Lisp().lower(lisp, "ring.lisp", env);
        assertThat(lowering.diagnostics()).isEmpty();
        Verification v = Verifier.verify(lowering.module().orElseThrow(), env);
        assertThat(v.diagnostics()).isEmpty();
        CheckedModule module = v.module().orElseThrow();
        return ModuleCompiler.compile(module, VmState.empty(Library.core()), tiering, Library.core());
    }
}
