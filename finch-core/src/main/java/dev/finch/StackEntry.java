package dev.finch;

/** One value of the persistent stack as an outcome reports it: its compact type and its D4 display. */
public record StackEntry(String type, String display) {
    public StackEntry {
        java.util.Objects.requireNonNull(type, "type");
        java.util.Objects.requireNonNull(display, "display");
    }
}
