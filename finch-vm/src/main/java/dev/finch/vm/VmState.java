package dev.finch.vm;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.type.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The VM-local state of a session, immutable: the persistent stack (bottom to top), the dictionary of compiled
 * words, and the constants. A run works on one of these as its snapshot and produces a new one only when it
 * completes, so a failed or cancelled run changes nothing.
 */
public final class VmState {
    public static final VmState EMPTY = new VmState(List.of(), Map.of(), Map.of());

    private final List<TypedValue> stack;
    private final Map<String, CompiledWord> words;
    private final Map<String, TypedValue> constants;

    public VmState(List<TypedValue> stack, Map<String, CompiledWord> words, Map<String, TypedValue> constants) {
        this.stack = List.copyOf(stack);
        this.words = Map.copyOf(words);
        this.constants = Map.copyOf(constants);
    }

    public List<TypedValue> stack() { return stack; }

    public Map<String, CompiledWord> words() { return words; }

    public Map<String, TypedValue> constants() { return constants; }

    /** What the verifier checks a new submission against. */
    public Environment environment() {
        Map<String, Type.Fn> sigs = new LinkedHashMap<>();
        words.forEach((n, w) -> sigs.put(n, w.signature()));
        Map<String, Type> consts = new LinkedHashMap<>();
        constants.forEach((n, v) -> consts.put(n, v.type()));
        return new Environment(sigs, consts, stack.stream().map(TypedValue::type).toList());
    }
}
