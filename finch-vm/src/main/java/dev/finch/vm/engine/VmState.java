package dev.finch.vm.engine;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.checked.Row;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import dev.finch.vm.word.Library;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The VM-local state of a session, immutable: the library of words it may call (Finch's and the host's), the
 * persistent stack (bottom to top), the dictionary of compiled words, and the constants. A run works on one of
 * these as its snapshot and produces a new one only when it completes, so a failed or cancelled run changes nothing.
 */
public final class VmState {
    /** An empty session over Finch's own words. */
    public static final VmState EMPTY = empty(Library.core());

    private final Library library;
    private final List<TypedValue> stack;
    private final Map<String, CompiledWord> words;
    private final Map<String, TypedValue> constants;
    /**
     * {@link #environment()}'s content, built on first use (the state is immutable, so it never changes; a race builds
     * an equal one twice): a submission asks for it more than once, and the dictionary is not walked again for each.
     */
    private Environment environment;
    /**
     * The stack's values, bottom to top, made on first use or handed over by the run that committed this state (its
     * outputs): a run reads them as its input ({@code Ctx.stackIn}) and never writes them. Volatile: a state made on
     * one thread is run on others.
     */
    private volatile Object[] values;
    /** The lowest stack position whose type holds a function (a closure or fiber), the stack's size when none; -1 until known. */
    private int lowestFunction = -1;

    public VmState(Library library, List<TypedValue> stack, Map<String, CompiledWord> words, Map<String, TypedValue> constants) {
        this.library = java.util.Objects.requireNonNull(library, "library");
        this.stack = List.copyOf(stack);
        this.words = Map.copyOf(words);
        this.constants = Map.copyOf(constants);
    }

    /** An empty session over {@code library}. */
    public static VmState empty(Library library) { return new VmState(library, List.of(), Map.of(), Map.of()); }

    /** The words this session may call. */
    public Library library() { return library; }

    public List<TypedValue> stack() { return stack; }

    public Map<String, CompiledWord> words() { return words; }

    public Map<String, TypedValue> constants() { return constants; }

    /** This state with another stack (same library, dictionary and constants). */
    public VmState withStack(List<TypedValue> newStack) { return new VmState(library, newStack, words, constants); }

    /** This state over another library (words installed or removed); the rest is unchanged. */
    public VmState withLibrary(Library other) { return other == library ? this : new VmState(other, stack, words, constants); }

    /**
     * The state a run that started from this one committed: {@code stack} (whose values are {@code values} and whose
     * types are {@code types}, the row the program was checked to leave), and the dictionary and constants given (this
     * state's own maps when the run defined nothing). Its first {@code kept} entries are this state's own, untouched.
     * When the dictionary and constants are this state's, the environment already built for it is carried over with
     * the new stack's types, not built again.
     */
    VmState successor(List<TypedValue> stack, Object[] values, Row types, int kept, Map<String, CompiledWord> newWords, Map<String, TypedValue> newConstants) {
        VmState next = new VmState(library, stack, newWords, newConstants);
        next.values = values;
        Environment e = environment;
        if (e != null && next.words == words && next.constants == constants) {
            next.environment = types == e.stack() ? e : e.withStack(types);
        }
        int lowest = lowestFunction;
        if (lowest >= 0) next.lowestFunction = lowest < kept ? lowest : next.firstFunction(kept);
        return next;
    }

    /** The stack's values, bottom to top, for a run to read (never to write). */
    Object[] values() {
        Object[] v = values;
        if (v == null) {
            v = new Object[stack.size()];
            for (int i = 0; i < v.length; i++) v[i] = stack.get(i).value();
            values = v;
        }
        return v;
    }

    /** Whether a value on the stack is or holds a function (a closure or fiber). */
    public boolean stackHoldsFunction() {
        int lowest = lowestFunction;
        if (lowest < 0) lowestFunction = lowest = firstFunction(0);
        return lowest < stack.size();
    }

    private int firstFunction(int from) {
        for (int i = from; i < stack.size(); i++) if (CallerThread.holdsFunction(stack.get(i).type())) return i;
        return stack.size();
    }

    private static Row types(List<TypedValue> stack) {
        Type[] out = new Type[stack.size()];
        for (int i = 0; i < out.length; i++) out[i] = stack.get(i).type();
        return Row.of(java.util.Arrays.asList(out));
    }

    /** What the frontends lower and the verifier checks a new submission against. */
    public Environment environment() {
        Environment e = environment;
        if (e == null) environment = e = buildEnvironment();
        // The budget is a meter, so every caller gets a fresh one (the dictionary, constants and stack are shared).
        return e.withBudget(dev.finch.ir.limit.CompileBudget.standard());
    }

    // Plain loops, no lambdas or streams: this runs on a fresh JVM's first submission, where each lambda costs ~0.7 ms.
    private Environment buildEnvironment() {
        Map<String, Type.Fn> sigs = new LinkedHashMap<>();
        java.util.Set<String> pausing = new java.util.HashSet<>();
        for (var e : words.entrySet()) {
            CompiledWord w = e.getValue();
            sigs.put(e.getKey(), w.signature());
            if (w.suspends() && !dev.finch.ir.vocab.WordSpec.maySuspend(w.signature())) pausing.add(e.getKey());
        }
        Map<String, Type> consts = new LinkedHashMap<>();
        for (var e : constants.entrySet()) consts.put(e.getKey(), e.getValue().type());
        return new Environment(library.vocabulary(), sigs, consts, types(stack)).withPausing(pausing);
    }
}
