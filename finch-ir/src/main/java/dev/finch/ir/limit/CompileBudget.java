package dev.finch.ir.limit;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import java.util.function.BooleanSupplier;

/**
 * One submission's meter for the compile phases: its {@link CompileLimits}, its deadline and its cancellation. A phase
 * checks a bound ({@link #source}, {@link #tokens}, {@link #nesting}, {@link #expansion}, {@link #typeSize}) or
 * charges work as it goes ({@link #charge}); crossing one throws a {@link DiagnosticException} with the matching
 * {@link LimitCode} and the phase that crossed it, which the phase's boundary returns as a diagnostic like any other.
 * The deadline and cancellation are polled as work is charged, so a phase never outlives its submission.
 *
 * <p>Not thread-safe: one submission's phases run one after another on one thread.
 */
public final class CompileBudget {
    /** How often (in charged units) the clock and the cancellation are read. */
    private static final long POLL = 4096;

    private final CompileLimits limits;
    private final long deadline;
    private final BooleanSupplier cancelled;
    private long work;
    private long nextPoll = POLL;

    private CompileBudget(CompileLimits limits, long deadlineNanos, BooleanSupplier cancelled) {
        this.limits = java.util.Objects.requireNonNull(limits, "limits");
        this.deadline = deadlineNanos;
        this.cancelled = java.util.Objects.requireNonNull(cancelled, "cancelled");
    }

    /**
     * A budget of {@code limits} that ends at {@code deadlineNanos} ({@link System#nanoTime()}; {@link Long#MAX_VALUE}
     * for none) or when {@code cancelled} says so.
     */
    public static CompileBudget of(CompileLimits limits, long deadlineNanos, BooleanSupplier cancelled) {
        return new CompileBudget(limits, deadlineNanos, cancelled);
    }

    /** A fresh budget of the default limits with no deadline (tools and tests that compile outside a session). */
    public static CompileBudget standard() { return new CompileBudget(CompileLimits.DEFAULT, Long.MAX_VALUE, NEVER_CANCELLED); }

    private static final BooleanSupplier NEVER_CANCELLED = new NeverCancelled();

    /** A budget that nothing cancels. A class, not a lambda: every fresh JVM's first submission makes a standard budget. */
    private static final class NeverCancelled implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() { return false; }
    }

    public CompileLimits limits() { return limits; }

    /** The work charged so far. */
    public long work() { return work; }

    /** Refuses a text longer than the source limit. */
    public void source(String text, Origin at) {
        if (text.length() > limits.maxSourceChars()) {
            throw refuse(LimitCode.SOURCE_SIZE, Phase.PARSE, at, "the source has " + text.length() + " characters; the limit is " + limits.maxSourceChars(),
                    Integer.toString(limits.maxSourceChars()), Integer.toString(text.length()));
        }
    }

    /** Refuses a token count over the limit. */
    public void tokens(long count, Origin at) {
        if (count > limits.maxTokens()) {
            throw refuse(LimitCode.TOKENS, Phase.PARSE, at, "the source has more than " + limits.maxTokens() + " tokens",
                    Integer.toString(limits.maxTokens()), Long.toString(count));
        }
    }

    /** Refuses a nesting deeper than the limit, found by {@code phase}. */
    public void nesting(Phase phase, int depth, Origin at) {
        if (depth > limits.maxNesting()) {
            throw refuse(LimitCode.NESTING, phase, at, "this nests " + depth + " deep; the limit is " + limits.maxNesting(),
                    Integer.toString(limits.maxNesting()), Integer.toString(depth));
        }
    }

    /** Refuses a macro expansion that has produced more than the limit's nodes. */
    public void expansion(long nodes, Origin at) {
        if (nodes > limits.maxExpansionNodes()) {
            throw refuse(LimitCode.EXPANSION, Phase.EXPAND, at, "macro expansion produced more than " + limits.maxExpansionNodes() + " nodes",
                    Long.toString(limits.maxExpansionNodes()), Long.toString(nodes));
        }
    }

    /** Refuses a type of more than the limit's nodes, written or inferred by {@code phase}. */
    public void typeSize(Phase phase, long size, Origin at) {
        if (size > limits.maxTypeSize()) {
            throw refuse(LimitCode.TYPE_SIZE, phase, at, "a type here has more than " + limits.maxTypeSize() + " parts",
                    Integer.toString(limits.maxTypeSize()), Long.toString(size));
        }
    }

    /**
     * Charges {@code units} of {@code phase}'s work; refuses when the total passes the work limit, and, every few
     * thousand units, when the deadline has passed or the submission was cancelled.
     */
    public void charge(Phase phase, long units, Origin at) {
        work += units;
        if (work > limits.maxWork()) {
            throw refuse(LimitCode.WORK, phase, at, "checking this submission took more than " + limits.maxWork() + " units of work",
                    Long.toString(limits.maxWork()), Long.toString(work));
        }
        if (work >= nextPoll) {
            nextPoll = work + POLL;
            poll(phase, at);
        }
    }

    /** Refuses when the deadline has passed or the submission was cancelled (cheap enough for a phase boundary). */
    public void poll(Phase phase, Origin at) {
        if (cancelled.getAsBoolean()) throw refuse(LimitCode.CANCELLED, phase, at, "cancelled while compiling; nothing ran", null, null);
        if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) throw refuse(LimitCode.DEADLINE, phase, at, "the submission's deadline passed while it was compiled", null, null);
    }

    private static DiagnosticException refuse(LimitCode code, Phase phase, Origin at, String message, String expected, String found) {
        return new DiagnosticException(new Diagnostic(phase, code.code(), message, at, expected, found));
    }
}
