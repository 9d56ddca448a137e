package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Strings: immutable Unicode text. Every position and length counts code points (D5), never UTF-16 units, and
 * every word that builds a string checks its size against the run's memory limit before allocating it.
 */
public final class Strings {
    private Strings() { }

    @Word(name = "string-append", aka = {"concat", "string-concat", "strcat", "str"}, category = Category.STRING, foldsLeft = true, doc = "Concatenate two strings.")
    @Overload(sig = "string string -> string")
    public static String stringAppend(Ctx ctx, String a, String b, Origin o) {
        reserve(ctx, (long) a.length() + b.length(), "string-append", o);
        ctx.charge(((long) a.length() + b.length()) / 64);
        return a.concat(b);
    }

    @Word(name = "string-length", aka = {"strlen"}, category = Category.STRING, doc = "The number of Unicode code points.")
    @Overload(sig = "string -> int")
    public static long stringLength(Ctx ctx, String s) {
        ctx.charge(s.length() / 64);
        return s.codePointCount(0, s.length());
    }

    @Word(name = "int-to-string", aka = {"number->string", "itoa", "to-string"}, category = Category.STRING, doc = "Decimal spelling of an int.")
    @Overload(sig = "int -> string")
    public static String intToString(long v) { return Long.toString(v); }

    @Word(name = "float-to-string", category = Category.STRING, doc = "Shortest round-trip spelling of a float.")
    @Overload(sig = "float -> string")
    public static String floatToString(double v) { return Values.floatText(v); }

    @Word(name = "string-to-int", aka = {"string->number", "parse-int", "atoi"}, category = Category.STRING, doc = "Parse a decimal int (surrounding whitespace allowed); none when the text is not one.")
    @Overload(sig = "string -> option<int>")
    public static Object stringToInt(Ctx ctx, String s) {
        ctx.charge(s.length() / 64);
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]{1,19}")) return OptionValue.NONE;
        try {
            return OptionValue.some(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return OptionValue.NONE;
        }
    }

    @Word(name = "string-slice", aka = {"substring", "subseq", "substr"}, category = Category.STRING,
            doc = "The code points from start up to (not including) end; both are clamped to [0, length], and start at or after end gives \"\".")
    @Overload(sig = "string int int -> string")
    public static String stringSlice(Ctx ctx, String s, long start, long end) {
        ctx.charge(s.length() / 64);
        long n = codePoints(s);
        long from = clamp(start, n);
        long to = clamp(end, n);
        if (from >= to) return "";
        int a = s.offsetByCodePoints(0, (int) from);
        int b = s.offsetByCodePoints(a, (int) (to - from));
        return s.substring(a, b);
    }

    @Word(name = "string-char-at", category = Category.STRING,
            doc = "The code point at a zero-based index, as a one-character string; none for an index below 0 or at or past the length.")
    @Overload(sig = "string int -> option<string>")
    public static Object stringCharAt(Ctx ctx, String s, long index) {
        ctx.charge(s.length() / 64);
        if (index < 0 || index >= codePoints(s)) return OptionValue.NONE;
        int at = s.offsetByCodePoints(0, (int) index);
        return OptionValue.some(new String(Character.toChars(s.codePointAt(at))));
    }

    @Word(name = "string-index-of", category = Category.STRING,
            doc = "The code-point index of the first occurrence of the needle (second) in the text (first); none when it does not occur, 0 for an empty needle.")
    @Overload(sig = "string string -> option<int>")
    public static Object stringIndexOf(Ctx ctx, String s, String needle, Origin o) {
        ctx.charge(s.length() / 64);
        int at = Needle.of(ctx, needle, o).find(s, 0);
        return at < 0 ? OptionValue.NONE : OptionValue.some((long) s.codePointCount(0, at));
    }

    @Word(name = "string-contains", category = Category.STRING,
            doc = "Whether the needle (second) occurs in the text (first); an empty needle is in every string.")
    @Overload(sig = "string string -> bool")
    public static boolean stringContains(Ctx ctx, String s, String needle, Origin o) {
        ctx.charge(s.length() / 64);
        return Needle.of(ctx, needle, o).find(s, 0) >= 0;
    }

