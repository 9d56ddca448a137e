package dev.finch.capabilities;

import dev.finch.ir.diag.Phase;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CapabilityCodeTest {
    @Test
    void codesAreUniqueWellFormedAndPhased() {
        Set<String> seen = new HashSet<>();
        for (CapabilityCode c : CapabilityCode.values()) {
            assertThat(c.code()).matches("E-CAP-\\d{3}");
            assertThat(seen.add(c.code())).as("duplicate " + c.code()).isTrue();
            assertThat(c.phase()).isIn(Phase.HOST, Phase.VERIFY);
            assertThat(c.meaning()).isNotBlank().endsWith(".");
        }
        assertThat(Arrays.stream(CapabilityCode.values()).filter(c -> c.phase() == Phase.VERIFY))
                .containsExactlyInAnyOrder(CapabilityCode.TEMPLATE_OUTSIDE_BOUND, CapabilityCode.TEMPLATE_ROOT_MISMATCH);
    }
}
