package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.vm.Value;
import dev.finch.vm.engine.VmCode;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The public pieces the µNorman test harness (finch-norman-test) runs on, pinned here where they live: a frontend of
 * the host's own, a constant called like a word, an outcome that says whether the program erred, and recursive
 * values read back as Values.
 */
class SessionHostsApiTest {
    @Test
    void aHostsFrontendLowersItsLanguage() {
        AtomicInteger lowered = new AtomicInteger();
        Frontend counting = new Frontend() {
            private final Frontend forth = new dev.finch.forth.CoForth();

            @Override public String language() { return "forth"; }

            @Override public Lowering lower(String text, String sourceId, Environment env) {
                lowered.incrementAndGet();
                return forth.lower(text, sourceId, env);
            }
        };
        try (Finch finch = Finch.builder().frontend(Language.FORTH, counting).build()) {
            Outcome o = finch.newSession().submit(Submission.of("1 2 +", "a.fth"));
            assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(lowered).hasValue(1);
        }
        assertThatThrownBy(() -> Finch.builder().frontend(Language.LISP, counting)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConstantIsCalledWithNoArguments() {
        try (Finch finch = Finch.create()) {
            Session s = finch.newSession();
            s.submit(Submission.of("41 constant answer", "a.fth"));
            Outcome o = s.call("answer");
            assertThat(o.status()).as(FinchJson.write(o)).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(o.values()).containsExactly(Value.of(41));
            assertThat(s.call("answer", Value.of(1)).diagnostics()).extracting(d -> d.code()).containsExactly("E-SESSION-007");
        }
    }

    @Test
    void anOutcomeSaysWhetherTheProgramErred() {
        try (Finch finch = Finch.builder().maxSteps(10_000).build()) {
            Session s = finch.newSession();
            Outcome divided = s.submit(Submission.of("1 0 /", "a.fth"));
            assertThat(divided.checkedRuntimeError()).map(d -> d.code()).contains(VmCode.DIVIDE_BY_ZERO.code());
            Outcome looped = s.submit(Submission.of(": spin ( -- ) begin true while repeat ; spin", "b.fth"));
            assertThat(looped.status()).isEqualTo(Outcome.Status.FAILED);
            assertThat(looped.checkedRuntimeError()).as("a step limit is not the program's error").isEmpty();
            assertThat(s.submit(Submission.of("1 \"a\" +", "c.fth")).checkedRuntimeError()).as("a type error is not a run").isEmpty();
            assertThat(s.submit(Submission.of("1", "d.fth")).checkedRuntimeError()).isEmpty();
        }
        assertThat(VmCode.of("E-LIMIT-001")).contains(VmCode.STEP_LIMIT);
        assertThat(VmCode.STEP_LIMIT.programFault()).isFalse();
        assertThat(VmCode.PROGRAM_ERROR.programFault()).isTrue();
        assertThat(VmCode.of("E-NOPE-000")).isEmpty();
    }

    @Test
    void aListOfARecursiveTypeReadsBackAsAValue() {
        try (Finch finch = Finch.create()) {
            Session s = finch.newSession();
            Outcome o = s.submit(Submission.of("(record Plan (goal Text) (steps (List Plan)))\n"
                    + "(define plans () (list (Plan [goal \"ship\"] [steps (list (Plan [goal \"build\"] [steps '()]))])))", "t.nm")
                    .withLanguage(Language.NORMAN));
            assertThat(o.status()).as(FinchJson.write(o)).isEqualTo(Outcome.Status.COMPLETED);
            Outcome f = s.call("plans");
            assertThat(f.status()).as(FinchJson.write(f)).isEqualTo(Outcome.Status.COMPLETED);
            List<Value> values = f.values();
            assertThat(values).hasSize(1);
            assertThat(values.get(0).display()).contains("ship", "build");
        }
    }
}
