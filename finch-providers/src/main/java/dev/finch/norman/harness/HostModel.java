package dev.finch.norman.harness;

import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The host's terms for one model it serves ({@link ModelWorld.Builder#model}): what a million input and a million
 * output tokens cost, as exact money, and the most output tokens one ask may reserve. These, not the program's
 * grant, are what a world over a real provider reserves and charges: a grant may narrow the ceiling, never lower a
 * price. Under a script there is no host, and the grant's stated terms play this part ({@link #ofGrant}).
 *
 * <p>All arithmetic on these terms is exact: {@link #cost} refuses ({@code ArithmeticException}) rather than wrap,
 * and rounds the total of one ask up to the micro-dollar, so a price of $0.25 per million tokens is charged exactly
 * over many tokens and never as nothing.
 *
 * @param inPerMillion    the price of a million input tokens (not negative, not unlimited)
 * @param outPerMillion   the price of a million output tokens (not negative, not unlimited)
 * @param maxOutputTokens the most output tokens an ask may reserve and the provider is asked for (at least 1)
 */
public record HostModel(Money inPerMillion, Money outPerMillion, long maxOutputTokens) {
    private static final long MILLION = 1_000_000;

    /** @throws IllegalArgumentException when a price is unlimited or negative, or the ceiling is below 1 */
    public HostModel {
        price("input", inPerMillion);
        price("output", outPerMillion);
        if (maxOutputTokens < 1) throw new IllegalArgumentException("a model's output ceiling is at least 1 token, not " + maxOutputTokens);
    }

    private static void price(String what, Money m) {
        Objects.requireNonNull(m, what + " price");
        if (m.unlimited()) throw new IllegalArgumentException("the " + what + " price of a model is an amount, not unlimited");
        if (m.micros() < 0) throw new IllegalArgumentException("the " + what + " price of a model cannot be negative: " + m);
    }

    /**
     * Prices in dollars per million tokens, as providers list them: {@code perMillionTokens(new BigDecimal("3"),
     * new BigDecimal("15"), 8192)} is $3 in and $15 out per million tokens, at most 8192 output tokens an ask.
     *
     * @throws IllegalArgumentException when a price is negative, finer than a micro-dollar or past what micro-dollars
     *                                  count in a long, or the ceiling is below 1
     */
    public static HostModel perMillionTokens(BigDecimal inDollars, BigDecimal outDollars, long maxOutputTokens) {
        return new HostModel(dollars("input", inDollars), dollars("output", outDollars), maxOutputTokens);
    }

    /**
     * Prices per token: {@code perToken(Money.ofMicros(3), Money.ofMicros(15), 4096)} is 3 and 15 micro-dollars a
     * token, the same as $3 and $15 per million.
     *
     * @throws IllegalArgumentException when a price is negative or unlimited, a million tokens of it do not fit in
     *                                  a long of micro-dollars, or the ceiling is below 1
     */
    public static HostModel perToken(Money in, Money out, long maxOutputTokens) {
        price("input", in);
        price("output", out);
        try {
            return new HostModel(Money.ofMicros(Math.multiplyExact(in.micros(), MILLION)), Money.ofMicros(Math.multiplyExact(out.micros(), MILLION)),
                    maxOutputTokens);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("a million tokens at " + in + " and " + out + " a token do not fit in micro-dollars");
        }
    }

    /**
     * A grant's stated prices (micro-dollars per million tokens, exact: {@code [in 0.25]} is 250000) and ceiling as the
     * terms of a script's world, where the program's grant is the only price list.
     */
    static HostModel ofGrant(long inPerMillion, long outPerMillion, long ceiling) {
        return new HostModel(Money.ofMicros(inPerMillion), Money.ofMicros(outPerMillion), ceiling);
    }

    private static Money dollars(String what, BigDecimal d) {
        Objects.requireNonNull(d, what + " price");
        try {
            return Money.ofDollars(d);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the " + what + " price of a model is exact to the micro-dollar and fits in micro-dollars, not $"
                    + d.toPlainString());
        }
    }

    /** True when a stated price per million input tokens is less than this model's (a grant may not state less). */
    boolean belowIn(long perMillion) { return perMillion < inPerMillion.micros(); }

    /** True when a stated price per million output tokens is less than this model's. */
    boolean belowOut(long perMillion) { return perMillion < outPerMillion.micros(); }

    /** {@code a / b} rounded up, for {@code a >= 0} and {@code b > 0} (Java 17 has no {@code Math.ceilDiv}). */
    private static long ceilDiv(long a, long b) { return a / b + (a % b == 0 ? 0 : 1); }

    /**
     * What {@code in} input and {@code out} output tokens cost at these prices, in micro-dollars, rounded up: exact,
     * or an {@code ArithmeticException} when the amount does not fit in a long (never a wrapped, negative or
     * rounded-away charge).
     *
     * @throws IllegalArgumentException when a count is negative
     */
    public long cost(long in, long out) {
        if (in < 0 || out < 0) throw new IllegalArgumentException("token counts cannot be negative: " + in + ", " + out);
        long pi = inPerMillion.micros(), po = outPerMillion.micros();
        // price = q·10^6 + r: the whole micro-dollars a token exactly, then the fractions of all tokens together, rounded up once.
        long whole = Math.addExact(Math.multiplyExact(in, pi / MILLION), Math.multiplyExact(out, po / MILLION));
        long parts = Math.addExact(Math.multiplyExact(in, pi % MILLION), Math.multiplyExact(out, po % MILLION));
        return Math.addExact(whole, ceilDiv(parts, MILLION));
    }
}
