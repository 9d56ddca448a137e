/** Finch's standard library of words, a {@link dev.finch.vm.word.WordLibrary} the engine finds as a service. */
module finch.lib {
    requires finch.vm;
    exports dev.finch.lib;
    provides dev.finch.vm.word.WordLibrary with dev.finch.lib.StandardLibrary;
}
