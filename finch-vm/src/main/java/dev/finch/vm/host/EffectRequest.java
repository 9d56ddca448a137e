package dev.finch.vm.host;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.List;

/**
 * The portable event envelope of an awaited host operation (contract): protocol version, the run's monotonically
 * increasing sequence, the concrete capability requirement, the typed payload (operation and displayed
 * arguments), the expected result row, and the source origin. (execution id, sequence) is the idempotency key.
 */
public record EffectRequest(String protocol, String executionId, long sequence, Capability requirement, String operation,
                            List<String> arguments, List<Type> expectedResult, Origin origin) {
    public static final String PROTOCOL = "FINCH-VM-TYPED/1";

    public EffectRequest {
        arguments = List.copyOf(arguments);
        expectedResult = List.copyOf(expectedResult);
    }
}
