package dev.finch.vm.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;

/**
 * Strings: immutable Unicode text. Every position and length counts code points (D5), never UTF-16 units, and
 * every word that builds a string checks its size against the run's memory limit before allocating it.
 */
public final class Strings {
    private Strings() { }

    @Word(name = "string-append", category = Category.STRING, foldsLeft = true, doc = "Concatenate two strings.")
    @Overload(sig = "string string -> string")
    public static String stringAppend(Ctx ctx, String a, String b, Origin o) {
        reserve(ctx, (long) a.length() + b.length(), "string-append", o);
        return a.concat(b);
    }

    @Word(name = "string-length", category = Category.STRING, doc = "The number of Unicode code points.")
    @Overload(sig = "string -> int")
    public static long stringLength(String s) { return s.codePointCount(0, s.length()); }

    @Word(name = "int-to-string", category = Category.STRING, doc = "Decimal spelling of an int.")
    @Overload(sig = "int -> string")
    public static String intToString(long v) { return Long.toString(v); }

    @Word(name = "float-to-string", category = Category.STRING, doc = "Shortest round-trip spelling of a float.")
    @Overload(sig = "float -> string")
    public static String floatToString(double v) { return Values.floatText(v); }

    @Word(name = "string-to-int", category = Category.STRING, doc = "Parse a decimal int (surrounding whitespace allowed); none when the text is not one.")
    @Overload(sig = "string -> option<int>")
    public static Object stringToInt(String s) {
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]{1,19}")) return OptionValue.NONE;
        try {
            return OptionValue.some(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return OptionValue.NONE;
        }
    }

    /**
     * Refuses a string of {@code chars} UTF-16 units (two bytes each) that would exceed the run's memory limit,
     * before it is built (E-LIMIT-005).
     */
    static void reserve(Ctx ctx, long chars, String word, Origin o) {
        if (chars * 2 > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a string of " + chars + " chars, over the memory limit");
        }
    }
}
