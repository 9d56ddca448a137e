package dev.finch.vm.word;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

/**
 * The implementation of one overload, as {@link Library} read it from its declaration: the implementing method
 * (its reference implementation, which the interpreter calls and compiled code calls directly unless an
 * {@link Intrinsic} emits it inline) or, for a word typed by a dedicated rule that needs its immediates, the
 * {@link SpecialWord} constant that implements both tiers.
 */
public final class Impl {
    private final dev.finch.ir.vocab.Overload overload;
    private final WordSpec word;
    private final MethodRef method;
    /** The method's number in its library's {@link WordIndex} (Finch's own words), or -1: then {@link #invoke} calls {@link #boxed}. */
    private final int call;
    /** The class and name of the {@link SpecialWord} constant, or null for a method. */
    private final String specialOwner;
    private final String specialName;
    /** The constant, found by name when first asked: loading its enum loads a class for each of its constants. */
    private volatile SpecialWord special;
    private final Intrinsic intrinsic;
    private final boolean ctx;
    private final boolean depth;
    private final boolean site;
    private final boolean origin;
    /**
     * The boxed shape of the method: given when the library is built for a host's or a data word; for Finch's own
     * made when first asked ({@link #boxed()}), never by the interpreter, which calls them through its library's {@link WordIndex}
     * (building a handle spins several classes in a fresh JVM).
     */
    private volatile MethodHandle boxed;

    Impl(dev.finch.ir.vocab.Overload overload, WordSpec word, MethodRef method, int call, String specialOwner, String special, Intrinsic intrinsic,
         boolean ctx, boolean depth, boolean site, boolean origin, MethodHandle boxed) {
        this.overload = overload;
        this.word = word;
        this.method = method;
        this.call = call;
        this.specialOwner = specialOwner;
        this.specialName = special;
        this.intrinsic = intrinsic;
        this.ctx = ctx;
        this.depth = depth;
        this.site = site;
        this.origin = origin;
        this.boxed = boxed;
    }

    /** The declared overload. */
    public dev.finch.ir.vocab.Overload overload() { return overload; }

    /** The word it belongs to. */
    public WordSpec word() { return word; }

    /**
     * The implementing method; null for a {@link SpecialWord}. Finch's own are named by the index of their
     * declarations and found the first time this is asked.
     */
    public Method method() { return method == null ? null : method.resolve(); }

    /**
     * The binary name of the implementing method's class, null for a {@link SpecialWord}: with
     * {@link #methodName()} and {@link #methodDescriptor()}, what compiled code calls, without reflecting on the class.
     */
    public String methodOwner() { return method == null ? null : method.owner(); }

    /** The implementing method's name; null for a {@link SpecialWord}. */
    public String methodName() { return method == null ? null : method.name(); }

    /** The implementing method's JVM descriptor; null for a {@link SpecialWord}. */
    public String methodDescriptor() { return method == null ? null : method.descriptor(); }

    /** The method's number in its library's {@link WordIndex}, or -1 when it is not called through them. */
    int call() { return call; }

    /** The special implementation; null for a method. */
    public SpecialWord special() {
        if (specialName == null) return null;
        SpecialWord s = special;
        if (s == null) {
            s = constant(specialOwner, specialName);
            special = s;
        }
        return s;
    }

    /** The {@link SpecialWord} constant {@code name} of the enum {@code owner}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static SpecialWord constant(String owner, String name) {
        try {
            Class<?> c = Class.forName(owner, true, Impl.class.getClassLoader());
            return (SpecialWord) Enum.valueOf((Class) c, name);
        } catch (ClassNotFoundException | ClassCastException | IllegalArgumentException e) {
            throw new IllegalStateException("the index names the special word " + owner + "." + name + ", which is not there", e);
        }
    }

    /** The compiled-code emitter; {@link Intrinsic#NONE} for a plain call of the method. */
    public Intrinsic intrinsic() { return intrinsic; }

    /** True when the method takes the run context first. */
    public boolean takesContext() { return ctx; }

    /** True when the method takes the call depth (after the context): it calls closures. */
    public boolean takesDepth() { return depth; }

    /** True when the method takes the call site's instantiated signature after its inputs. */
    public boolean takesSite() { return site; }

