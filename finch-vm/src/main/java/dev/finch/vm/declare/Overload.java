package dev.finch.vm.declare;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One overload of a {@link Word}, on the static method that implements it. The method's parameters follow the
 * signature's inputs in order — {@code long} for int, {@code double} for float, {@code boolean} for bool,
 * {@code String} for string, and {@code Object} (or the value's class) for everything else — or, in a host's word, {@link dev.finch.vm.Value} for any type — and its return type
 * the single output ({@code void} for none). Finch's own words may also take, in this order, the run context
 * ({@code Ctx}) and the call depth ({@code int}) before the inputs, and the call site's instantiated signature
 * ({@code Type.Fn}) and origin ({@code Origin}) after them. Finch refuses a method whose shape disagrees
 * with its signature.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD})
public @interface Overload {
    /**
     * The signature in the compact spelling, {@code "string string -> list<string>"}. Its effects are the requirement
     * (for a host's word, at most one capability besides {@code session.emit}), checked at the host boundary before
     * the method runs.
     */
    String sig();

    /** The stable overload id a verified call records; defaults to the word's name (one id per overload, unique). */
    String id() default "";

    /** The word this overload belongs to, when its {@link Word} is declared on another member. */
    String word() default "";

    /** Overloads are tried in ascending order (then by id); a call whose stack fits several takes the first. */
    int order() default 0;

    /**
     * An argument-dependent requirement whose bound is the signature's effect of the same name, e.g.
     * {@code "fs.read($0)"} (the refined path of argument 0) or {@code "fs.read($0/**)"} (its subtree).
     */
    String requires() default "";

    /** True when output 0 refines literal argument 0 (a refined path, or a grant's name that templates read). */
    boolean refines() default false;

    /** Finch's own compiled-code emitter for a true intrinsic; the method stays its reference implementation. */
    Intrinsic intrinsic() default Intrinsic.NONE;
}
