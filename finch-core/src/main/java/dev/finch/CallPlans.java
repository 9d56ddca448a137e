package dev.finch;

import dev.finch.ir.type.Type;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The calls {@link Session#call} has prepared for one state of its session: each verified and compiled once, then run
 * again by every later call of the same word with arguments of the same types while the session's state stays the one
 * they were prepared on. Preparing a call — checking it, verifying its one-call module, compiling it, spelling its text
 * for a saved image — costs tens of microseconds warm and far more while the JIT has not compiled that code yet, which
 * is what a run of a few hundred or thousand calls sees; a prepared call costs only its run.
 *
 * <p>A plan depends on nothing but the state it was made on (its dictionary, constants and vocabulary, all in the
 * {@link VmState}) and the call's word and argument types; any commit, definition or installation makes a new state,
 * and the plans of the old one are dropped with it. Not thread-safe: the session uses it while it holds its busy flag.
 */
final class CallPlans {
    /** At most this many plans are kept for one state (calls with many different argument types start afresh). */
    static final int MAX_PLANS = 64;

    /** A prepared call: its compiled program, the capabilities it infers, and its entry for a saved image. */
    record Plan(Vm.Program program, List<String> inferred, SessionHistory.Submitted entry) { }

    /**
     * A word and its arguments' types. A class with its own equals and hash rather than a record: a record's are linked
     * by invokedynamic on first use, which on a fresh JVM's first call costs dozens of method-handle classes.
     */
    private static final class Key {
        private final String word;
        private final List<Type> ins;

        Key(String word, List<Type> ins) {
            this.word = word;
            this.ins = ins;
        }

        boolean matches(String w, List<Type> types) { return word.equals(w) && ins.equals(types); }

        @Override public boolean equals(Object o) { return o instanceof Key k && k.matches(word, ins); }

        @Override public int hashCode() { return 31 * word.hashCode() + ins.hashCode(); }
    }

    /** A plan with the key it was kept under (an immutable copy of the types it was made for). */
    private record Kept(Key key, Plan plan) { }

    private VmState state;
    private final Map<Key, Kept> plans = new HashMap<>();
    /** The plan found or made last, and its key: a host calling one word again and again finds it without hashing. */
    private Key lastKey;
    private Plan last;

    /** The plan for calling {@code word} with arguments of types {@code ins} on {@code at}, or null if none was made. */
    Plan get(VmState at, String word, List<Type> ins) {
        if (at != state) return null;
        if (lastKey != null && lastKey.matches(word, ins)) return last;
        Kept found = plans.get(new Key(word, ins));
        if (found == null) return null;
        lastKey = found.key();
        last = found.plan();
        return last;
    }

    /** Keeps {@code plan} for later calls of {@code word} with {@code ins} on {@code at} (forgetting other states' plans). */
    void put(VmState at, String word, List<Type> ins, Plan plan) {
        if (at != state || plans.size() >= MAX_PLANS) {
            plans.clear();
            state = at;
            lastKey = null;
            last = null;
        }
        Key key = new Key(word, List.copyOf(ins));
        plans.put(key, new Kept(key, plan));
        lastKey = key;
        last = plan;
    }
}
