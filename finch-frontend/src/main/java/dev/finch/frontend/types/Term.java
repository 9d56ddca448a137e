package dev.finch.frontend.types;

import java.util.List;

/**
 * A type during Hindley–Milner inference: either a variable, which unification may bind to a type, or a structure —
 * a constructor applied to parts ({@code List Text}, a record of fields, a function of its parameters and result).
 * Each language subclasses it with its own type language ({@code T} is that language's type); the {@link Unifier}
 * works on any of them through {@link #parts}, {@link #sameShape} and {@link #withParts}.
 *
 * <p>A variable has a number from its inference's {@link VarSupply} (never from a static counter), a level (how
 * deeply let-bound it was made, which decides whether it may be generalized) and, once bound, the type it stands for.
 * Only the {@link Unifier} binds variables and changes their levels. A structure never changes.
 */
public abstract class Term<T extends Term<T>> {
    private final long id;
    private int level;
    private T ref;

    /** A structure: a constructor applied to its {@link #parts}. */
    protected Term() { this.id = 0; }

    /** A fresh variable at {@code level}, numbered by {@code supply}. */
    protected Term(VarSupply supply, int level) {
        this.id = supply.next();
        this.level = level;
    }

    /** True for a variable (bound or not). */
    public final boolean isVariable() { return id != 0; }

    /** A variable's number in its inference (1, 2, …); 0 for a structure. */
    public final long id() { return id; }

    /** A variable's level (0 for a structure). */
    public final int level() { return level; }

    /** The type a variable is bound to, or null (always null for a structure). */
    public final T binding() { return ref; }

    /** This type with bound variables followed: an unbound variable or a structure. */
    @SuppressWarnings("unchecked")
    public final T prune() {
        Term<T> t = this;
        while (t.ref != null) t = t.ref;
        return (T) t;
    }

    final void bind(T to) { this.ref = to; }

    final void level(int level) { this.level = level; }

    /** A structure's parts, in the order unification visits them (never asked of a variable). */
    protected abstract List<T> parts();

    /**
     * True when this structure and {@code other} (another structure) have the same constructor, so that they unify
     * when their {@link #parts} do, pairwise.
     */
    protected abstract boolean sameShape(T other);

    /** A structure of this one's constructor with {@code parts} in place of its own (as many, in the same order). */
    protected abstract T withParts(List<T> parts);

    /**
     * Called when this structure has been unified with {@code other}, part by part: a language whose types carry more
     * than their parts (an effect class, say) unifies that here, through {@code more}, within the same walk.
     */
    protected void unified(T other, Unifier.More<T> more) { }
}
