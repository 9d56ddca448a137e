package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FinchBuilderTest {
    @Test
    void limitsAreCarriedToEveryRun() {
        Finch f = Finch.builder().maxSteps(1000).timeout(Duration.ofMillis(250)).maxOutputBytes(64).maxMemoryBytes(1 << 20).maxDepth(50).build();
        assertThat(f.limits().maxSteps()).isEqualTo(1000);
        assertThat(f.limits().timeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(f.limits().maxOutputBytes()).isEqualTo(64);
        assertThat(f.limits().maxMemoryBytes()).isEqualTo(1 << 20);
        assertThat(f.limits().maxDepth()).isEqualTo(50);
    }

    @Test
    void nonsensicalLimitsAreRefusedAtBuildTime() {
        assertThatThrownBy(() -> Finch.builder().maxSteps(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Finch.builder().timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Finch.builder().maxDepth(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sessionsAreIndependentAndCarryTheirOptions() {
        Finch f = Finch.create();
        Session a = f.newSession(SessionOptions.DEFAULT.withWorkspace(java.nio.file.Path.of("/tmp/ws")).withGrant("fs.read(${workspace}/**)"));
        Session b = f.newSession();
        assertThat(a.id()).isNotEqualTo(b.id());
        assertThat(a.options().grants()).containsExactly("fs.read(${workspace}/**)");
        assertThat(b.options().workspace()).isEmpty();
    }
}
