package dev.finch.vm.value;

/** Exact money in micro-dollars, or unlimited (decisions D5). Written {@code $0.50}, {@code ∞}. */
public record Money(long micros, boolean unlimited) {
    public static final Money UNLIMITED = new Money(0, true);

    public static Money ofMicros(long micros) { return new Money(micros, false); }

    /** µNorman's literal spelling: at least two decimals, at most six, trailing zeros trimmed. */
    @Override public String toString() {
        if (unlimited) return "∞";
        long abs = Math.abs(micros);
        String frac = String.format("%06d", abs % 1_000_000);
        int end = frac.length();
        while (end > 2 && frac.charAt(end - 1) == '0') end--;
        return (micros < 0 ? "-$" : "$") + (abs / 1_000_000) + "." + frac.substring(0, end);
    }
}
