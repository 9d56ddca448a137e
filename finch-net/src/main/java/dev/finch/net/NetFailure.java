package dev.finch.net;

import java.util.Objects;

/** A failed or refused HTTP exchange: a {@link NetCode} and a message in Finch's words (never a library's). */
public final class NetFailure extends Exception {
    private final NetCode code;

    public NetFailure(NetCode code, String message) {
        super(message, null, false, false);
        this.code = Objects.requireNonNull(code, "code");
    }

    public NetCode code() { return code; }
}
