/** Finch's standard library of words, a {@link dev.finch.vm.word.WordLibrary} the engine finds as a service. */
module finch.lib {
    requires finch.vm;
    // The engine calls the words' methods from the code it generates (in its own module).
    exports dev.finch.lib to finch.vm;
    provides dev.finch.vm.word.WordLibrary with dev.finch.lib.StandardLibrary;
}
