package dev.finch.frontend.types;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The Hindley–Milner core of one inference: unification with an occurs check, levels for let-generalization,
 * generalization and instantiation of {@link Scheme}s, substitution, and an optional trail to undo bindings. It owns
 * its inference's {@link VarSupply} and current level; a language makes its variables with {@link #supply()} and
 * {@link #level()}.
 *
 * <p>Every walk over a type is metered: the language's {@link Meters} give each walk a {@link Meter} that is told of
 * every part visited and its depth (the root is 1), and may refuse — charge work, bound a type's size or its depth —
 * by throwing. A type's tree can be exponentially larger than the program that builds it (let-polymorphism doubles a
 * type per definition), so this is what keeps inference within the submission's budget. Walks visit a shared part
 * once where they copy ({@link #instantiate}, {@link #substitute}) and every time elsewhere.
 *
 * <p>One inference runs on one thread, and nothing here is static or shared: inferences on many threads at once never
 * meet.
 */
public final class Unifier<T extends Term<T>> {
    /** The walks over a type, each metered on its own. */
    public enum Walk {
        /** Unifying two types (one walk over both). */
        UNIFY,
        /** Binding a variable: the occurs check and level adjustment over the type it is bound to. */
        BIND,
        /** Collecting the variables of a type, to generalize it. */
        COLLECT,
        /** Copying a type: instantiation and substitution. */
        COPY
    }

    /** Told of every part a walk visits; it refuses a walk by throwing. */
    @FunctionalInterface
    public interface Meter {
        /** One more part, at {@code depth} (the root is 1). */
        void visit(int depth);
    }

    /** The language's metering: a fresh meter for each walk. */
    @FunctionalInterface
    public interface Meters {
        Meter start(Walk walk);
    }

    /** Unification of further types within the current walk (see {@link Term#unified}). */
    @FunctionalInterface
    public interface More<T> {
        void unify(T expected, T found);
    }

    /** A change the trail can undo: a variable's binding and level before it. */
    private record Undo<T extends Term<T>>(T var, T ref, int level) { }

    private final VarSupply supply;
    private final Meters meters;
    private final List<Undo<T>> trail;
    private int level;

    /**
     * An inference metered by {@code meters}; with {@code undoable}, every binding and level change is recorded so that
     * {@link #undo} can take it back (a language that tries a typing and backs out needs it).
     */
    public Unifier(Meters meters, boolean undoable) { this(new VarSupply(), meters, undoable); }

    /**
     * An inference like {@link #Unifier(Meters, boolean)} whose variables come from {@code supply} (shared with the
     * language's declarations, which are part of the same inference).
     */
    public Unifier(VarSupply supply, Meters meters, boolean undoable) {
        this.supply = Objects.requireNonNull(supply, "supply");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.trail = undoable ? new ArrayList<>() : null;
    }

    /** This inference's fresh-variable supply. */
    public VarSupply supply() { return supply; }

    /** The current let level: variables made here are generalized by a {@link #generalize} at a lower level. */
    public int level() { return level; }

    /** Enters a let level (the value of a let binding or a group of definitions is typed one level deeper). */
    public void enter() { level++; }

    /** Leaves a let level. */
    public void leave() { level--; }

    // ---- unification -------------------------------------------------------------------------------------------

    /**
     * Makes {@code expected} and {@code found} equal, binding variables; throws {@link Mismatch} when they cannot be,
     * naming the clashing parts the right way round. Bindings made before a mismatch stay (undo them with the trail).
     */
    public void unify(T expected, T found) { unify(expected, found, meters.start(Walk.UNIFY), 1); }

    private void unify(T a, T b, Meter meter, int depth) {
        a = a.prune();
        b = b.prune();
        if (a == b) return;
        meter.visit(depth);
        if (a.isVariable()) { bind(a, b); return; }
        if (b.isVariable()) { bind(b, a); return; }
        if (!a.sameShape(b)) throw new Mismatch(a, b, false);
        List<T> pa = a.parts();
        List<T> pb = b.parts();
        if (pa.size() != pb.size()) throw new Mismatch(a, b, false);
        for (int i = 0; i < pa.size(); i++) unify(pa.get(i), pb.get(i), meter, depth + 1);
        a.unified(b, (x, y) -> unify(x, y, meter, depth + 1));
    }

    /**
     * Binds the unbound variable {@code v} to {@code t}: another variable takes the lower of the two levels; a structure
     * is walked once for the occurs check, lowering the levels of its variables to {@code v}'s (so that generalization
     * stays sound).
     */
    private void bind(T v, T t) {
        if (t.isVariable()) {
            lower(t, v.level());
        } else if (occurs(v, t, meters.start(Walk.BIND), 1)) {
            throw new Mismatch(v, t, true);
        }
        record(v);
        v.bind(t);
    }

    private boolean occurs(T v, T t, Meter meter, int depth) {
        t = t.prune();
        if (t == v) return true;
        meter.visit(depth);
        if (t.isVariable()) {
            lower(t, v.level());
            return false;
        }
        for (T p : t.parts()) if (occurs(v, p, meter, depth + 1)) return true;
        return false;
    }

    /**
     * Binds the unbound variable {@code v} to {@code t} without a check: for a language's defaults (an effect no one
     * constrained is pure). {@code t} must not contain {@code v}.
     */
    public void assign(T v, T t) {
        if (!v.isVariable() || v.binding() != null) throw new IllegalArgumentException("not an unbound variable");
        record(v);
        v.bind(t);
    }

    /** Lowers the variable {@code v}'s level to {@code to} if it is higher (a variable at level 0 is never generalized). */
    public void lower(T v, int to) {
        if (!v.isVariable()) throw new IllegalArgumentException("not a variable");
        if (v.level() <= to) return;
        record(v);
        v.level(to);
    }

    private void record(T v) {
        if (trail != null) trail.add(new Undo<>(v, v.binding(), v.level()));
    }

    /** A point of the trail to {@link #undo} to. */
    public int mark() {
        if (trail == null) throw new IllegalStateException("this inference keeps no trail");
        return trail.size();
    }

    /** Takes back every binding and level change made since {@code mark}. */
    public void undo(int mark) {
        for (int i = trail.size() - 1; i >= mark; i--) {
            Undo<T> u = trail.remove(i);
            u.var().bind(u.ref());
            u.var().level(u.level());
        }
    }

    // ---- generalization and instantiation ------------------------------------------------------------------------

    /**
     * The scheme of {@code t} generalized over its unbound variables above the current level that {@code eligible}
     * accepts, in the order they first appear. The walk visits every part, so a scheme's type is measured by it.
     */
    public Scheme<T> generalize(T t, Predicate<? super T> eligible) {
        Set<T> all = new LinkedHashSet<>();
        collect(t, all, meters.start(Walk.COLLECT), 1);
        List<T> vars = new ArrayList<>();
        for (T v : all) if (v.level() > level && eligible.test(v)) vars.add(v);
        return new Scheme<>(vars, t);
    }

    /**
     * Walks every part of {@code t} under a {@link Walk#COLLECT} meter, to measure it: a type a binding let grow after
     * it was generalized is held to the same limits as one that is generalized.
     */
    public void measure(T t) { collect(t, null, meters.start(Walk.COLLECT), 1); }

    /** Adds the unbound variables of {@code t} to {@code out}, in the order they first appear. */
    public void freeVariables(T t, Collection<? super T> out) { collect(t, out, meters.start(Walk.COLLECT), 1); }

    private void collect(T t, Collection<? super T> out, Meter meter, int depth) {
        t = t.prune();
        meter.visit(depth);
        if (t.isVariable()) {
            if (out != null && !out.contains(t)) out.add(t);
            return;
        }
        for (T p : t.parts()) collect(p, out, meter, depth + 1);
    }

    /**
     * A fresh instance of {@code s}: its body with a fresh variable for each of its own, made by {@code fresh} from the
     * quantified one (so a language can keep a variable's sort). A scheme without variables is its body.
     */
    public T instantiate(Scheme<T> s, UnaryOperator<T> fresh) {
        if (s.vars().isEmpty()) return s.body();
        Map<T, T> copies = new IdentityHashMap<>();
        for (T v : s.vars()) copies.put(v, fresh.apply(v));
        return copy(s.body(), copies, meters.start(Walk.COPY), 1);
    }

    /**
     * {@code t} with the variables of {@code map} replaced by their types. The copy keeps {@code t}'s sharing (each
     * distinct part is copied once), so it costs what the type's structure holds, not what its tree would spell out.
     */
    public T substitute(T t, Map<? extends T, ? extends T> map) {
        Map<T, T> copies = new IdentityHashMap<>(map);
        return copy(t, copies, meters.start(Walk.COPY), 1);
    }

    private T copy(T t, Map<T, T> copies, Meter meter, int depth) {
        t = t.prune();
        T done = copies.get(t);
        if (done != null) return done;
        meter.visit(depth);
        if (t.isVariable()) return t;
        List<T> parts = t.parts();
        if (parts.isEmpty()) return t;
        List<T> copied = new ArrayList<>(parts.size());
        for (T p : parts) copied.add(copy(p, copies, meter, depth + 1));
        T out = t.withParts(copied);
        copies.put(t, out);
        return out;
    }
}
