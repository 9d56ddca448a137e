package dev.finch.vm.boundary;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import java.util.List;

/**
 * The portable event envelope of an awaited host operation (contract): protocol version, the run's monotonically
 * increasing sequence, the concrete capability requirement, the typed payload (the operation and its arguments —
 * the word's inputs with their call-site types, a write's bytes included), the expected result row, and the source
 * origin. (execution id, sequence) is the idempotency key.
 *
 * @param values the arguments as typed values, in the word's input order; empty in a {@link #receipt()}
 */
public record EffectRequest(String protocol, String executionId, long sequence, Capability requirement, String operation,
                            List<TypedValue> values, List<Type> expectedResult, Origin origin) {
    public static final String PROTOCOL = "FINCH-VM-TYPED/1";

    public EffectRequest {
        values = List.copyOf(values);
        expectedResult = List.copyOf(expectedResult);
    }

    /** The inputs of a word at its call site, {@code values} in order, each with its instantiated input type. */
    public static List<TypedValue> inputs(Type.Fn site, Object... values) {
        if (site.ins().size() != values.length) {
            throw new IllegalArgumentException("a call of " + site + " has " + site.ins().size() + " inputs, not " + values.length);
        }
        List<TypedValue> out = new java.util.ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) out.add(new TypedValue(site.ins().get(i), values[i]));
        return out;
    }

    /** The D4 displays of the arguments, in order: derived from {@link #values()}, never stored apart. */
    public List<String> arguments() { return values.stream().map(TypedValue::display).toList(); }

    /** The arguments as public {@link dev.finch.vm.Value}s, in order (a file write's bytes: {@code argumentValues().get(1).asBytes()}). */
    public List<dev.finch.vm.Value> argumentValues() { return values.stream().map(TypedValue::toValue).toList(); }

    /**
     * The same envelope without its argument values: what the effect journal keeps of a request, so that a long
     * run's journal does not hold every byte it ever wrote (the pending request and the observers get the whole one).
     */
    public EffectRequest receipt() {
        return values.isEmpty() ? this : new EffectRequest(protocol, executionId, sequence, requirement, operation, List.of(), expectedResult, origin);
    }
}
