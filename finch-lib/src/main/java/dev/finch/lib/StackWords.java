package dev.finch.lib;

import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * The stack shuffles. Compiled code moves slots (the permutation comes from the signature); these methods are the
 * reference implementations the interpreter runs, and a test holds the two to agreement.
 */
public final class StackWords {
    private StackWords() { }

    @Word(name = "dup", category = Category.STACK, doc = "Duplicate the top value.")
    @Overload(sig = "a -> a a", intrinsic = Intrinsic.SHUFFLE)
    public static Object[] dup(Object a) { return new Object[] {a, a}; }

    @Word(name = "drop", category = Category.STACK, doc = "Discard the top value.")
    @Overload(sig = "a ->", intrinsic = Intrinsic.SHUFFLE)
    public static void drop(Object a) { }

    @Word(name = "swap", category = Category.STACK, doc = "Exchange the top two values.")
    @Overload(sig = "a b -> b a", intrinsic = Intrinsic.SHUFFLE)
    public static Object[] swap(Object a, Object b) { return new Object[] {b, a}; }

    @Word(name = "over", category = Category.STACK, doc = "Copy the second value to the top.")
    @Overload(sig = "a b -> a b a", intrinsic = Intrinsic.SHUFFLE)
    public static Object[] over(Object a, Object b) { return new Object[] {a, b, a}; }

    @Word(name = "rot", category = Category.STACK, doc = "Rotate the third value to the top.")
    @Overload(sig = "a b c -> b c a", intrinsic = Intrinsic.SHUFFLE)
    public static Object[] rot(Object a, Object b, Object c) { return new Object[] {b, c, a}; }

    @Word(name = "nip", category = Category.STACK, doc = "Discard the second value.")
    @Overload(sig = "a b -> b", intrinsic = Intrinsic.SHUFFLE)
    public static Object nip(Object a, Object b) { return b; }

    @Word(name = "tuck", category = Category.STACK, doc = "Copy the top value below the second.")
    @Overload(sig = "a b -> b a b", intrinsic = Intrinsic.SHUFFLE)
    public static Object[] tuck(Object a, Object b) { return new Object[] {b, a, b}; }
}
