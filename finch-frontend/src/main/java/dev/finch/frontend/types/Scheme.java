package dev.finch.frontend.types;

import java.util.List;
import java.util.Objects;

/**
 * A type scheme ∀vars. body: the type of a let-polymorphic binding, a definition or a primitive, whose {@code vars} a
 * use instantiates afresh ({@link Unifier#instantiate}).
 */
public record Scheme<T extends Term<T>>(List<T> vars, T body) {
    public Scheme {
        vars = List.copyOf(vars);
        Objects.requireNonNull(body, "body");
    }

    /** A scheme with nothing quantified. */
    public static <T extends Term<T>> Scheme<T> mono(T t) { return new Scheme<>(List.of(), t); }

    @Override public String toString() { return body.toString(); }
}
