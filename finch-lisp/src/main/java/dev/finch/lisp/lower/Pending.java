package dev.finch.lisp.lower;

/**
 * A typing rule that needs more information than is known at the point of use (which overload of {@code +}, which
 * record a {@code record-get} reads): retried as inference proceeds, forced at the end of its group.
 */
interface Pending {
    /** Tries to resolve; with {@code force}, must resolve (defaulting) or throw a diagnostic. True when resolved. */
    boolean attempt(boolean force);
}
