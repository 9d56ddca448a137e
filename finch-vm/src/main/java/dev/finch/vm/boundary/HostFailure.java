package dev.finch.vm.boundary;

/** A host binding's structured failure: a code and a message for the program's author. */
public final class HostFailure extends Exception {
    private final HostCode code;

    public HostFailure(HostCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public HostCode code() { return code; }
}
