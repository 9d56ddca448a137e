package dev.finch.vm.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.capabilities.GrantSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link HostConfig#withAll}: the bindings a chain of {@link HostConfig#with} makes, copied once. */
class HostConfigTest {
    interface Clock { long now(); }

    interface Dice { int roll(); }

    @Test void withAllBindsAsAChainOfWithDoes() {
        Clock clock = () -> 7;
        Dice dice = () -> 4;
        HostConfig base = HostConfig.of(GrantSet.EMPTY, true).with(Dice.class, () -> 1);
        Map<Class<?>, Object> hosts = new HashMap<>();
        hosts.put(Clock.class, clock);
        hosts.put(Dice.class, dice);
        HostConfig all = base.withAll(hosts);
        assertThat(all.binding(Clock.class)).isSameAs(clock);
        assertThat(all.binding(Dice.class)).isSameAs(dice);
        assertThat(all.deferred()).isTrue();
        assertThat(base.binding(Clock.class)).as("the configuration it came from is unchanged").isNull();
    }

    @Test void aNullHostUnbindsItsFamily() {
        HostConfig base = HostConfig.NONE.with(Clock.class, () -> 7);
        Map<Class<?>, Object> hosts = new HashMap<>();
        hosts.put(Clock.class, null);
        assertThat(base.withAll(hosts).binding(Clock.class)).isNull();
    }
}
