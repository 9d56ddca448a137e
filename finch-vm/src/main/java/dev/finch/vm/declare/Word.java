package dev.finch.vm.declare;

import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a word on the member that implements it (or one of its overloads): its name in every frontend, its
 * category and its documentation. Each word is declared exactly once; every implementing member also carries an
 * {@link Overload}. Finch's own words are declared this way in {@code dev.finch.lib} and {@code dev.finch.host},
 * and a host installs its own the same way ({@code Finch.builder().words(MyWords.class)}):
 *
 * <pre>{@code
 * public final class Greetings {
 *     @Word(name = "greet", doc = "A greeting for a name.")
 *     @Overload(sig = "string -> string")
 *     public static String greet(String name) { return "Hello, " + name + "!"; }
 * }
 * }</pre>
 *
 * Finch reads the declarations, checks each against its implementing method (a signature that disagrees
 * with the method, a missing implementation, a duplicate name or id are refused when the library is built) and
 * produces the vocabulary that the frontends and the verifier see.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD})
public @interface Word {
    /** The word's name, the same in Lisp, Co-Forth and the canonical IR ({@code string-split}). */
    String name();

    /** Where discovery and the generated documentation list it. */
    WordSpec.Category category() default WordSpec.Category.HOST;

    /** One or two sentences for people and models: what it does, and what it answers at its edges. */
    String doc();

    /** True when Lisp accepts more than two arguments and folds them from the left, like {@code (+ 1 2 3)}. */
    boolean foldsLeft() default false;

    /**
     * True when a call may pause the run although its signature shows no yield or capability: the word waits on other
     * work of the run (a fiber's body, a concurrent step, a CPU task) that may pause, so every call site gets a resume point.
     */
    boolean pauses() default false;

    /** How the verifier types a call; anything but ordinary is one of Finch's own dedicated rules. */
    Typing typing() default Typing.ORDINARY;

    /**
     * Names other languages give what this word does ({@code display}, {@code print}, {@code .} for {@code say}; {@code
     * car} for {@code list-uncons}): an unknown name among them is answered with this word, by meaning rather than by
     * spelling, in every frontend's diagnostic and in discovery. They are not callable.
     */
    String[] aka() default {};
}
