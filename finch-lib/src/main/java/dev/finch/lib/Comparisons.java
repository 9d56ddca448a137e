package dev.finch.lib;

import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * Equality and order. Both are defined once, in {@link Values#equal} and {@link Values#compareFloats} /
 * {@link Values#compareStrings}, and mean the same at the top level and inside lists, options, records, maps and
 * json: floats are compared in a total order where {@code -0.0 = 0.0} and {@code nan = nan}, nan being greater than
 * every other float (so sorting is total); strings by Unicode code points. Comparing two structures is charged to
 * the run for the elements compared (a structure sharing its parts costs what its distinct parts cost), and a long
 * string comparison for its chars.
 */
public final class Comparisons {
    private Comparisons() { }

    @Word(name = "=", aka = {"equal?", "eq?", "eqv?", "string=?", "=="}, category = Category.COMPARISON,
            doc = "Structural equality of two values of one type (floats: -0.0 = 0.0 and nan = nan, at every depth).")
    @Overload(sig = "a a -> bool", intrinsic = Intrinsic.EQUAL)
    public static boolean equal(Ctx ctx, Object a, Object b) { return Values.equal(a, b, ctx); }

    @Word(name = "<>", aka = {"!=", "/="}, category = Category.COMPARISON, doc = "Structural inequality: the negation of =.")
    @Overload(sig = "a a -> bool", intrinsic = Intrinsic.NOT_EQUAL)
    public static boolean notEqual(Ctx ctx, Object a, Object b) { return !Values.equal(a, b, ctx); }

    private static final String ORDER = " (ints by value; floats in the total order where nan is the greatest; strings by code points).";

    @Word(name = "<", category = Category.COMPARISON, doc = "True when the second is less than the top" + ORDER)
    @Overload(id = "less-int", sig = "int int -> bool", intrinsic = Intrinsic.INT_LESS)
    public static boolean lessInt(long a, long b) { return a < b; }

    @Overload(word = "<", id = "less-float", order = 1, sig = "float float -> bool")
    public static boolean lessFloat(double a, double b) { return Values.compareFloats(a, b) < 0; }

    @Overload(word = "<", id = "less-string", order = 2, sig = "string string -> bool")
    public static boolean lessString(String a, String b) { return Values.compareStrings(a, b) < 0; }

    @Word(name = ">", category = Category.COMPARISON, doc = "True when the second is greater than the top" + ORDER)
    @Overload(id = "greater-int", sig = "int int -> bool", intrinsic = Intrinsic.INT_GREATER)
    public static boolean greaterInt(long a, long b) { return a > b; }

    @Overload(word = ">", id = "greater-float", order = 1, sig = "float float -> bool")
    public static boolean greaterFloat(double a, double b) { return Values.compareFloats(a, b) > 0; }

    @Overload(word = ">", id = "greater-string", order = 2, sig = "string string -> bool")
    public static boolean greaterString(String a, String b) { return Values.compareStrings(a, b) > 0; }

    @Word(name = "<=", category = Category.COMPARISON, doc = "True when the second is at most the top" + ORDER)
    @Overload(id = "at-most-int", sig = "int int -> bool", intrinsic = Intrinsic.INT_LESS_EQUAL)
    public static boolean atMostInt(long a, long b) { return a <= b; }

    @Overload(word = "<=", id = "at-most-float", order = 1, sig = "float float -> bool")
    public static boolean atMostFloat(double a, double b) { return Values.compareFloats(a, b) <= 0; }

    @Overload(word = "<=", id = "at-most-string", order = 2, sig = "string string -> bool")
    public static boolean atMostString(String a, String b) { return Values.compareStrings(a, b) <= 0; }

    @Word(name = ">=", category = Category.COMPARISON, doc = "True when the second is at least the top" + ORDER)
    @Overload(id = "at-least-int", sig = "int int -> bool", intrinsic = Intrinsic.INT_GREATER_EQUAL)
    public static boolean atLeastInt(long a, long b) { return a >= b; }

    @Overload(word = ">=", id = "at-least-float", order = 1, sig = "float float -> bool")
    public static boolean atLeastFloat(double a, double b) { return Values.compareFloats(a, b) >= 0; }

    @Overload(word = ">=", id = "at-least-string", order = 2, sig = "string string -> bool")
    public static boolean atLeastString(String a, String b) { return Values.compareStrings(a, b) >= 0; }
}
