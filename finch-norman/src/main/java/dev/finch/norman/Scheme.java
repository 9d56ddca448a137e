package dev.finch.norman;

import java.util.List;

/**
 * A type scheme ∀vars. type: the type of a let-polymorphic binding, a definition or a primitive. {@link Infer}
 * instantiates it (charging the work to the submission's budget).
 */
public record Scheme(List<Ty.Var> vars, Ty type) {
    public Scheme { vars = List.copyOf(vars); }

    /** A scheme with nothing quantified. */
    static Scheme mono(Ty t) { return new Scheme(List.of(), t); }

    @Override public String toString() { return type.toString(); }
}
