package dev.finch.frontend.types;

/**
 * Two types that cannot be unified: the parts that clash ({@code expected} is from the unification's first argument,
 * {@code found} from its second), or, when {@link #infinite()}, a variable and the type it would have to contain
 * itself in. The language turns it into its diagnostic; it carries no stack trace (it is an answer, not a bug).
 */
public final class Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Term<?> expected;
    private final transient Term<?> found;
    private final boolean infinite;

    Mismatch(Term<?> expected, Term<?> found, boolean infinite) {
        super(infinite ? "a type would contain itself" : "the types differ", null, false, false);
        this.expected = expected;
        this.found = found;
        this.infinite = infinite;
    }

    /** The clashing part on the expected side; for an occurs-check failure, the variable. */
    @SuppressWarnings("unchecked")
    public <T extends Term<T>> T expected() { return (T) expected; }

    /** The clashing part on the found side; for an occurs-check failure, the whole type the variable was to be bound to. */
    @SuppressWarnings("unchecked")
    public <T extends Term<T>> T found() { return (T) found; }

    /** True for an occurs-check failure: a type that would have to contain itself. */
    public boolean infinite() { return infinite; }
}
