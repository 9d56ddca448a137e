package dev.finch.lib;

import dev.finch.vm.word.WordIndex;
import dev.finch.vm.word.WordLibrary;


/** Finch's standard library of words, found by the engine as a service ({@code Library.core()}). */
public final class StandardLibrary implements WordLibrary {
    /** For the service loader. */
    public StandardLibrary() { }

    @Override public String name() { return "lib"; }

    @Override public WordIndex index() { return LibIndex.INSTANCE; }
}
