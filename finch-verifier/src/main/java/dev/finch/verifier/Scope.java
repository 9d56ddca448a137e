package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one body (the program, a word, or a closure body) is checked against: its signature if it has one, its
 * rigid type variables, its locals (one flat namespace), the enclosing locals a closure captures, and the yield
 * type its body publishes.
 */
final class Scope {
    /** The three kinds of body. */
    enum Kind { MAIN, WORD, CLOSURE }

    final Kind kind;
    final String name;
    final Origin origin;
    /** The signature the body is checked against; null while a word's signature is being inferred and for main. */
    final Type.Fn signature;
    /** True when a person (or frontend) wrote the signature, so effects must be covered and ? has a target. */
    final boolean declaredByAuthor;
    final Set<String> rigid;
    final Scope parent;
    private final Set<String> parentAssigned;
    final Map<String, Type> locals = new LinkedHashMap<>();
    final List<String> captures = new ArrayList<>();
    /** The yield type: fixed by the signature, or inferred (null until the first yield) when there is none. */
    Type.Yields yields;

    private Scope(Kind kind, String name, Origin origin, Type.Fn signature, boolean declaredByAuthor, Set<String> rigid,
                  Scope parent, Set<String> parentAssigned) {
        this.kind = kind;
        this.name = name;
        this.origin = origin;
        this.signature = signature;
        this.declaredByAuthor = declaredByAuthor;
        this.rigid = rigid;
        this.parent = parent;
        this.parentAssigned = parentAssigned;
        this.yields = signature == null ? null : signature.yields().orElse(null);
    }

    static Scope main(Origin origin) { return new Scope(Kind.MAIN, "main", origin, null, false, Set.of(), null, Set.of()); }

    static Scope inferring(String name, Origin origin) { return new Scope(Kind.WORD, name, origin, null, false, Set.of(), null, Set.of()); }

    static Scope word(String name, Origin origin, Type.Fn signature, boolean declaredByAuthor) {
        return new Scope(Kind.WORD, name, origin, signature, declaredByAuthor, Types.rigidNames(signature), null, Set.of());
    }

    Scope closure(Origin origin, Type.Fn signature, Set<String> assignedHere) {
        Set<String> r = new HashSet<>(rigid);
        r.addAll(Types.rigidNames(signature));
        return new Scope(Kind.CLOSURE, "closure", origin, signature, true, Set.copyOf(r), this, Set.copyOf(assignedHere));
    }

    /** True when the yield type is fixed by a signature (a body may then only yield what it declares). */
    boolean yieldsFixed() { return signature != null; }

    /** The root scope (the program or a word) this body belongs to. */
    Scope root() { return parent == null ? this : parent.root(); }

    /** True when {@code local} is a local of an enclosing body (a closure may only read those). */
    boolean isEnclosingLocal(String local) {
        for (Scope p = parent; p != null; p = p.parent) if (p.locals.containsKey(local)) return true;
        return false;
    }

    /**
     * The type of an enclosing local that is assigned where this closure is made, recording it as a capture of
     * this closure (and of every closure in between); empty when there is none.
     */
    Optional<Type> capture(String local) {
        if (parent == null) return Optional.empty();
        Optional<Type> found;
        if (parent.locals.containsKey(local)) {
            found = parentAssigned.contains(local) ? Optional.of(parent.locals.get(local)) : Optional.empty();
        } else {
            found = parent.capture(local);
        }
        if (found.isPresent() && !captures.contains(local)) captures.add(local);
        return found;
    }

    /** The type of a local visible here: one of this scope's, or an enclosing one's (for a capture). */
    Type visibleLocal(String local) {
        if (locals.containsKey(local)) return locals.get(local);
        return parent == null ? null : parent.visibleLocal(local);
    }
}
