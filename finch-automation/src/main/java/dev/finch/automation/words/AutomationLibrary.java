package dev.finch.automation.words;

import dev.finch.vm.word.WordIndex;
import dev.finch.vm.word.WordLibrary;


/** The desktop-automation words, found by the engine as a service when this module is there. */
public final class AutomationLibrary implements WordLibrary {
    /** For the service loader. */
    public AutomationLibrary() { }

    @Override public String name() { return "automation"; }

    @Override public WordIndex index() { return AutomationIndex.INSTANCE; }
}
