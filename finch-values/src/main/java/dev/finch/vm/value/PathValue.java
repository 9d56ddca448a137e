package dev.finch.vm.value;

import dev.finch.capabilities.ConcretePath;

/** A refined path: canonical, root-relative, immutable. Holding one grants nothing. */
public record PathValue(ConcretePath path) {
    @Override public String toString() { return path.toString(); }
}
