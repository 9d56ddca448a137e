package dev.finch.ir.checked;

import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Vocabulary;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a submission is lowered and verified against: the vocabulary of words it may call (Finch's and the host's),
 * the session dictionary (persisted words and constants from earlier submissions, in any frontend) and the types on
 * the persistent stack (bottom to top).
 */
public record Environment(Vocabulary vocabulary, Map<String, Type.Fn> words, Map<String, Type> constants, List<Type> stack,
                          java.util.Set<String> pausing, CompileBudget budget) {
    public Environment {
        java.util.Objects.requireNonNull(vocabulary, "vocabulary");
        words = Map.copyOf(words);
        constants = Map.copyOf(constants);
        // A row: the verifier starts the program's stack from it as it is, and a new budget per submission shares it.
        stack = Row.of(stack);
        pausing = java.util.Set.copyOf(pausing);
        java.util.Objects.requireNonNull(budget, "budget");
    }

    /** An environment whose dictionary words never pause beyond what their signatures say. */
    public Environment(Vocabulary vocabulary, Map<String, Type.Fn> words, Map<String, Type> constants, List<Type> stack, CompileBudget budget) {
        this(vocabulary, words, constants, stack, java.util.Set.of(), budget);
    }

    /** An environment with a fresh budget of the default compile limits and no deadline. */
    public Environment(Vocabulary vocabulary, Map<String, Type.Fn> words, Map<String, Type> constants, List<Type> stack) {
        this(vocabulary, words, constants, stack, java.util.Set.of(), CompileBudget.standard());
    }

    /**
     * This environment where the dictionary words named in {@code names} may pause the run although their signatures
     * show no yield or capability (they wait on a fiber, a step or a task): a call of one needs a resume point.
     */
    public Environment withPausing(java.util.Set<String> names) { return new Environment(vocabulary, words, constants, stack, names, budget); }

    /** Whether a call of dictionary word {@code name} may pause the run whatever its signature says. */
    public boolean pauses(String name) { return pausing.contains(name); }

    /** An empty session over {@code vocabulary}. */
    public static Environment of(Vocabulary vocabulary) { return new Environment(vocabulary, Map.of(), Map.of(), List.of()); }

    /** This environment with the given types on the persistent stack. */
    public Environment withStack(List<Type> types) { return new Environment(vocabulary, words, constants, types, pausing, budget); }

    /**
     * This environment metered by {@code b}: the compile limits, deadline and cancellation of one submission, which
     * every phase that lowers or verifies against it charges.
     */
    public Environment withBudget(CompileBudget b) { return new Environment(vocabulary, words, constants, stack, pausing, b); }

    /** Equal when they check against the same vocabulary, dictionary and stack; the budget is a meter, not content. */
    @Override public boolean equals(Object o) {
        return o instanceof Environment e && vocabulary.equals(e.vocabulary) && words.equals(e.words) && constants.equals(e.constants) && stack.equals(e.stack)
                && pausing.equals(e.pausing);
    }

    @Override public int hashCode() { return java.util.Objects.hash(vocabulary, words, constants, stack, pausing); }

    public Optional<Type.Fn> word(String name) { return Optional.ofNullable(words.get(name)); }

    public Optional<Type> constant(String name) { return Optional.ofNullable(constants.get(name)); }

    /** The session's named types ({@link dev.finch.ir.type.TypeNames}: name → structure), read from its constants. */
    public Map<String, Type> namedTypes() { return dev.finch.ir.type.TypeNames.in(constants); }

    /**
     * Every opaque type name that the vocabulary's signatures, the dictionary and the stack mention: the types a named
     * type's structure may name besides other named types.
     */
    public java.util.Set<String> opaqueTypes() {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (dev.finch.ir.vocab.WordSpec w : vocabulary.words()) for (Type.Fn f : w.signatures()) dev.finch.ir.type.TypeNames.opaqueIn(f, out);
        for (Type.Fn f : words.values()) dev.finch.ir.type.TypeNames.opaqueIn(f, out);
        for (Type t : constants.values()) dev.finch.ir.type.TypeNames.opaqueIn(t, out);
        for (Type t : stack) dev.finch.ir.type.TypeNames.opaqueIn(t, out);
        return out;
    }
}
