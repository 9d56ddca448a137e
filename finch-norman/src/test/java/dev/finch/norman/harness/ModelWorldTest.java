package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.vm.value.Money;
import dev.finch.vm.value.RecordValue;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The real-provider world's builder: money and durations, stated, exact; each get() a fresh world. */
class ModelWorldTest {
    static final ModelProvider PROVIDER = request -> new ModelProvider.Reply("1", 1, "stop", 0);

    /** What a world reports it has left: {money, duration}. */
    static RecordValue remaining(ScriptedModels world) { return (RecordValue) world.remaining(); }

    @Test
    void theBudgetAndTimeLimitAreMoneyAndDurations() {
        ModelWorld w = ModelWorld.over(PROVIDER).budget(new BigDecimal("0.05")).timeLimit(Duration.ofMinutes(2)).build();
        assertThat(w.budget()).isEqualTo(Money.ofMicros(50_000));
        assertThat(w.timeLimit()).contains(Duration.ofMinutes(2));
        assertThat(w.provider()).isSameAs(PROVIDER);
        ScriptedModels world = w.get();
        assertThat(remaining(world).get(0)).isEqualTo(Money.ofMicros(50_000));
        dev.finch.vm.value.Duration left = (dev.finch.vm.value.Duration) remaining(world).get(1);
        assertThat(left.unlimited()).isFalse();
        assertThat(left.millis()).isBetween(60_000L, 120_000L);
        assertThat(w.get()).as("a fresh world per run").isNotSameAs(world);
    }

    @Test
    void unlimitedIsSaidOutLoud() {
        ModelWorld w = ModelWorld.over(PROVIDER).unlimitedBudget().build();
        assertThat(w.budget()).isEqualTo(Money.UNLIMITED);
        assertThat(w.timeLimit()).isEmpty();
        assertThat(remaining(w.get()).get(0)).isEqualTo(Money.UNLIMITED);
        assertThat(remaining(w.get()).get(1)).isEqualTo(dev.finch.vm.value.Duration.UNLIMITED);
        assertThat(ModelWorld.over(PROVIDER).budget(Money.UNLIMITED).timeLimit(Duration.ofSeconds(1)).noTimeLimit().build().timeLimit()).isEmpty();
    }

    @Test
    void aWorldWithoutAStatedBudgetIsRefused() {
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).timeLimit(Duration.ofSeconds(5)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("unlimitedBudget()");
    }

    @Test
    void inexactOrNegativeAmountsAreRefused() {
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).budget(new BigDecimal("0.0000001"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("micro-dollar");
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).budget(new BigDecimal("-1"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).budget(new BigDecimal("1e20"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).timeLimit(Duration.ofNanos(1500))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).timeLimit(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ModelWorld.over(PROVIDER).budget(new BigDecimal("1.500000")).build().budget()).isEqualTo(Money.ofMicros(1_500_000));
    }
}
