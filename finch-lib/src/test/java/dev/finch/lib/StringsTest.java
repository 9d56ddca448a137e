package dev.finch.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Values;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The string words at their limits, called directly: results over a small memory limit are refused before they are
 * built, work on big inputs is charged as steps, and no input (lone surrogates, extreme ints) throws a Java
 * exception. The ordinary answers are in the spec corpus (finch-core, strings.spec).
 */
class StringsTest {
    private static final Origin O = Origin.UNKNOWN;
    /** 64 KiB: strings of at most 32768 chars, lists of at most 4096 elements. */
    private static final long SMALL = 1 << 16;

    private static Ctx ctx(long memory) { return ctx(memory, Limits.DEFAULT.maxSteps()); }

    private static Ctx ctx(long memory, long steps) {
        return new Ctx(Limits.DEFAULT.withMaxMemoryBytes(memory).withMaxSteps(steps), OutputSink.NONE, new CancelToken(), Map.of());
    }

    private static void refused(VmCode code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(FinchTrap.class, t -> assertThat(t.code()).isEqualTo(code));
    }

    @Test void resultsOverTheMemoryLimitAreRefusedBeforeTheyAreBuilt() {
        Ctx c = ctx(SMALL);
        String big = "a".repeat(20_000);
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringAppend(c, big, big, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "ab", 20_000, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "ab", 4611686018427387904L, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "abc", Long.MAX_VALUE, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringReplace(c, big, "a", "aa", O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringJoin(c, ListValue.of(big, big), "", O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringJoin(c, ListValue.of("", "", ""), "x".repeat(20_000), O));
        // Lists: a slot (16 bytes) and the element's own size (an empty string 40) an element, so at most 1170 pieces.
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringChars(c, "a".repeat(5000), O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringSplit(c, "a".repeat(5000), "", O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringSplit(c, ",".repeat(5000), ",", O));
        assertThat(Strings.stringSplit(c, ",".repeat(1000), ",", O).size()).isEqualTo(1001);
        // Case mapping may lengthen a string up to threefold; the exact length is measured before building.
        assertThat(Strings.stringUpcase(c, "ß".repeat(16_000), O)).hasSize(32_000);
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringUpcase(c, "ß".repeat(17_000), O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringUpcase(c, "\u0390".repeat(12_000), O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringDowncase(c, "\u0130".repeat(17_000), O));
        assertThat(Strings.stringDowncase(c, "A".repeat(30_000), O)).isEqualTo("a".repeat(30_000));
        // Astral characters straddling the measuring chunks are measured whole.
        assertThat(Strings.stringUpcase(c, "😀".repeat(15_000), O)).isEqualTo("😀".repeat(15_000));
    }

    @Test void noStringLongerThanTheJvmCanHoldIsAttemptedWhateverTheLimit() {
        Ctx c = ctx(Long.MAX_VALUE);
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "ab", Integer.MAX_VALUE, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "a", 1L << 31, O));
        refused(VmCode.MEMORY_LIMIT, () -> Strings.stringRepeat(c, "ab", 4611686018427387904L, O));
    }

    @Test void workOnBigInputsIsChargedAsSteps() {
        String big = "a".repeat(1_000_000);
        refused(VmCode.STEP_LIMIT, () -> Strings.stringRepeat(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), "a", 1_000_000, O));
        refused(VmCode.STEP_LIMIT, () -> Strings.stringContains(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), big, "b", O));
        refused(VmCode.STEP_LIMIT, () -> Strings.stringReplace(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), big, "a", "b", O));
        refused(VmCode.STEP_LIMIT, () -> Strings.stringChars(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), big, O));
        refused(VmCode.STEP_LIMIT, () -> Strings.stringUpcase(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), big, O));
        refused(VmCode.STEP_LIMIT, () -> Strings.stringToFloat(ctx(Limits.DEFAULT.maxMemoryBytes(), 1000), big));
        assertThat(Strings.stringContains(ctx(Limits.DEFAULT.maxMemoryBytes(), 1_000_000), big, "b", O)).isFalse();
    }

    @Test void loneSurrogatesNeverMatchHalfAPair() {
        Ctx c = ctx(SMALL);
        String pair = "😀";
        String high = "\uD83D";
        String low = "\uDE00";
        assertThat(Strings.stringContains(c, "x" + pair, low, O)).isFalse();
        assertThat(Strings.stringContains(c, pair + "x", high, O)).isFalse();
        assertThat(Strings.stringContains(c, high + "x", high, O)).isTrue();
        assertThat(Strings.stringIndexOf(c, pair + low, low, O)).isEqualTo(OptionValue.some(1L));
        assertThat(Strings.stringSplit(c, pair, low, O)).isEqualTo(ListValue.of(pair));
        assertThat(Strings.stringReplace(c, pair, high, "x", O)).isEqualTo(pair);
        assertThat(Strings.stringChars(c, high + "a" + low, O)).isEqualTo(ListValue.of(high, "a", low));
        assertThat(Strings.stringSlice(c, low + pair + high, 1, 2)).isEqualTo(pair);
    }

    /** A few thousand random inputs over an alphabet of awkward characters: answers agree, nothing throws. */
    @Test void randomInputsKeepTheInvariantsAndNeverThrow() {
        String[] alphabet = {"a", "b", ",", " ", "é", "e\u0301", "😀", "\uD83D", "\uDE00", "ß", "İ", "Σ", "\u00A0", "\u2003", "\n", ""};
        long[] ints = {0, 1, 2, 3, -1, 7, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 32};
        Random r = new Random(42);
        Ctx c = ctx(SMALL * 16);
        for (int i = 0; i < 3000; i++) {
            String s = random(r, alphabet, 12);
            String t = random(r, alphabet, 3);
            String u = random(r, alphabet, 3);
            long m = ints[r.nextInt(ints.length)];
            long n = ints[r.nextInt(ints.length)];
            long length = Strings.stringLength(c, s);
            String what = "s=" + escape(s) + " t=" + escape(t) + " m=" + m + " n=" + n;

            ListValue cps = Strings.stringChars(c, s, O);
            assertThat((long) cps.size()).as(what).isEqualTo(length);
            assertThat(Strings.stringJoin(c, cps, "", O)).as(what).isEqualTo(s);
            assertThat(Strings.stringSplit(c, s, "", O)).as(what).isEqualTo(cps);
            assertThat(Strings.stringSlice(c, s, 0, length)).as(what).isEqualTo(s);
            String slice = Strings.stringSlice(c, s, m, n);
            assertThat(Strings.stringLength(c, slice)).as(what).isEqualTo(Math.max(0, clamp(n, length) - clamp(m, length)));
            Object at = Strings.stringCharAt(c, s, m);
            assertThat(((OptionValue) at).isSome()).as(what).isEqualTo(m >= 0 && m < length);
            if (((OptionValue) at).isSome()) assertThat(((OptionValue) at).value()).as(what).isEqualTo(cps.get((int) m));

            OptionValue index = (OptionValue) Strings.stringIndexOf(c, s, t, O);
            assertThat(index.isSome()).as(what).isEqualTo(Strings.stringContains(c, s, t, O));
            if (index.isSome()) {
                long k = (Long) index.value();
                assertThat(Strings.stringStartsWith(c, Strings.stringSlice(c, s, k, length), t)).as(what).isTrue();
            }
            if (Strings.stringStartsWith(c, s, t) || Strings.stringEndsWith(c, s, t)) assertThat(Strings.stringContains(c, s, t, O)).as(what).isTrue();
            if (!t.isEmpty()) {
                ListValue pieces = Strings.stringSplit(c, s, t, O);
                assertThat(Strings.stringJoin(c, pieces, t, O)).as(what).isEqualTo(s);
                assertThat(Strings.stringReplace(c, s, t, t, O)).as(what).isEqualTo(s);
                String replaced = Strings.stringReplace(c, s, t, u, O);
                assertThat(replaced.length()).as(what).isEqualTo(s.length() + (pieces.size() - 1) * (u.length() - t.length()));
            }
            assertThat(Strings.stringReplace(c, s, "", u, O)).as(what).isEqualTo(s);
            long cmp = Strings.stringCompare(c, s, t);
            assertThat(cmp).as(what).isIn(-1L, 0L, 1L).isEqualTo(-Strings.stringCompare(c, t, s)).isEqualTo((long) Integer.signum(Values.compareStrings(s, t)));
            assertThat(Strings.stringUpcase(c, s, O)).as(what).isEqualTo(s.toUpperCase(java.util.Locale.ROOT));
            assertThat(Strings.stringDowncase(c, s, O)).as(what).isEqualTo(s.toLowerCase(java.util.Locale.ROOT));
            assertThat(Strings.stringTrim(c, s)).as(what).isEqualTo(s.strip());
            Strings.stringToFloat(c, s);
            Strings.stringToInt(c, s);
            try {
                String repeated = Strings.stringRepeat(c, t, n, O);
                assertThat(repeated.length()).as(what).isEqualTo(n <= 0 ? 0 : t.length() * (int) n);
            } catch (FinchTrap trap) {
                assertThat(trap.code()).as(what).isEqualTo(VmCode.MEMORY_LIMIT);
            }
        }
    }

    @Test void floatSpellingsRoundTrip() {
        Ctx c = ctx(SMALL);
        double[] values = {0.0, -0.0, 0.1, 1.0 / 3, 1e21, 1e-7, 4.9e-324, Double.MAX_VALUE, -Double.MIN_NORMAL, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 123456789.125};
        for (double v : values) {
            Object back = Strings.stringToFloat(c, Strings.floatToString(v));
            assertThat(back).as(Strings.floatToString(v)).isInstanceOf(OptionValue.class);
            assertThat(Values.equal(back, OptionValue.some(v))).as(Strings.floatToString(v)).isTrue();
            assertThat(Double.doubleToRawLongBits((Double) ((OptionValue) back).value())).isEqualTo(Double.doubleToRawLongBits(v == v ? v : Double.NaN));
        }
        for (String refused : new String[] {"NaN", "Infinity", "-Infinity", "0x1p3", "1f", "1d", "1_000", "", " ", ".5", "5.", "1e",
                "1e+", "+", "-", "--1", "1.2.3", "١٢", "1 2", "NAN", "+nan", "+inf", "-nan", "1e309", "-1e309"}) {
            assertThat(Strings.stringToFloat(c, refused)).as(refused).isEqualTo(OptionValue.NONE);
        }
        assertThat(Strings.stringToFloat(c, " nan\t")).isEqualTo(OptionValue.some(Double.NaN));
        assertThat(Strings.stringToFloat(c, "1e99999999999999999999")).isEqualTo(OptionValue.NONE);
        assertThat(Strings.stringToFloat(c, "1e-99999999999999999999")).isEqualTo(OptionValue.some(0.0));
        assertThat(Strings.stringToFloat(c, "0001.5000")).isEqualTo(OptionValue.some(1.5));
    }

    private static long clamp(long v, long n) { return v < 0 ? 0 : Math.min(v, n); }

    private static String random(Random r, String[] alphabet, int max) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(max + 1);
        for (int i = 0; i < n; i++) b.append(alphabet[r.nextInt(alphabet.length)]);
        return b.toString();
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char ch : s.toCharArray()) b.append(ch < 128 && ch >= 32 ? String.valueOf(ch) : String.format("\\u%04X", (int) ch));
        return b.toString();
    }

    @Test void aLongNeedleIsFoundLikeTheNaiveSearchButInLinearTime() {
        // Knuth–Morris–Pratt for needles over 64 chars, with the same code-point boundaries as the naive search.
        String[] alphabet = {"a", "a", "b", "😀", "\uD83D", "\uDE00"};
        Random r = new Random(3);
        Ctx c = ctx(Limits.DEFAULT.maxMemoryBytes(), Long.MAX_VALUE);
        for (int i = 0; i < 400; i++) {
            String unit = random(r, alphabet, 4);
            String needle = unit.repeat(70 / Math.max(1, unit.length()) + 1) + random(r, alphabet, 3);
            String s = random(r, alphabet, 20) + needle.repeat(r.nextInt(3)) + random(r, alphabet, 40) + (r.nextBoolean() ? needle : "");
            Strings.Needle n = Strings.Needle.of(c, needle, O);
            for (int from = 0; from <= s.length(); from += 7) {
                assertThat(n.find(s, from)).as("needle=%s s=%s from=%d", escape(needle), escape(s), from).isEqualTo(naive(s, needle, from));
            }
        }
        String text = "a".repeat(1_000_000);
        assertThat(Strings.stringContains(c, text, "a".repeat(500_000) + "b", O)).isFalse();
        assertThat(Strings.stringIndexOf(c, text + "b", "a".repeat(500_000) + "b", O)).isEqualTo(OptionValue.some(500_000L));
    }

    private static int naive(String s, String needle, int from) {
        for (int at = s.indexOf(needle, from); at >= 0; at = s.indexOf(needle, at + 1)) {
            boolean starts = at == 0 || at >= s.length() || !(Character.isHighSurrogate(s.charAt(at - 1)) && Character.isLowSurrogate(s.charAt(at)));
            int end = at + needle.length();
            boolean ends = end <= 0 || end >= s.length() || !(Character.isHighSurrogate(s.charAt(end - 1)) && Character.isLowSurrogate(s.charAt(end)));
            if (starts && ends) return at;
        }
        return -1;
    }
}
