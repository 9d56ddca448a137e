package dev.finch;

/** What tests outside this package may observe of a Finch's VM. */
public final class VmProbe {
    private VmProbe() { }

    /** How many runs the Finch's VM handed to a worker thread so far. */
    public static long handOffs(Finch finch) { return finch.vm().handOffs(); }
}
