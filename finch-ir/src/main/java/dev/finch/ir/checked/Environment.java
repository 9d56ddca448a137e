package dev.finch.ir.checked;

import dev.finch.ir.type.Type;
import java.util.Map;
import java.util.Optional;

/**
 * What a submission is verified against: the session dictionary (persisted words and constants from earlier
 * submissions, in any frontend) and the types on the persistent stack (bottom to top).
 */
public record Environment(Map<String, Type.Fn> words, Map<String, Type> constants, java.util.List<Type> stack) {
    public static final Environment EMPTY = new Environment(Map.of(), Map.of(), java.util.List.of());

    public Environment {
        words = Map.copyOf(words);
        constants = Map.copyOf(constants);
        stack = java.util.List.copyOf(stack);
    }

    public Optional<Type.Fn> word(String name) { return Optional.ofNullable(words.get(name)); }

    public Optional<Type> constant(String name) { return Optional.ofNullable(constants.get(name)); }
}
