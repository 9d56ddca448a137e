package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue 15, item 1: yield in both frontends and both tiers; (yield) is unit yield. */
class YieldTest {
    /** Runs {@code text}, resuming unit yields as the interactive rule does, and answers the last outcome. */
    private static Outcome runThrough(Session s, String text, String sourceId) {
        Outcome o = s.submit(Submission.of(text, sourceId));
        for (int i = 0; i < 100 && o instanceof Outcome.Suspended su && su.isUnitYield(); i++) o = s.resume(o.executionId());
        return o;
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void lispYieldWithoutAValueIsUnitYield(Finch.Tier tier) {
        Session s = Finch.builder().tier(tier).build().newSession();
        Outcome first = s.submit(Submission.of("(say \"a\") (yield) (say \"b\")", "y.lisp"));
        assertThat(first).isInstanceOf(Outcome.Suspended.class);
        assertThat(((Outcome.Suspended) first).isUnitYield()).isTrue();
        assertThat(first.output()).isEqualTo("a");
        Outcome done = s.resume(first.executionId());
        assertThat(done.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("ab");
        Outcome inside = runThrough(s, "(define (steps n) (say \"x\") (yield) (say \"y\") (* n 2)) (steps 21)", "d.lisp");
        assertThat(inside.status()).as("%s", inside).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(inside.output()).isEqualTo("xy");
        assertThat(inside.values()).containsExactly(Value.of(42));
        assertThat(s.definitions().get("steps")).contains("yields<unit,unit>");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void lispYieldWithAValuePublishesIt(Finch.Tier tier) {
        Session s = Finch.builder().tier(tier).build().newSession();
        Outcome o = s.submit(Submission.of("(yield 5) (say \"after\")", "v.lisp"));
        assertThat(((Outcome.Suspended) o).yielded().orElseThrow().display()).isEqualTo("5");
        assertThat(s.resume(o.executionId()).output()).isEqualTo("after");
        Outcome malformed = s.submit(Submission.of("(yield 1 2)", "bad.lisp"));
        assertThat(malformed.diagnostics().get(0).code()).isEqualTo("E-LISP-101");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void coForthInfersAYieldingDefinitionAndChecksADeclaredOne(Finch.Tier tier) {
        Session s = Finch.builder().tier(tier).build().newSession();
        Outcome o = runThrough(s, ": tick \"a\" say unit yield \"b\" say ;\ntick", "t.fth");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("ab");
        Outcome declared = s.submit(Submission.of(": tock ( -- ) unit yield ;", "d.fth"));
        assertThat(declared.diagnostics().get(0).code()).isEqualTo("E-VERIFY-026");
        Outcome right = runThrough(s, ": tock ( -- yields<unit,unit> ) \"c\" say unit yield \"d\" say ; tock", "r.fth");
        assertThat(right.output()).isEqualTo("cd");
    }
}
