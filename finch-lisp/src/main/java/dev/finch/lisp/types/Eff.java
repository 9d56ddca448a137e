package dev.finch.lisp.types;

import dev.finch.ir.cap.Capability;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An effect class: the capabilities and the yielded type of a body or function type. Function types that unify
 * merge their classes; a call adds a "flows into" edge from the callee's class to the caller's, solved to a
 * fixpoint after inference ({@link Infer#solveEffects}).
 */
public final class Eff {
    private Eff parent;
    /** The shared empty set of a class that has no capability (most have none); replaced at the first added. */
    private static final SortedSet<Capability> NONE = java.util.Collections.emptySortedSet();
    SortedSet<Capability> caps = NONE;
    Ty yielded;
    final List<Eff> into = new ArrayList<>(2);

    /** Adds capabilities to this class (not its representative); true when it grew. */
    boolean addCaps(java.util.Collection<Capability> more) {
        if (more.isEmpty()) return false;
        if (caps == NONE) caps = new TreeSet<>();
        return caps.addAll(more);
    }

    /** The representative of this class (the path to it is shortened on the way, so chains of merges stay cheap). */
    public Eff find() {
        Eff root = this;
        while (root.parent != null) root = root.parent;
        for (Eff e = this; e != root; ) {
            Eff next = e.parent;
            e.parent = root;
            e = next;
        }
        return root;
    }

    /** The capabilities (after solving). */
    public SortedSet<Capability> caps() { return find().caps; }

    /** The yielded type, or null when the code never yields (after solving). */
    public Ty yielded() { return find().yielded; }

    /** Merges this class and {@code other}'s; the one with more edges stays the representative, so edges are copied once per doubling. */
    void mergeInto(Eff other) {
        Eff a = find();
        Eff b = other.find();
        if (a == b) return;
        if (a.into.size() > b.into.size()) {
            Eff t = a;
            a = b;
            b = t;
        }
        a.parent = b;
        b.addCaps(a.caps);
        b.into.addAll(a.into);
        if (b.yielded == null) b.yielded = a.yielded;
    }
}
