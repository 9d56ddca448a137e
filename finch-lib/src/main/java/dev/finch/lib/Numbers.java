package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * Arithmetic on int (64-bit, checked: overflow and division by zero are execute errors, never wrap-around, D5) and
 * float (IEEE doubles). The int operations are called from compiled code as they are; the float ones are emitted
 * inline, and these methods are their reference implementations.
 */
public final class Numbers {
    private Numbers() { }

    // The Math.*Exact intrinsics compile to the machine's add/jump-on-overflow; overflow is the cold path.

    @Word(name = "+", category = Category.ARITHMETIC, foldsLeft = true, doc = "Add.")
    @Overload(id = "add-int", sig = "int int -> int")
    public static long add(long a, long b, Origin o) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " + " + b);
        }
    }

    @Overload(word = "+", id = "add-float", order = 1, sig = "float float -> float", intrinsic = Intrinsic.FLOAT_ADD)
    public static double addFloat(double a, double b) { return a + b; }

    @Word(name = "-", category = Category.ARITHMETIC, foldsLeft = true, doc = "Subtract the top from the second (Lisp: (- x) negates).")
    @Overload(id = "sub-int", sig = "int int -> int")
    public static long sub(long a, long b, Origin o) {
        try {
            return Math.subtractExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " - " + b);
        }
    }

    @Overload(word = "-", id = "sub-float", order = 1, sig = "float float -> float", intrinsic = Intrinsic.FLOAT_SUB)
    public static double subFloat(double a, double b) { return a - b; }

    @Word(name = "*", category = Category.ARITHMETIC, foldsLeft = true, doc = "Multiply.")
    @Overload(id = "mul-int", sig = "int int -> int")
    public static long mul(long a, long b, Origin o) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " * " + b);
        }
    }

    @Overload(word = "*", id = "mul-float", order = 1, sig = "float float -> float", intrinsic = Intrinsic.FLOAT_MUL)
    public static double mulFloat(double a, double b) { return a * b; }

    @Word(name = "/", category = Category.ARITHMETIC, doc = "Divide the second by the top (ints truncate toward zero; E-ARITH-002 on int division by zero).")
    @Overload(id = "div-int", sig = "int int -> int")
    public static long div(long a, long b, Origin o) {
        if (b == 0) throw new FinchTrap(VmCode.DIVIDE_BY_ZERO, o, "division of " + a + " by zero");
        if (a == Long.MIN_VALUE && b == -1) throw overflow(o, a + " / " + b);
        return a / b;
    }

    @Overload(word = "/", id = "div-float", order = 1, sig = "float float -> float", intrinsic = Intrinsic.FLOAT_DIV)
    public static double divFloat(double a, double b) { return a / b; }

    @Word(name = "mod", aka = {"modulo", "remainder", "%"}, category = Category.ARITHMETIC, doc = "Remainder of dividing the second by the top (sign of the dividend).")
    @Overload(id = "mod-int", sig = "int int -> int")
    public static long mod(long a, long b, Origin o) {
        if (b == 0) throw new FinchTrap(VmCode.DIVIDE_BY_ZERO, o, "remainder of " + a + " by zero");
        return b == -1 ? 0 : a % b;
    }

    @Overload(word = "mod", id = "mod-float", order = 1, sig = "float float -> float", intrinsic = Intrinsic.FLOAT_REM)
    public static double modFloat(double a, double b) { return a % b; }

    @Word(name = "negate", category = Category.ARITHMETIC, doc = "Negate.")
    @Overload(id = "negate-int", sig = "int -> int")
    public static long negate(long a, Origin o) {
        if (a == Long.MIN_VALUE) throw overflow(o, "negate " + a);
        return -a;
    }

    @Overload(word = "negate", id = "negate-float", order = 1, sig = "float -> float", intrinsic = Intrinsic.FLOAT_NEGATE)
    public static double negateFloat(double a) { return -a; }

    @Word(name = "abs", category = Category.ARITHMETIC, doc = "The absolute value (E-ARITH-001 for the smallest int, whose absolute value has no int).")
    @Overload(id = "abs-int", sig = "int -> int")
    public static long abs(long a, Origin o) {
        if (a == Long.MIN_VALUE) throw overflow(o, "abs " + a);
        return Math.abs(a);
    }

    @Overload(word = "abs", id = "abs-float", order = 1, sig = "float -> float")
    public static double absFloat(double a) { return Math.abs(a); }

    @Word(name = "min", category = Category.ARITHMETIC, foldsLeft = true,
            doc = "The smaller of two numbers (the first when they are equal; floats in Finch's total order, where nan is the greatest).")
    @Overload(id = "min-int", sig = "int int -> int")
    public static long min(long a, long b) { return b < a ? b : a; }

    @Overload(word = "min", id = "min-float", order = 1, sig = "float float -> float")
    public static double minFloat(double a, double b) { return Values.compareFloats(b, a) < 0 ? b : a; }

    @Word(name = "max", category = Category.ARITHMETIC, foldsLeft = true,
            doc = "The larger of two numbers (the first when they are equal; floats in Finch's total order, where nan is the greatest).")
    @Overload(id = "max-int", sig = "int int -> int")
    public static long max(long a, long b) { return b > a ? b : a; }

    @Overload(word = "max", id = "max-float", order = 1, sig = "float float -> float")
    public static double maxFloat(double a, double b) { return Values.compareFloats(b, a) > 0 ? b : a; }

    @Word(name = "int-to-float", category = Category.ARITHMETIC, doc = "Convert an int to the nearest float.")
    @Overload(sig = "int -> float", intrinsic = Intrinsic.INT_TO_FLOAT)
    public static double intToFloat(long a) { return (double) a; }

    @Word(name = "float-to-int", category = Category.ARITHMETIC, doc = "The int part of a float, truncated toward zero; none for nan, infinities and values out of the int range.")
    @Overload(sig = "float -> option<int>")
    public static Object floatToInt(double a) {
        // -2^63 is exactly representable; 2^63 is the first double above the int range.
        if (Double.isNaN(a) || a < -0x1p63 || a >= 0x1p63) return OptionValue.NONE;
        return OptionValue.some((long) a);
    }

    @Word(name = "floor", category = Category.ARITHMETIC, doc = "The largest whole float not above the value (floor 2.7 is 2.0, floor -2.5 is -3.0).")
    @Overload(sig = "float -> float")
    public static double floor(double a) { return Math.floor(a); }

    @Word(name = "ceil", category = Category.ARITHMETIC, doc = "The smallest whole float not below the value (ceil 2.1 is 3.0, ceil -2.5 is -2.0).")
    @Overload(sig = "float -> float")
    public static double ceil(double a) { return Math.ceil(a); }

    @Word(name = "round", category = Category.ARITHMETIC, doc = "The nearest whole float, halves away from zero (round 2.5 is 3.0, round -2.5 is -3.0).")
    @Overload(sig = "float -> float")
    public static double round(double a) {
        double down = Math.floor(a);
        double fraction = a - down;
        if (fraction == 0.5) return a < 0 ? down : down + 1;
        return Math.rint(a);
    }

    @Word(name = "sqrt", category = Category.ARITHMETIC, doc = "The square root (nan for a negative value, as IEEE 754 has it).")
    @Overload(sig = "float -> float")
    public static double sqrt(double a) { return Math.sqrt(a); }

    static FinchTrap overflow(Origin o, String what) {
        return new FinchTrap(VmCode.INT_OVERFLOW, o, "integer overflow in " + what);
    }
}
