package dev.finch.store;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import java.util.Objects;

/**
 * Why a store operation did not happen, as a {@link StoreCode}: the message is Finch's own sentence (never a driver's),
 * and the original failure, if any, is the {@linkplain #getCause() cause} — for the host's logs, not for a program or a
 * model.
 */
public final class StoreException extends RuntimeException {
    private final StoreCode code;

    public StoreException(StoreCode code, String message) { this(code, message, null); }

    public StoreException(StoreCode code, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause, false, false);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** The stable code. */
    public StoreCode code() { return code; }

    /** This failure as a diagnostic of phase {@code host}, at {@code <store>}. */
    public Diagnostic diagnostic() { return code.at(Origin.of("<store>", 0, 0), getMessage()); }

    @Override public String toString() { return code.code() + ": " + getMessage(); }
}
