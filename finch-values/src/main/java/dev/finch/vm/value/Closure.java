package dev.finch.vm.value;

import dev.finch.ir.type.Type;
import java.lang.invoke.MethodHandle;

/**
 * A closure or execution token: a uniform invoker {@code (Ctx, int depth, Object[] captures, Object[] args) Object}
 * over a compiled method, the values it captured (an immutable snapshot), and its typed signature (effects and
 * yields included). {@code outKinds} tells how the callee returns several outputs.
 */
public final class Closure {
    private final MethodHandle invoker;
    private final Object[] captures;
    private final Type.Fn type;
    private final String name;
    private final dev.finch.ir.checked.Checked.CheckedWord body;
    private final dev.finch.ir.checked.Checked.QuoteNode site;

    public Closure(MethodHandle invoker, Object[] captures, Type.Fn type, String name) { this(invoker, captures, type, name, null); }

    /** A closure made by a closure literal, with the verified body it runs (what lets a paused run save it). */
    public Closure(MethodHandle invoker, Object[] captures, Type.Fn type, String name, dev.finch.ir.checked.Checked.CheckedWord body) {
        this(invoker, captures, type, name, body, null);
    }

    /** An execution token made by a quotation, with the quotation (what lets a paused run or a session save it). */
    public Closure(MethodHandle invoker, Type.Fn type, String name, dev.finch.ir.checked.Checked.QuoteNode site) {
        this(invoker, null, type, name, null, site);
    }

    private Closure(MethodHandle invoker, Object[] captures, Type.Fn type, String name, dev.finch.ir.checked.Checked.CheckedWord body,
                    dev.finch.ir.checked.Checked.QuoteNode site) {
        this.invoker = invoker;
        this.captures = captures;
        this.type = type;
        this.name = name;
        this.body = body;
        this.site = site;
    }

    /** The verified body of a closure literal; null for an execution token. */
    public dev.finch.ir.checked.Checked.CheckedWord body() { return body; }

    /** The quotation an execution token was made by; null for a closure, or a token made outside any program. */
    public dev.finch.ir.checked.Checked.QuoteNode site() { return site; }

    public MethodHandle invoker() { return invoker; }

    public Object[] captures() { return captures; }

    public Type.Fn type() { return type; }

    @Override public String toString() { return name; }
}
