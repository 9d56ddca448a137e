package dev.finch.vm.value;

/** An opaque run-owned stream handle; only the run that opened it can read it. */
public record StreamValue(String owner, long id, String kind) {
    @Override public String toString() { return kind + "#" + id; }
}
