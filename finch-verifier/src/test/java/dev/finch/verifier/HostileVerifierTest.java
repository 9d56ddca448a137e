package dev.finch.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, the verify phase: work is charged per instruction and unification step (E-LIMIT-015, deadline, cancel),
 * inferred types are bounded in size and nesting where the verifier builds them (E-LIMIT-014/012), blocks nest at most
 * maxNesting deep — refused before any recursive pass — and a deep operand stack costs linear work, not quadratic.
 */
class HostileVerifierTest {
    private static Environment env(CompileLimits limits) { return Ir.EMPTY.withBudget(CompileBudget.of(limits, Long.MAX_VALUE, () -> false)); }

    private static Diagnostic refused(Module m, Environment env) {
        Verification v = Verifier.verify(m, env);
        assertThat(v.ok()).isFalse();
        assertThat(v.diagnostics()).hasSize(1);
        assertThat(v.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
        return v.diagnostics().get(0);
    }

    private static Diagnostic refused(String src) { return refused(Ir.module(src), env(CompileLimits.DEFAULT)); }

    /** {@code depth} list literals, one inside the other, around a literal. */
    private static Module nestedLists(int depth) {
        Block b = Block.of(new Instr.Push(new Literal.IntLit(1), Ir.at(0)));
        for (int i = 0; i < depth; i++) b = Block.of(new Instr.ListLit(b, Ir.at(i + 1)));
        return new Module("test", "forth", List.of(), b);
    }

    @Test void blocksAtTheNestingLimitVerifyAndOneMoreIsRefusedWithoutRecursing() {
        // At the bound every recursive pass (the checker, the rewriters, effects) runs 256 levels deep.
        Verification atBound = Verifier.verify(nestedLists(256), env(CompileLimits.DEFAULT));
        assertThat(atBound.diagnostics()).isEmpty();
        assertThat(refused(nestedLists(257), env(CompileLimits.DEFAULT)).code()).isEqualTo("E-LIMIT-012");
        assertThat(refused(nestedLists(1_000_000), env(CompileLimits.DEFAULT)).code()).isEqualTo("E-LIMIT-012");
    }

    @Test void workIsChargedPerInstructionAndStopsAPathologicalModule() {
        Diagnostic d = refused(Ir.module("1 " + "dup drop ".repeat(10_000)), env(CompileLimits.DEFAULT.withMaxWork(5_000)));
        assertThat(d.code()).isEqualTo("E-LIMIT-015");
        // A wide record bound to meta-variables again and again (`none`'s element type, which only unification settles,
        // and `=`'s variable, which meets two types): each binding's occurs check walks it, and that is charged too.
        StringBuilder wide = new StringBuilder("{ ");
        for (int i = 0; i < 2_000; i++) wide.append("f").append(i).append(": 1 ");
        wide.append("} ").append("dup some none = drop ".repeat(20_000));
        // Under a quarter of the default work limit (which this reaches in about a second on a quiet machine, too close
        // to the 2 s bound on a loaded one): the walks are what is charged, so the module is refused all the same.
        assertThat(refused(Ir.module(wide.toString()), env(CompileLimits.DEFAULT.withMaxWork(5_000_000))).code()).isEqualTo("E-LIMIT-015");
    }

    @Test void theDeadlineAndCancellationAreObservedWhileChecking() {
        Module big = Ir.module("1 " + "dup drop ".repeat(20_000));
        assertThat(refused(big, Ir.EMPTY.withBudget(CompileBudget.of(CompileLimits.DEFAULT, System.nanoTime() - 1, () -> false))).code())
                .isEqualTo("E-LIMIT-016");
        assertThat(refused(big, Ir.EMPTY.withBudget(CompileBudget.of(CompileLimits.DEFAULT, Long.MAX_VALUE, () -> true))).code())
                .isEqualTo("E-LIMIT-017");
    }

    @Test void sharedRecordsThatDoubleAreATypeSizeLimit() {
        StringBuilder src = new StringBuilder("1 :> x0 ");
        for (int i = 0; i < 40; i++) src.append("{ l: $x").append(i).append(" r: $x").append(i).append(" } :> x").append(i + 1).append(' ');
        src.append("$x40");
        Diagnostic d = refused(src.toString());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
    }

    @Test void letPolymorphicDoublingIsATypeSizeLimit() {
        // p : a -> record{l:a,r:a}; each word applies the one before twice: the type doubles per word (Hindley–Milner's
        // exponential case), in linear text.
        StringBuilder src = new StringBuilder(": p0 :> x { l: $x r: $x } ; ");
        for (int i = 1; i < 40; i++) src.append(": p").append(i).append(" p").append(i - 1).append(" p").append(i - 1).append(" ; ");
        src.append("1 p39");
        assertThat(refused(src.toString()).code()).isEqualTo("E-LIMIT-014");
        // Through metas only: a declared generic word applied over and over in one body.
        assertThat(refused(": d ( a -> map<a,a> ) :> x map{ $x $x }map ; 1" + " d".repeat(40)).code()).isEqualTo("E-LIMIT-014");
    }

    @Test void anInferredTypeNestedDeeperThanTheLimitIsANestingLimit() {
        assertThat(Verifier.verify(Ir.module(": w :> x [ $x ] ; 1" + " w".repeat(250)), env(CompileLimits.DEFAULT)).diagnostics()).isEmpty();
        Diagnostic d = refused(": w :> x [ $x ] ; 1" + " w".repeat(300));
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
    }

    @Test void aDeepStackUnderManyBranchesAndLiteralsCostsLinearWork() {
        // Before rows were shared, each of these copied the whole row per instruction and per block: 20,000 values
        // under 20,000 branches and 20,000 records were ~10^9 copied references. Now the work is proportional to size.
        String src = "1 ".repeat(10_000) + "true if 1 drop then ".repeat(10_000) + "[ " + "{ a: 1 b: \"x\" } ".repeat(10_000) + "] drop";
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT, Long.MAX_VALUE, () -> false);
        Verification v = Verifier.verify(Ir.module(src), Ir.EMPTY.withBudget(budget));
        assertThat(v.diagnostics()).isEmpty();
        assertThat(v.module().orElseThrow().main().signature().outs()).hasSize(10_000);
        assertThat(budget.work()).isLessThan(1_000_000L);
    }
}
