package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compiled tier charges exactly the steps the interpreter charges, where compiled code pays them in bulk: a
 * counted loop pays its fuel per strip of iterations, and a recursive word threads its fuel through its calls.
 * For each program the interpreter finds the least step budget that completes it; the compiled tier must fail one
 * step under that budget (less the one step the interpreter charges for entering the top-level program) with the
 * step limit's diagnostic and complete at it, with the same result.
 */
class FuelTiersTest {
    private static final String LEAVES = ": k-add ( int int -- int ) + ; : k-inc ( int -- int ) 1 + ; ";

    private static Outcome run(Finch.Tier tier, long steps, String src) {
        return Finch.builder().tier(tier).maxSteps(steps).maxDepth(100_000).build().newSession()
                .submit(Submission.of(src, src.startsWith("(") ? "t.lisp" : "t"));
    }

    private static String code(Outcome o) { return o.fields().diagnostics().get(0).code(); }

    /** The least budget under which the interpreter completes {@code src}. */
    private static long leastBudget(String src) { return leastBudget(Finch.Tier.INTERPRETED, src); }

    private static long leastBudget(Finch.Tier tier, String src) {
        long lo = 1;
        long hi = 1;
        while (!(run(tier, hi, src) instanceof Outcome.Completed)) {
            lo = hi;
            hi *= 2;
        }
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (run(tier, mid, src) instanceof Outcome.Completed) hi = mid;
            else lo = mid + 1;
        }
        return hi;
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // Counted loops: a local bound, a literal bound, a bound on the stack, leaf calls in the body.
            ": s ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ; 40000 s",
            "0 0 begin dup 40000 < while tuck + swap 1 + repeat drop",
            "40000 0 begin over over > while 1 + repeat",
            LEAVES + ": s ( int -- int ) :> n 0 0 begin dup n < while tuck k-add swap 1 + repeat drop ; 30000 s",
            LEAVES + ": s ( int -- int ) :> n 0 0 begin dup n < while swap 3 k-add 1 k-add swap 1 + repeat drop ; 30000 s",
            // The increment in a leaf word, and a leaf word that keeps its input in a local of its own.
            LEAVES + ": s ( int -- int ) :> n 0 0 begin dup n < while tuck k-add swap k-inc repeat drop ; 30000 s",
            ": k-inc ( int -- int ) :> x x 1 + ; : s ( int -- int ) :> n 0 0 begin dup n < while tuck + swap k-inc repeat drop ; 30000 s",
            // The counter in a named local the body stores (the shape Lisp's named let lowers to): a local bound, the
            // increment first, a literal bound with leaf calls, and a counter stepped twice (no strip: the same budget).
            ": s ( int -- int ) :> n 0 :> i 0 :> t begin i n < while t i + :> t i 1 + :> i repeat t ; 40000 s",
            ": s ( int -- int ) :> n 0 :> i 0 :> t begin i n < while i 1 + :> i t i + :> t repeat t ; 40000 s",
            LEAVES + ": s ( int -- int ) :> n n :> i 0 :> t begin i 30000 < while t i k-add :> t i k-inc :> i repeat t ; 0 s",
            ": s ( int -- int ) :> n 0 :> i 0 :> t begin i n < while t i + :> t i 1 + 1 + :> i repeat t ; 40000 s",
            // A loop that starts far below zero and ends just below the largest int.
            "9223372036854735807 begin dup 9223372036854775807 < while 1 + repeat",
            // Loops nested in loops, and a loop whose body calls a word that loops (it charges the context).
            ": s ( int -- int ) :> n 0 0 begin dup n < while 0 begin dup 100 < while 1 + repeat drop 1 + repeat drop ; 300 s",
            ": s ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ; "
                    + ": t ( int -- int ) :> m 0 0 begin dup m < while 100 s drop 1 + repeat drop ; 300 t",
            // Recursion: a recursive word, mutual recursion, recursion through a loop.
            ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ; 18 fib",
            ": fib ( int -- int ) :> n n 2 < if n else n 1 - fib n 2 - fib + then ; 18 fib",
            ": ping ( int -- int ) dup 0 = if else 1 - pong then ; : pong ( int -- int ) dup 0 = if else 1 - ping then ; 20000 ping",
            ": down ( int -- int ) dup 0 > if 1 - 0 begin dup 10 < while 1 + repeat drop down then ; 2000 down",
            // Recursion with a float, a bool, a reference and two results, and with an err propagated up by `?`.
            ": fsum ( int -- float ) dup 0 = if drop 0.0 else dup int-to-float swap 1 - fsum + then ; 2000 fsum",
            ": ev ( int -- bool ) dup 0 = if drop true else 1 - od then ; : od ( int -- bool ) dup 0 = if drop false else 1 - ev then ; 3001 ev",
            ": build ( int -- list<int> ) dup 0 = if drop empty-list<int> else dup 1 - build swap list-append then ; 500 build list-length",
            ": fib2 ( int -- int int ) dup 0 = if drop 0 1 else 1 - fib2 tuck + then ; 80 fib2",
            // Self-recursion compiled as twins (two copies calling each other) that calls a leaf word, a word that loops
            // and another threaded word, from either copy; and a twinned word called only through mutual recursion.
            LEAVES + ": sq ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ; "
                    + ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ; "
                    + ": r ( int -- int ) dup 0 > if 1 - 3 sq drop k-inc 1 - 5 fib drop r then ; 301 r",
            ": tw ( int -- int ) dup 3 < if else 1 - tw 1 - tw2 then ; : tw2 ( int -- int ) dup 0 > if 1 - tw then ; 40 tw",
            // Arithmetic a branch bounds (plain in compiled code) at the edges of its range.
            ": f ( int -- int ) dup -9223372036854775807 < if else 1 - then dup 9223372036854775807 < if 1 + then ; -9223372036854775807 f 9223372036854775806 f",
            ": up ( int -- result<int,string> ) dup 0 = if ok else 1 - up ? 1 + ok then ; 700 up",
            ": bad ( int -- result<int,string> ) dup 0 = if drop \"bottom\" err else 1 - bad ? 1 + ok then ; 700 bad"})
    void theCompiledTierStopsAtTheInterpretersBudget(String src) {
        // The interpreter charges the top-level program's entry as a step; compiled top-level code does not.
        long least = leastBudget(src) - 1;
        // Compiled as one class, and with each word in a class of its own (every call between words crossing classes).
        for (Finch.Tier tier : java.util.List.of(Finch.Tier.COMPILED, Finch.Tier.COMPILED_APART)) {
            Outcome under = run(tier, least - 1, src);
            assertThat(under.status()).as(tier.name()).isEqualTo(Outcome.Status.FAILED);
            assertThat(code(under)).as(tier.name()).isEqualTo("E-LIMIT-001");
            Outcome at = run(tier, least, src);
            assertThat(at).as(tier.name()).isInstanceOf(Outcome.Completed.class);
            assertThat(at.fields().stack()).as(tier.name()).isEqualTo(run(Finch.Tier.INTERPRETED, least + 1, src).fields().stack());
        }
    }

    /**
     * Lisp's named let written either way round, {@code (if (< i n) (loop …) t)} or {@code (if (>= i n) t (loop …))},
     * lowers to one counted loop ({@code CompletionFormsTest} pins the IR): the same steps in the interpreter, and in
     * the compiled tier the same strip, stopping one step under the interpreter's budget.
     */
    @org.junit.jupiter.api.Test void aNamedLetEitherWayRoundIsOneCountedLoop() {
        String forward = "(define (sum n) (let loop ((i 0) (t 0)) (if (< i n) (loop (+ i 1) (+ t i)) t))) (sum 40000)";
        String reversed = "(define (sum n) (let loop ((i 0) (t 0)) (if (>= i n) t (loop (+ i 1) (+ t i))))) (sum 40000)";
        long least = leastBudget(forward);
        assertThat(leastBudget(reversed)).isEqualTo(least);
        for (String src : java.util.List.of(forward, reversed)) {
            assertThat(code(run(Finch.Tier.COMPILED, least - 2, src))).as(src).isEqualTo("E-LIMIT-001");
            Outcome at = run(Finch.Tier.COMPILED, least - 1, src);
            assertThat(at).as(src).isInstanceOf(Outcome.Completed.class);
            assertThat(at.fields().stack()).isEqualTo(run(Finch.Tier.INTERPRETED, least, forward).fields().stack());
        }
    }

    /**
     * A recursive word run through its execution token: the token's compiled adapter charges a step of its own at
     * entry, which makes up for the interpreter's step for the top-level program, so both tiers need the same
     * budget (as before fuel was threaded), and both stop one step under it.
     */
    @org.junit.jupiter.api.Test void aThreadedWordThroughItsExecutionToken() {
        String src = ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ; 15 ['] fib execute";
        long least = leastBudget(src);
        assertThat(leastBudget(Finch.Tier.COMPILED, src)).isEqualTo(least);
        assertThat(code(run(Finch.Tier.COMPILED, least - 1, src))).isEqualTo("E-LIMIT-001");
        assertThat(run(Finch.Tier.COMPILED, least, src).fields().stack()).isEqualTo(run(Finch.Tier.INTERPRETED, least, src).fields().stack());
    }

    /**
     * An overflow inside a strip, in a branch whose bound does not cover it, or in either copy of a twinned
     * recursion is the same error in every tier.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            ": s ( int -- int ) :> n 9223372036854000000 0 begin dup n < while tuck + swap 1 + repeat drop ; 5000000 s",
            "9223372036854775000 0 begin dup 2000 < while swap 1 + swap 1 + repeat",
            ": s ( int -- int ) :> n 0 :> i 9223372036854000000 :> t begin i n < while t i + :> t i 1 + :> i repeat t ; 5000000 s",
            // A branch's bound proves only what it bounds: these stay checked.
            ": f ( int -- int ) dup 2 < if 1 - then ; -9223372036854775808 f",
            ": g ( int -- int ) dup 0 > if 1 + then ; 9223372036854775807 g",
            ": h ( int -- int ) 5 over < if else 1 - then ; -9223372036854775808 h",
            ": k ( int -- int ) dup 100 < if else 1 + then ; 9223372036854775807 k",
            ": n ( int -- int ) :> x x 2 < if x 1 - else x then ; -9223372036854775808 n",
            ": m ( int -- int ) :> x x 2 < if 0 else x 5 < if -9223372036854775808 :> x then x 1 - then ; 3 m",
            // In a twinned recursion, in one copy and in the other (the overflowing frame is 12 and 13 levels down).
            ": up ( int -- int ) dup 0 = if drop 9223372036854775800 else 1 - up 1 + then ; 20 up",
            ": up ( int -- int ) dup 0 = if drop 9223372036854775800 else 1 - up 1 + then ; 21 up"})
    void overflowInAStripIsAnError(String src) {
        for (Finch.Tier tier : Finch.Tier.values()) {
            Outcome o = run(tier, Long.MAX_VALUE, src);
            assertThat(code(o)).as(tier.name()).isEqualTo("E-ARITH-001");
        }
    }
}
