package dev.finch.vm.runtime;

import java.util.List;

/** The saved frames of a suspended run. */
public interface Continuation {
    List<String> describe();
}
