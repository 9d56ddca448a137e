/**
 * The engine: the compiler and interpreter, runtime values, limits, suspension and durable continuations, the word SPI
 * its libraries implement ({@code dev.finch.vm.word}) and the host boundary ({@code dev.finch.vm.boundary}). It holds no
 * word library and no host: those are services beside it ({@link dev.finch.vm.word.WordLibrary}).
 *
 * <p>Exported to everyone: the embedding API ({@code dev.finch.vm}: {@code Value}, {@code Vm}, options) and the host
 * boundary an embedder implements ({@code dev.finch.vm.boundary}). Every other package is internal and exported only to
 * the named Finch modules that need it: the runtime, the values and the word SPI to the word libraries beside the engine
 * and to the modules that build on them; the compiler and persistence to finch-core alone (and persistence to the host
 * words, whose streams persist as value forms). The modules named but absent when the engine is compiled
 * (finch-providers, finch-cli, finch-bench, finch-norman-test: automatic modules) are why {@code "module"} warnings are
 * suppressed here.
 */
@SuppressWarnings("module")
module finch.vm {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    requires transitive com.fasterxml.jackson.databind;
    requires org.objectweb.asm;
    requires io.vavr;
    exports dev.finch.vm;
    exports dev.finch.vm.boundary;
    exports dev.finch.vm.declare;
    exports dev.finch.vm.compile to finch.core;
    exports dev.finch.vm.engine to finch.core, finch.norman, finch.lib, finch.host, finch.providers, finch.bench;
    exports dev.finch.vm.persist to finch.core, finch.host;
    exports dev.finch.vm.runtime to finch.core, finch.lib, finch.host, finch.workbooks, finch.automation, finch.net,
            finch.providers, finch.bench;
    exports dev.finch.vm.value to finch.core, finch.lib, finch.host, finch.workbooks, finch.automation, finch.net,
            finch.providers, finch.cli, finch.bench, finch.norman.test;
    exports dev.finch.vm.word to finch.core, finch.lib, finch.host, finch.workbooks, finch.automation, finch.net,
            finch.cli, finch.bench;
    uses dev.finch.vm.word.WordLibrary;
}