    @Word(name = "string-starts-with", category = Category.STRING,
            doc = "Whether the text (first) begins with the prefix (second), code point by code point; every string starts with \"\".")
    @Overload(sig = "string string -> bool")
    public static boolean stringStartsWith(Ctx ctx, String s, String prefix) {
        ctx.charge(Math.min(s.length(), prefix.length()) / 64);
        return s.startsWith(prefix) && boundary(s, prefix.length());
    }

    @Word(name = "string-ends-with", category = Category.STRING,
            doc = "Whether the text (first) ends with the suffix (second), code point by code point; every string ends with \"\".")
    @Overload(sig = "string string -> bool")
    public static boolean stringEndsWith(Ctx ctx, String s, String suffix) {
        ctx.charge(Math.min(s.length(), suffix.length()) / 64);
        return s.endsWith(suffix) && boundary(s, s.length() - suffix.length());
    }

    @Word(name = "string-split", aka = {"split", "string-tokenize"}, category = Category.STRING,
            doc = "The pieces of the text (first) between occurrences of a literal separator (second), empty pieces kept "
                    + "(\"a,,b\" gives [\"a\" \"\" \"b\"], \"\" gives [\"\"]); an empty separator splits into code points.")
    @Overload(sig = "string string -> list<string>")
    public static ListValue stringSplit(Ctx ctx, String s, String sep, Origin o) {
        if (sep.isEmpty()) return chars(ctx, s, "string-split", o);
        ctx.charge(s.length() / 64);
        Needle needle = Needle.of(ctx, sep, o);
        long pieces = 1;
        for (int at = needle.find(s, 0); at >= 0; at = needle.find(s, at + sep.length())) pieces++;
        Lists.reserve(ctx, pieces, "string-split", o);
        List<Object> out = new ArrayList<>((int) pieces);
        int from = 0;
        for (int at = needle.find(s, 0); at >= 0; at = needle.find(s, from)) {
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return ListValue.from(out);
    }

    @Word(name = "string-join", aka = {"join"}, category = Category.STRING,
            doc = "The strings of the list joined with the separator (last) between them; an empty list gives \"\".")
    @Overload(sig = "list<string> string -> string")
    public static String stringJoin(Ctx ctx, ListValue parts, String sep, Origin o) {
        long chars = 0;
        for (Object p : parts) chars += ((String) p).length();
        if (parts.size() > 1) chars += (long) (parts.size() - 1) * sep.length();
        reserve(ctx, chars, "string-join", o);
        ctx.charge(parts.size() + chars / 64);
        StringBuilder b = new StringBuilder((int) chars);
        boolean first = true;
        for (Object p : parts) {
            if (!first) b.append(sep);
            b.append((String) p);
            first = false;
        }
        return b.toString();
    }

    @Word(name = "string-trim", aka = {"trim", "strip"}, category = Category.STRING,
            doc = "The text without leading and trailing Unicode whitespace (spaces, tabs, line breaks, U+2003 …; the no-break space U+00A0 is not whitespace and is kept).")
    @Overload(sig = "string -> string")
    public static String stringTrim(Ctx ctx, String s) {
        ctx.charge(s.length() / 64);
        return s.strip();
    }

    @Word(name = "string-upcase", aka = {"upcase", "toupper", "string-upper"}, category = Category.STRING,
            doc = "The text in upper case by Unicode's locale-independent full case mapping, which may lengthen it (\"straße\" gives \"STRASSE\").")
    @Overload(sig = "string -> string")
    public static String stringUpcase(Ctx ctx, String s, Origin o) {
        return caseMapped(ctx, s, true, "string-upcase", o);
    }

    @Word(name = "string-downcase", aka = {"downcase", "tolower", "string-lower"}, category = Category.STRING,
            doc = "The text in lower case by Unicode's locale-independent full case mapping, which may lengthen it (\"ΣΟΦΟΣ\" gives \"σοφος\", with a final ς).")
    @Overload(sig = "string -> string")
    public static String stringDowncase(Ctx ctx, String s, Origin o) {
        return caseMapped(ctx, s, false, "string-downcase", o);
    }

    @Word(name = "string-replace", category = Category.STRING,
            doc = "The text (first) with every non-overlapping occurrence of a literal pattern (second), found left to right, replaced "
                    + "by the replacement (third); an empty pattern leaves the text unchanged.")
    @Overload(sig = "string string string -> string")
    public static String stringReplace(Ctx ctx, String s, String pattern, String replacement, Origin o) {
        if (pattern.isEmpty()) return s;
        ctx.charge(s.length() / 64);
        Needle needle = Needle.of(ctx, pattern, o);
        long count = 0;
        for (int at = needle.find(s, 0); at >= 0; at = needle.find(s, at + pattern.length())) count++;
        if (count == 0) return s;
        long chars = s.length() + count * (replacement.length() - (long) pattern.length());
        reserve(ctx, chars, "string-replace", o);
        ctx.charge(chars / 64);
        StringBuilder b = new StringBuilder((int) chars);
        int from = 0;
        for (int at = needle.find(s, 0); at >= 0; at = needle.find(s, from)) {
            b.append(s, from, at).append(replacement);
            from = at + pattern.length();
        }
        return b.append(s, from, s.length()).toString();
    }

    @Word(name = "string-chars", category = Category.STRING,
            doc = "The text's code points, each as a one-character string (\"\" gives []); an emoji is one code point, a combining mark is its own.")
    @Overload(sig = "string -> list<string>")
    public static ListValue stringChars(Ctx ctx, String s, Origin o) {
        return chars(ctx, s, "string-chars", o);
    }

    @Word(name = "string-compare", category = Category.STRING,
            doc = "-1, 0 or 1 as the first string sorts before, equal to or after the second, in code-point order (the order of < on strings).")
    @Overload(sig = "string string -> int")
    public static long stringCompare(Ctx ctx, String a, String b) {
        ctx.charge(Math.min(a.length(), b.length()) / 64);
        return Integer.signum(Values.compareStrings(a, b));
    }

    @Word(name = "string-to-float", category = Category.STRING,
            doc = "Parse a decimal float (whitespace around allowed): sign, digits, .digits, e/E exponent, or nan, inf, -inf as "
                    + "float-to-string writes them; none otherwise (\"NaN\", \".5\", hex, \"\") or beyond the float range.")
    @Overload(sig = "string -> option<float>")
    public static Object stringToFloat(Ctx ctx, String s) {
        ctx.charge(s.length() / 64);
        String t = s.strip();
        switch (t) {
            case "nan": return OptionValue.some(Double.NaN);
            case "inf": return OptionValue.some(Double.POSITIVE_INFINITY);
            case "-inf": return OptionValue.some(Double.NEGATIVE_INFINITY);
            default: break;
        }
        int n = t.length();
        int i = 0;
        if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) i++;
        int digits = i;
        i = skipDigits(t, i);
        if (i == digits) return OptionValue.NONE;
        if (i < n && t.charAt(i) == '.') {
            digits = ++i;
            i = skipDigits(t, i);
            if (i == digits) return OptionValue.NONE;
        }
        if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
            i++;
            if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) i++;
            digits = i;
            i = skipDigits(t, i);
            if (i == digits) return OptionValue.NONE;
        }
        if (i != n) return OptionValue.NONE;
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return OptionValue.NONE;
        }
        return Double.isInfinite(v) ? OptionValue.NONE : OptionValue.some(v);
    }

    @Word(name = "string-repeat", category = Category.STRING,
            doc = "The text repeated count times; a count of 0 or less gives \"\", and a result over the memory limit is E-LIMIT-005, refused before it is built.")
    @Overload(sig = "string int -> string")
    public static String stringRepeat(Ctx ctx, String s, long count, Origin o) {
        if (count <= 0 || s.isEmpty()) return "";
        long chars = count > Long.MAX_VALUE / s.length() ? Long.MAX_VALUE : count * s.length();
        reserve(ctx, chars, "string-repeat", o);
        ctx.charge(chars / 64);
        return s.repeat((int) count);
    }

    /** The longest string the JVM can hold, in UTF-16 units. */
    static final long MAX_CHARS = Integer.MAX_VALUE - 8;

    /**
     * Refuses a string of {@code chars} UTF-16 units (two bytes each) that would exceed the run's memory limit or the
     * longest string the JVM holds, before it is built (E-LIMIT-005). A negative count is an overflowed one.
     */
    static void reserve(Ctx ctx, long chars, String word, Origin o) {
        if (chars < 0 || chars > MAX_CHARS || chars > ctx.maxMemoryBytes() / 2) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a string of "
                    + (chars < 0 ? "more than " + Long.MAX_VALUE : Long.toString(chars)) + " chars, over the memory limit");
        }
    }

    private static long codePoints(String s) { return s.codePointCount(0, s.length()); }

    private static long clamp(long v, long n) { return v < 0 ? 0 : Math.min(v, n); }

    private static int skipDigits(String t, int i) {
        while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') i++;
        return i;
    }

    /** Whether UTF-16 index {@code i} of {@code s} is between two code points (not inside a surrogate pair). */
    private static boolean boundary(String s, int i) {
        return i <= 0 || i >= s.length() || !(Character.isHighSurrogate(s.charAt(i - 1)) && Character.isLowSurrogate(s.charAt(i)));
    }

    /**
     * A literal needle to find in texts, in time linear in the text whatever the needle: a short one through
     * {@link String#indexOf} (at most {@value #SHORT} chars compared per position), a longer one by Knuth–Morris–Pratt,
     * whose table (4 bytes a char, charged and checked against the memory limit) lets the scan never step back — a
     * naive search for {@code "aaa…ab"} in {@code "aaa…a"} is quadratic.
     */
    static final class Needle {
        /** The longest needle searched naively. */
        static final int SHORT = 64;

        private final String needle;
        private final int[] fail;

        private Needle(String needle, int[] fail) {
            this.needle = needle;
            this.fail = fail;
        }

        static Needle of(Ctx ctx, String needle, Origin o) {
            int m = needle.length();
            if (m <= SHORT) return new Needle(needle, null);
            if (4L * m > ctx.maxMemoryBytes()) {
                throw new FinchTrap(VmCode.MEMORY_LIMIT, o, "searching for a string of " + m + " chars needs a table of " + 4L * m
                        + " bytes, over the memory limit");
            }
            ctx.charge(m / 64);
            int[] fail = new int[m];
            for (int i = 1, k = 0; i < m; i++) {
                while (k > 0 && needle.charAt(i) != needle.charAt(k)) k = fail[k - 1];
                if (needle.charAt(i) == needle.charAt(k)) k++;
                fail[i] = k;
            }
            return new Needle(needle, fail);
        }

        /**
         * The UTF-16 index of the first occurrence in {@code s} at or after {@code from} that begins and ends between
         * code points (a lone surrogate never matches half of a pair), or -1.
         */
        int find(String s, int from) {
            if (fail == null) {
                for (int at = s.indexOf(needle, from); at >= 0; at = s.indexOf(needle, at + 1)) {
                    if (boundary(s, at) && boundary(s, at + needle.length())) return at;
                }
                return -1;
            }
            int m = needle.length();
            for (int i = Math.max(0, from), k = 0; i < s.length(); i++) {
                while (k > 0 && s.charAt(i) != needle.charAt(k)) k = fail[k - 1];
                if (s.charAt(i) == needle.charAt(k)) k++;
                if (k == m) {
                    int at = i - m + 1;
                    if (boundary(s, at) && boundary(s, i + 1)) return at;
                    k = fail[k - 1];
                }
            }
            return -1;
        }
    }

    private static ListValue chars(Ctx ctx, String s, String word, Origin o) {
        long n = codePoints(s);
        Lists.reserve(ctx, n, word, o);
        ctx.charge(n / 16);
        List<Object> out = new ArrayList<>((int) n);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int next = i + Character.charCount(cp);
            out.add(s.substring(i, next));
            i = next;
        }
        return ListValue.from(out);
    }

    /**
     * Full Unicode case mapping in {@link Locale#ROOT}. A mapping lengthens a string at most threefold; when even that
     * could pass the memory limit the exact length is measured first, in chunks cut between code points (a mapping's
     * length never depends on its context), and refused before the whole result is built.
     */
    private static String caseMapped(Ctx ctx, String s, boolean upper, String word, Origin o) {
        ctx.charge(s.length() / 64);
        if ((long) s.length() * 3 > Math.min(MAX_CHARS, ctx.maxMemoryBytes() / 2)) {
            long chars = 0;
            for (int from = 0; from < s.length(); ) {
                int to = Math.min(s.length(), from + 8192);
                if (!boundary(s, to)) to--;
                String chunk = s.substring(from, to);
                chars += (upper ? chunk.toUpperCase(Locale.ROOT) : chunk.toLowerCase(Locale.ROOT)).length();
                from = to;
            }
            reserve(ctx, chars, word, o);
        }
        return upper ? s.toUpperCase(Locale.ROOT) : s.toLowerCase(Locale.ROOT);
    }
}
