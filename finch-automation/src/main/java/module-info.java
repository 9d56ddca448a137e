/**
 * The desktop-automation words and their SPI ({@code AutomationHost}), with a binding over {@code java.awt.Robot}
 * (java.desktop is needed only when that binding is used): a {@link dev.finch.vm.word.WordLibrary} of their own.
 */
module finch.automation {
    requires transitive finch.host;
    requires static java.desktop;
    exports dev.finch.automation;
    // The word classes: the engine reads their declarations and its generated code calls them.
    exports dev.finch.automation.words to finch.vm, finch.core;
    provides dev.finch.vm.word.WordLibrary with dev.finch.automation.words.AutomationLibrary;
}
