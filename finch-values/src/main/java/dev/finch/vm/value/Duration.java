package dev.finch.vm.value;

/** An exact duration in milliseconds, or unlimited (decisions D5). Written {@code 40s}, {@code 1min}, {@code ∞}. */
public record Duration(long millis, boolean unlimited) {
    public static final Duration UNLIMITED = new Duration(0, true);

    public static Duration ofMillis(long millis) { return new Duration(millis, false); }

    /** µNorman's literal spelling in the largest unit that divides it exactly. */
    @Override public String toString() {
        if (unlimited) return "∞";
        if (millis != 0 && millis % 3_600_000 == 0) return millis / 3_600_000 + "h";
        if (millis != 0 && millis % 60_000 == 0) return millis / 60_000 + "min";
        if (millis % 1000 == 0) return millis / 1000 + "s";
        return millis + "ms";
    }
}
