/**
 * Finch's values, beneath the engine: the runtime representation ({@code dev.finch.vm.value}) that the compiler, the
 * runtime, persistence, the word libraries and the hosts all share, and the embedding API's side of it ({@code
 * dev.finch.vm}: {@code Value} and its Java conversions, {@code Limits}, a run's output events and sinks).
 *
 * <p>Exported to everyone: the embedding API. The representation is internal and exported only to the named Finch
 * modules that build on it. The modules named but absent when this one is compiled (finch-providers, finch-cli,
 * finch-bench, finch-norman-test: automatic modules) are why {@code "module"} warnings are suppressed here.
 */
@SuppressWarnings("module")
module finch.values {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    requires transitive com.fasterxml.jackson.databind;
    requires io.vavr;
    exports dev.finch.vm;
    exports dev.finch.vm.value to finch.vm, finch.persist, finch.core, finch.lib, finch.host, finch.workbooks, finch.automation,
            finch.net, finch.providers, finch.cli, finch.bench, finch.norman.test;
}
