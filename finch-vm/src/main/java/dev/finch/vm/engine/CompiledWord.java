package dev.finch.vm.engine;

import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import java.lang.invoke.MethodHandle;

/**
 * A persisted, compiled definition: its signature and the static method that implements it (in a hidden class that
 * stays reachable while the word does). Later submissions link to it directly.
 *
 * <p>A word of a restored session is {@linkplain #deferred deferred}: its name, signature and whether it may suspend
 * are known at once (they are all a later submission is verified against), while its verified body and its code are
 * made the first time something needs them — a submission that calls it is compiled, or its source is inspected —
 * by the {@link Resolver} that rebuilds the submission that defined it. A restored session thus costs what its image
 * takes to read, however many definitions it holds.
 */
public final class CompiledWord {
    private final String name;
    private final Type.Fn signature;
    private final boolean suspends;
    private final Resolver resolver;
    private volatile MethodHandle handle;
    private volatile CheckedWord checked;
    /** How interpreted code calls it (its handle adapted to one uniform shape), made when first needed. */
    private volatile MethodHandle uniform;

    /** Rebuilds a deferred word's definition: {@link #fill fills} it (and the other words its submission defined). */
    @FunctionalInterface
    public interface Resolver {
        void resolve();
    }

    /** Why a deferred word's definition could not be rebuilt (a damaged or incompatible image): its diagnostic. */
    public static final class Unavailable extends RuntimeException {
        private final transient Diagnostic diagnostic;

        public Unavailable(Diagnostic diagnostic) { this(diagnostic, null); }

        /** As above, with the original failure for the host (never shown to a program). */
        public Unavailable(Diagnostic diagnostic, Throwable cause) {
            super(diagnostic.message(), cause, false, false);
            this.diagnostic = diagnostic;
        }

        public Diagnostic diagnostic() { return diagnostic; }
    }

    public CompiledWord(String name, Type.Fn signature, MethodHandle handle, boolean suspends, CheckedWord checked) {
        this.name = name;
        this.signature = signature;
        this.suspends = suspends;
        this.resolver = null;
        this.handle = handle;
        this.checked = checked;
    }

    private CompiledWord(String name, Type.Fn signature, boolean suspends, Resolver resolver) {
        this.name = name;
        this.signature = signature;
        this.suspends = suspends;
        this.resolver = resolver;
    }

    /** A word of a restored session whose body and code {@code resolver} makes when first needed. */
    public static CompiledWord deferred(String name, Type.Fn signature, boolean suspends, Resolver resolver) {
        return new CompiledWord(name, signature, suspends, java.util.Objects.requireNonNull(resolver, "resolver"));
    }

    public String name() { return name; }

    public Type.Fn signature() { return signature; }

    /** Whether a call of it may suspend the run (it reaches a yield, a host boundary or a wait). */
    public boolean suspends() { return suspends; }

    /** The method that implements it, {@code (Ctx, int depth, ins…) out}; a deferred word is rebuilt first. */
    public MethodHandle handle() {
        MethodHandle h = handle;
        if (h == null) {
            resolve();
            h = handle;
        }
        return h;
    }

    /**
     * Its uniform invoker — the shape interpreted code calls every word through — made from its {@link #handle} by
     * {@code adapt} the first time one is asked for and kept with the word, so that each later submission calling it
     * does not adapt the handle again.
     */
    public MethodHandle uniform(java.util.function.BiFunction<MethodHandle, Type.Fn, MethodHandle> adapt) {
        MethodHandle u = uniform;
        if (u == null) uniform = u = adapt.apply(handle(), signature);
        return u;
    }

    /** Its verified body; a deferred word is rebuilt first. */
    public CheckedWord checked() {
        CheckedWord c = checked;
        if (c == null && resolver != null) {
            resolve();
            c = checked;
        }
        return c;
    }

    /** Whether its body and code exist (always, but for a deferred word not yet needed). */
    public boolean isResolved() { return handle != null; }

    /** Gives a deferred word the body and code of {@code built}, the same definition compiled again. */
    public void fill(CompiledWord built) {
        if (!built.name.equals(name) || !built.signature.equals(signature)) {
            throw new IllegalArgumentException("word " + built.name + " : " + built.signature + " does not rebuild " + name + " : " + signature);
        }
        checked = built.checked;
        handle = built.handle;
    }

    private void resolve() {
        if (resolver == null) return;
        resolver.resolve();
        if (handle == null) throw new IllegalStateException("rebuilding word " + name + " did not fill it");
    }

    @Override public String toString() { return "CompiledWord[" + name + " : " + signature + (isResolved() ? "" : ", deferred") + "]"; }
}
