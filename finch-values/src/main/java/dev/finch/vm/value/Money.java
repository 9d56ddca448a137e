package dev.finch.vm.value;

/** Exact money in micro-dollars, or unlimited (decisions D5). Written {@code $0.50}, {@code ∞}. */
public record Money(long micros, boolean unlimited) {
    public static final Money UNLIMITED = new Money(0, true);

    public static Money ofMicros(long micros) { return new Money(micros, false); }

    /**
     * Exactly {@code dollars}, such as {@code new BigDecimal("0.50")}.
     *
     * @throws ArithmeticException when {@code dollars} is finer than a micro-dollar or beyond what micro-dollars hold
     */
    public static Money ofDollars(java.math.BigDecimal dollars) {
        java.math.BigDecimal micros = dollars.movePointRight(6);
        if (micros.stripTrailingZeros().scale() > 0) throw new ArithmeticException("money is exact to the micro-dollar, not " + dollars);
        return ofMicros(micros.longValueExact());
    }

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
