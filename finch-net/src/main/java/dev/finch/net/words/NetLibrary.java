package dev.finch.net.words;

import dev.finch.vm.word.WordIndex;
import dev.finch.vm.word.WordLibrary;

/** The HTTP words, found by the engine as a service when this module is there. */
public final class NetLibrary implements WordLibrary {
    /** For the service loader. */
    public NetLibrary() { }

    @Override public String name() { return "net"; }

    @Override public WordIndex index() { return NetIndex.INSTANCE; }
}
