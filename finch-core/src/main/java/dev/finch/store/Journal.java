package dev.finch.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The effect journal that outlives a process: each awaited effect is {@linkplain #record recorded} before it is
 * dispatched and {@linkplain #settle settled} with its receipt after. (execution id, sequence) is the key — the
 * contract's idempotency key — and both steps are an insert or an update that exactly one caller wins, across every
 * process that shares the store. So before dispatching request N of execution E, a VM asks the journal
 * ({@link #record} answers {@link Recording.Recorded} only to the one caller that may dispatch it), and a process that
 * restores an image finds an effect recorded but never settled ({@link #pending}): the crash window between the two
 * steps, which it reports instead of performing the effect a second time. An effect with a receipt is never performed
 * again: its receipt (an acknowledged result's encoding) is what a later run is given.
 */
public interface Journal {
    /**
     * An awaited effect as recorded before dispatch.
     *
     * @param requirement     the request's concrete capability requirement, canonical ({@code fs.write(${workspace}/a.txt)})
     * @param operation       the operation ({@code file-write})
     * @param argumentsDigest a digest of the arguments' encoding ({@link #digest}): a replay with other arguments under
     *                        the same key is a {@link Recording.Conflict}, not the same effect
     */
    record Intent(String executionId, long sequence, String requirement, String operation, String argumentsDigest) {
        public Intent {
            StoreChecks.id("an execution id", executionId);
            StoreChecks.positive("a request's sequence", sequence);
            Objects.requireNonNull(requirement, "requirement");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(argumentsDigest, "argumentsDigest");
        }
    }

    /** The SHA-256 of {@code encoding}'s UTF-8 bytes, in lowercase hex: the usual {@link Intent#argumentsDigest()}. */
    static String digest(String encoding) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(encoding.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** How an effect ended, as its receipt says. */
    sealed interface Receipt permits Receipt.Acknowledged, Receipt.Failed, Receipt.Denied, Receipt.Cancelled {
        /** The receipt kinds (for an exhaustive {@code switch}). */
        enum Kind { ACKNOWLEDGED, FAILED, DENIED, CANCELLED }

        Kind kind();

        /** Dispatched, and it answered; {@code result} is the encoding of its value (a session image's value encoding). */
        record Acknowledged(String result) implements Receipt {
            public Acknowledged { Objects.requireNonNull(result, "result"); }

            @Override public Kind kind() { return Kind.ACKNOWLEDGED; }
        }

        /** Dispatched, and it failed with a diagnostic {@code code} and message (Finch's words, never a Java message). */
        record Failed(String code, String message) implements Receipt {
            public Failed {
                Objects.requireNonNull(code, "code");
                Objects.requireNonNull(message, "message");
            }

            @Override public Kind kind() { return Kind.FAILED; }
        }

        /** Denied before dispatch; {@code reason} may be null. */
        record Denied(String reason) implements Receipt {
            @Override public Kind kind() { return Kind.DENIED; }
        }

        /** Cancelled before dispatch; {@code reason} may be null. */
        record Cancelled(String reason) implements Receipt {
            @Override public Kind kind() { return Kind.CANCELLED; }
        }
    }

    /** What the journal knows of one request. */
    sealed interface Status permits Status.Unrecorded, Status.Pending, Status.Settled {
        /** The status kinds (for an exhaustive {@code switch}). */
        enum Kind { UNRECORDED, PENDING, SETTLED }

        Kind kind();

        /** Never recorded: it may be recorded, then dispatched. */
        record Unrecorded(String executionId, long sequence) implements Status {
            @Override public Kind kind() { return Kind.UNRECORDED; }
        }

        /**
         * Recorded and not settled: its dispatch is in progress elsewhere, or its process stopped between the two steps
         * (the crash window) — whether it happened is unknown, so it must not be dispatched again.
         */
        record Pending(Intent intent, Instant recordedAt) implements Status {
            public Pending {
                Objects.requireNonNull(intent, "intent");
                Objects.requireNonNull(recordedAt, "recordedAt");
            }

            @Override public Kind kind() { return Kind.PENDING; }
        }

        /** Recorded and settled: {@code receipt} says how it ended; it is never dispatched again. */
        record Settled(Intent intent, Instant recordedAt, Receipt receipt, Instant settledAt) implements Status {
            public Settled {
                Objects.requireNonNull(intent, "intent");
                Objects.requireNonNull(recordedAt, "recordedAt");
                Objects.requireNonNull(receipt, "receipt");
                Objects.requireNonNull(settledAt, "settledAt");
            }

            @Override public Kind kind() { return Kind.SETTLED; }
        }
    }

    /** What {@link #record} did. */
    sealed interface Recording permits Recording.Recorded, Recording.Duplicate, Recording.Conflict {
        /** The recording kinds (for an exhaustive {@code switch}). */
        enum Kind { RECORDED, DUPLICATE, CONFLICT }

        Kind kind();

        /** Recorded now, by this caller alone: it may dispatch the effect, then settle it. */
        record Recorded(Intent intent, Instant recordedAt) implements Recording {
            @Override public Kind kind() { return Kind.RECORDED; }
        }

        /** The same effect was recorded before ({@code status} is pending or settled): do not dispatch it. */
        record Duplicate(Status status) implements Recording {
            @Override public Kind kind() { return Kind.DUPLICATE; }
        }

        /**
         * This key was recorded for another effect (another requirement, operation or arguments): {@code status} is
         * that one's. Nothing was written; the run is not the one that made the key.
         */
        record Conflict(Status status) implements Recording {
            @Override public Kind kind() { return Kind.CONFLICT; }
        }
    }

    /**
     * Records {@code intent} before its dispatch: {@link Recording.Recorded} for exactly one caller among every process
     * sharing the store; every other gets what was recorded.
     */
    Recording record(Intent intent);

    /**
     * Settles request {@code sequence} of {@code executionId} with {@code receipt}: true when this receipt was stored,
     * false when the request already had one (the first stands). {@code E-STORE-005} when it was never recorded.
     */
    boolean settle(String executionId, long sequence, Receipt receipt);

    /** What happened to request {@code sequence} of {@code executionId}: the question to ask before dispatching it. */
    Status status(String executionId, long sequence);

    /**
     * The recorded requests of {@code executionId} after {@code afterSequence} (0: from the first), in sequence order,
     * at most {@code limit} of them (no more than {@link StoreLimits#maxListing()}); each pending or settled.
     */
    List<Status> entries(String executionId, long afterSequence, int limit);

    /**
     * The requests of {@code executionId} recorded and never settled (at most {@link StoreLimits#maxListing()}, in
     * sequence order): what a process that restores the execution must not dispatch again, and must report.
     */
    List<Status.Pending> pending(String executionId);

    /**
     * Forgets the journal of {@code executionId} — once no image of it can be continued any more (it completed, failed
     * or was cancelled, and its claims stand); how many entries were removed.
     */
    int forget(String executionId);
}
