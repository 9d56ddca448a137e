package dev.finch.lib;

import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/** Boolean logic; both operands are already evaluated (Lisp's {@code and}/{@code or} forms short-circuit instead). */
public final class Logic {
    private Logic() { }

    @Word(name = "and", category = Category.LOGIC, doc = "Logical and of two bools.")
    @Overload(sig = "bool bool -> bool", intrinsic = Intrinsic.BOOL_AND)
    public static boolean and(boolean a, boolean b) { return a & b; }

    @Word(name = "or", category = Category.LOGIC, doc = "Logical or of two bools.")
    @Overload(sig = "bool bool -> bool", intrinsic = Intrinsic.BOOL_OR)
    public static boolean or(boolean a, boolean b) { return a | b; }

    @Word(name = "not", category = Category.LOGIC, doc = "Logical negation.")
    @Overload(sig = "bool -> bool", intrinsic = Intrinsic.BOOL_NOT)
    public static boolean not(boolean a) { return !a; }
}
