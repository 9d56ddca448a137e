package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.vm.value.Money;
import dev.finch.vm.value.RecordValue;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The real-provider world's builder: models, money and durations, stated, exact; each get() a fresh world. */
class ModelWorldTest {
    static final ModelProvider PROVIDER = request -> new ModelProvider.Reply("1", 1, "stop", 0);

    static final HostModel SONNET = HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 8192);

    /** A builder over {@link #PROVIDER} serving the model gpt. */
    static ModelWorld.Builder world() { return ModelWorld.over(PROVIDER).model("gpt", SONNET); }

    /** What a world reports it has left: {money, duration}. */
    static RecordValue remaining(ScriptedModels world) { return (RecordValue) world.remaining(); }

    @Test
    void theBudgetAndTimeLimitAreMoneyAndDurations() {
        ModelWorld w = world().budget(new BigDecimal("0.05")).timeLimit(Duration.ofMinutes(2)).build();
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
        ModelWorld w = world().unlimitedBudget().build();
        assertThat(w.budget()).isEqualTo(Money.UNLIMITED);
        assertThat(w.timeLimit()).isEmpty();
        assertThat(remaining(w.get()).get(0)).isEqualTo(Money.UNLIMITED);
        assertThat(remaining(w.get()).get(1)).isEqualTo(dev.finch.vm.value.Duration.UNLIMITED);
        assertThat(world().budget(Money.UNLIMITED).timeLimit(Duration.ofSeconds(1)).noTimeLimit().build().timeLimit()).isEmpty();
    }

    @Test
    void theModelsAreTheHostsAndMustBeStated() {
        ModelProvider other = request -> new ModelProvider.Reply("2", 1, "stop", 0);
        ModelWorld w = world().model("haiku", HostModel.perMillionTokens(new BigDecimal("0.25"), new BigDecimal("1.25"), 4096), other)
                .unlimitedBudget().build();
        assertThat(w.models()).containsOnlyKeys("gpt", "haiku");
        assertThat(w.models().get("gpt")).isEqualTo(new HostModel(Money.ofMicros(3_000_000), Money.ofMicros(15_000_000), 8192));
        assertThat(w.provider("gpt")).containsSame(PROVIDER);
        assertThat(w.provider("haiku")).containsSame(other);
        assertThat(w.provider("opus")).isEmpty();
        assertThatThrownBy(() -> ModelWorld.over(PROVIDER).unlimitedBudget().build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("model(name, HostModel)");
        assertThatThrownBy(() -> world().model("gpt", SONNET)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> world().model(" ", SONNET)).isInstanceOf(IllegalArgumentException.class);
        ModelProvider simulated = new ModelProvider() {
            @Override public Response complete(Request r) { return new Reply("1", 1, "stop", 0); }
            @Override public boolean simulated() { return true; }
        };
        assertThatThrownBy(() -> world().model("sim", SONNET, simulated)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clock");
    }

    @Test
    void aWorldWithoutAStatedBudgetIsRefused() {
        assertThatThrownBy(() -> world().timeLimit(Duration.ofSeconds(5)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("unlimitedBudget()");
    }

    @Test
    void inexactOrNegativeAmountsAreRefused() {
        assertThatThrownBy(() -> world().budget(new BigDecimal("0.0000001"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("micro-dollar");
        assertThatThrownBy(() -> world().budget(new BigDecimal("-1"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> world().budget(new BigDecimal("1e20"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> world().timeLimit(Duration.ofNanos(1500))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> world().timeLimit(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> world().timeLimit(Duration.ofSeconds(Long.MAX_VALUE))).isInstanceOf(IllegalArgumentException.class);
        assertThat(world().budget(new BigDecimal("1.500000")).build().budget()).isEqualTo(Money.ofMicros(1_500_000));
    }
}
