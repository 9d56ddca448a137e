package dev.finch.vm.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Revocations;
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

    @Test void ofWithEverythingIsTheChainMadeAtOnce() {
        Clock clock = () -> 7;
        Revocations revoked = new Revocations();
        Map<Class<?>, Object> hosts = new HashMap<>();
        hosts.put(Clock.class, clock);
        hosts.put(Dice.class, null);
        HostConfig made = HostConfig.of(GrantSet.EMPTY, true, revoked, hosts);
        HostConfig chained = HostConfig.of(GrantSet.EMPTY, true).withRevocations(revoked).withAll(hosts);
        for (HostConfig c : new HostConfig[] {made, chained}) {
            assertThat(c.binding(Clock.class)).isSameAs(clock);
            assertThat(c.binding(Dice.class)).isNull();
            assertThat(c.deferred()).isTrue();
            assertThat(c.revocations()).isSameAs(revoked);
            assertThat(c.maxFileReadBytes()).isEqualTo(HostConfig.NONE.maxFileReadBytes());
            assertThat(c.observers()).isEmpty();
        }
    }

    @Test void aRunsLayerTakesItsGrantsAndKeepsTheSessionsBindings() {
        Clock clock = () -> 7;
        Dice dice = () -> 4;
        HostConfig session = HostConfig.NONE.with(Clock.class, clock);
        GrantSet grants = GrantSet.EMPTY;
        HostConfig run = session.withAll(grants, Map.of(Dice.class, dice));
        assertThat(run.grants()).isSameAs(grants);
        assertThat(run.binding(Clock.class)).isSameAs(clock);
        assertThat(run.binding(Dice.class)).isSameAs(dice);
        assertThat(session.binding(Dice.class)).as("the session's configuration is unchanged").isNull();
    }
}
