package dev.finch.capabilities;

import dev.finch.ir.diag.Diagnostic;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The value of an operation that may be refused: either a value or at least one structured refusal. The public
 * API of this module returns refusals as values and never throws for anything a program or a grant text contains.
 *
 * @param <T> the value type
 */
public final class Attempt<T> {
    private final T value;
    private final List<Diagnostic> refusals;

    private Attempt(T value, List<Diagnostic> refusals) {
        this.value = value;
        this.refusals = refusals;
    }

    /** A successful attempt. */
    public static <T> Attempt<T> ok(T value) { return new Attempt<>(Objects.requireNonNull(value, "value"), List.of()); }

    /** A refused attempt with one diagnostic. */
    public static <T> Attempt<T> refused(Diagnostic refusal) { return new Attempt<>(null, List.of(refusal)); }

    /** A refused attempt with one or more diagnostics. */
    public static <T> Attempt<T> refused(List<Diagnostic> refusals) {
        if (refusals.isEmpty()) throw new IllegalArgumentException("a refusal needs at least one diagnostic");
        return new Attempt<>(null, List.copyOf(refusals));
    }

    /** True when there is a value. */
    public boolean isOk() { return refusals.isEmpty(); }

    /** The value; calling it on a refusal is a programming error in the caller, hence unchecked. */
    public T value() {
        if (!isOk()) throw new IllegalStateException("refused: " + refusals.get(0));
        return value;
    }

    /** The refusals; empty when ok. */
    public List<Diagnostic> refusals() { return refusals; }

    /** The first refusal, when refused. */
    public Optional<Diagnostic> refusal() { return refusals.isEmpty() ? Optional.empty() : Optional.of(refusals.get(0)); }

    /** The value, if any. */
    public Optional<T> toOptional() { return Optional.ofNullable(value); }

    /** Transforms the value, keeping refusals. */
    public <U> Attempt<U> map(Function<? super T, ? extends U> f) {
        return isOk() ? Attempt.ok(f.apply(value)) : new Attempt<>(null, refusals);
    }

    /** Chains a further attempt, keeping refusals. */
    public <U> Attempt<U> flatMap(Function<? super T, Attempt<U>> f) {
        return isOk() ? f.apply(value) : new Attempt<>(null, refusals);
    }

    @Override public String toString() { return isOk() ? "ok(" + value + ")" : "refused" + refusals; }
}