    /** True when the method takes the call site's origin last. */
    public boolean takesOrigin() { return origin; }

    /** True for a word the embedding host installed: its calls go through {@link HostCalls}. */
    public boolean host() { return word.origin() == WordSpec.Provenance.HOST; }

    /**
     * Calls the method with boxed inputs (the interpreter's and {@link HostCalls}' way):
     * {@code (Ctx, int depth, Type.Fn site, Origin, Object[] inputs) Object}. Finch's own words are called through
     * its library's {@link WordIndex}, the generated static calls; a host's and a data word through their handle.
     */
    public Object invoke(Ctx c, int callDepth, Type.Fn callSite, Origin at, Object[] inputs) {
        try {
            if (call >= 0) return method.indexed.index().call(call, c, callDepth, callSite, at, inputs);
            MethodHandle h = boxed;
            if (h == null) h = boxed();
            return (Object) h.invokeExact(c, callDepth, callSite, at, inputs);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The method as {@link #invoke} calls it, {@code (Ctx, int depth, Type.Fn site, Origin, Object[] inputs) Object},
     * made now if it was not yet. Two threads may both make it; they make equivalent handles and either is kept (a
     * handle is immutable, and the field is volatile).
     *
     * @throws IllegalStateException for a {@link SpecialWord}, which has no method
     */
    public MethodHandle boxed() {
        MethodHandle h = boxed;
        if (h == null) {
            if (method == null) throw new IllegalStateException(this + " is implemented by a special word, not a method");
            try {
                h = Library.boxed(method.handle(), ctx, depth, overload.signature().ins().size(), site, origin);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(method + " is not accessible: " + e.getMessage(), e);
            }
            boxed = h;
        }
        return h;
    }

    @Override public String toString() { return word.name() + "#" + overload.id(); }

    /**
     * Where an implementing method is — its class's binary name, its name and JVM descriptor — and the method once it
     * has been looked up (a host's, reflected when its library was built, from the start). Two threads may both look it
     * up; they find the same method. An indexed method's descriptor is joined from its parts when first asked (most
     * of the ~200 are never compiled or called in a run).
     */
    static final class MethodRef {
        private final String owner;
        private final String name;
        private final Declaration.IndexedMethod indexed;
        private volatile String descriptor;
        private volatile Method method;

        MethodRef(Declaration.IndexedMethod m) {
            this.owner = m.owner();
            this.name = m.name();
            this.indexed = m;
        }

        MethodRef(Method m) {
            this.owner = m.getDeclaringClass().getName();
            this.name = m.getName();
            this.indexed = null;
            this.descriptor = MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
            this.method = m;
        }

        String owner() { return owner; }

        String name() { return name; }

        String descriptor() {
            String d = descriptor;
            if (d == null) descriptor = d = indexed.descriptor();
            return d;
        }

        Method resolve() {
            Method m = method;
            if (m == null) {
                try {
                    m = ownerClass().getDeclaredMethod(name, type().parameterArray());
                } catch (NoSuchMethodException e) {
                    throw new IllegalStateException("the index of the word declarations names " + this + ", which is not there", e);
                }
                method = m;
            }
            return m;
        }

        /** A direct handle of the public static method (the public lookup, as for a host's method). */
        MethodHandle handle() throws IllegalAccessException {
            Method m = method;
            if (m != null) return MethodHandles.publicLookup().unreflect(m);
            try {
                return MethodHandles.publicLookup().findStatic(ownerClass(), name, type());
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("the index of the word declarations names " + this + ", which is not there", e);
            }
        }

        /** The loader of the index's module (a word library's), or the engine's for a reflected method. */
        private ClassLoader loader() {
            ClassLoader l = indexed == null ? null : indexed.index().getClass().getClassLoader();
            return l != null ? l : Impl.class.getClassLoader();
        }

        private Class<?> ownerClass() {
            try {
                return Class.forName(owner, false, loader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("the index of the word declarations names " + this + ", which is not there", e);
            }
        }

        private MethodType type() { return MethodType.fromMethodDescriptorString(descriptor(), loader()); }

        @Override public String toString() { return owner + "." + name + descriptor(); }
    }
}
