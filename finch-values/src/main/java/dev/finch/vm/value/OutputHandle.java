package dev.finch.vm.value;

/**
 * An opaque run-owned output handle ({@code resource<output>}, from {@code output-open}): only the run that opened it
 * can replace, advance or close it, and only until it is closed.
 */
public record OutputHandle(String owner, long id) {
    @Override public String toString() { return "output#" + id; }
}
