package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.checked.Row;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The operand type stack at one program point (bottom to top) plus the locals definitely assigned there.
 *
 * <p>When a word's signature is being inferred the stack is <em>open</em> at the bottom: popping past the values
 * the body pushed consumes the word's next input, a fresh meta-variable materialized once in the shared
 * {@link Inputs} and moved into {@code items}. {@code consumed} counts the inputs moved so far, so two states
 * of one word describe the same logical stack after {@link #liftTo} brings them to the same count.
 *
 * <p>A literal's elements run above a {@code floor}: they may not pop what was on the stack when it began.
 *
 * <p>The row is a {@link Row}, shared with every snapshot taken of it: {@link #row()}, {@link #copy()} and
 * {@link #become} cost O(1), so a body's checked rows (one before and after each instruction) are linear in its size.
 */
final class StackState {
    /** The inputs of a word whose signature is inferred, materialized on demand (top-most input first). */
    static final class Inputs {
        private final List<Type> materialized = new ArrayList<>();
        private final Substitution subst;

        Inputs(Substitution subst) { this.subst = subst; }

        Type input(int k, Origin at) {
            while (materialized.size() <= k) materialized.add(subst.fresh(at));
            return materialized.get(k);
        }
    }

    /** Why {@link #ensure} could not provide the values. */
    enum Shortage { NONE, UNDERFLOW, BELOW_LITERAL }

    private Row items;
    private final Inputs inputs;
    private int consumed;
    private int floor = -1;
    private Set<String> assigned;

    StackState(List<Type> start, Inputs inputs, Set<String> assigned) {
        this.items = Row.of(start);
        this.inputs = inputs;
        this.assigned = new HashSet<>(assigned);
    }

    StackState copy() {
        StackState c = new StackState(items, inputs, assigned);
        c.consumed = consumed;
        c.floor = floor;
        return c;
    }

    /** Makes this state equal to {@code other} (used after a merge picks the surviving row). */
    void become(StackState other) {
        items = other.items;
        consumed = other.consumed;
        floor = other.floor;
        assigned = new HashSet<>(other.assigned);
    }

    int size() { return items.size(); }

    int consumed() { return consumed; }

    /** The row at this point: an immutable snapshot (O(1), shared). */
    List<Type> row() { return items; }

    /** The type {@code k} places below the top (0: the top); call {@link #ensure} first. */
    Type fromTop(int k) { return items.get(items.size() - 1 - k); }

    /** The top {@code n} types (bottom to top); call {@link #ensure} first. */
    List<Type> top(int n) {
        int size = items.size();
        switch (n) {
            case 0: return List.of();
            case 1: return List.of(items.get(size - 1));
            case 2: return List.of(items.get(size - 2), items.get(size - 1));
            default:
                Type[] out = new Type[n];
                for (int i = 0; i < n; i++) out[i] = items.get(size - n + i);
                return List.of(out);
        }
    }

    void setFloorHere() { floor = items.size(); }

    void clearFloor() { floor = -1; }

    /** Makes {@code n} values poppable, consuming inputs of an open stack when needed. */
    Shortage ensure(int n, Origin at) {
        if (floor >= 0) return items.size() - floor >= n ? Shortage.NONE : Shortage.BELOW_LITERAL;
        if (items.size() < n && inputs != null) materialize(consumed + n - items.size(), at);
        return items.size() >= n ? Shortage.NONE : Shortage.UNDERFLOW;
    }

    Type pop() {
        Type t = items.top();
        items = items.pop();
        return t;
    }

    void push(Type t) { items = items.push(t); }

    void pushAll(List<Type> ts) { items = items.pushAll(ts); }

    /** Re-expresses the stack with {@code count} inputs consumed (same logical stack, more of it explicit). */
    void liftTo(int count, Origin at) { if (consumed < count) materialize(count, at); }

    /** Places the word's inputs {@code consumed … count-1} under the row (the deepest one at the bottom). */
    private void materialize(int count, Origin at) {
        List<Type> below = new ArrayList<>(count - consumed);
        for (int k = count - 1; k >= consumed; k--) below.add(inputs.input(k, at));
        items = items.under(below);
        consumed = count;
    }

    /** The word inputs consumed so far, bottom to top (for an inferred signature). */
    List<Type> consumedInputs(Origin at) {
        List<Type> ins = new ArrayList<>();
        for (int k = consumed - 1; k >= 0; k--) ins.add(inputs.input(k, at));
        return ins;
    }

    boolean isAssigned(String local) { return assigned.contains(local); }

    void assign(String local) { assigned.add(local); }

    Set<String> assigned() { return Set.copyOf(assigned); }

    void keepAssigned(Set<String> other) { assigned.retainAll(other); }

    void setAssigned(Set<String> set) { assigned = new HashSet<>(set); }
}
