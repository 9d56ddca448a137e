/**
 * The engine: the compiler and interpreter, the runtime (limits, concurrent steps, CPU tasks, suspension), the word SPI
 * its libraries implement ({@code dev.finch.vm.word}, with the annotations of {@code dev.finch.vm.declare}) and the host
 * boundary ({@code dev.finch.vm.boundary}). Its values are finch-values' (beneath it; read transitively), durable forms
 * are finch-persist's (beside it), and it holds no word library and no host: those are services beside it ({@link
 * dev.finch.vm.word.WordLibrary}).
 *
 * <p>Exported to everyone: the host boundary an embedder implements and the declaration annotations. Every other package
 * is internal and exported only to the named Finch modules that need it: the runtime and the word SPI to persistence,
 * the word libraries beside the engine and the modules that build on them; the compiler to finch-core alone. The modules
 * named but absent when the engine is compiled (finch-providers, finch-cli, finch-bench: automatic modules) are why
 * {@code "module"} warnings are suppressed here.
 */
@SuppressWarnings("module")
module finch.vm {
    requires transitive finch.values;
    requires org.objectweb.asm;
    exports dev.finch.vm.boundary;
    exports dev.finch.vm.declare;
    exports dev.finch.vm.compile to finch.core;
    exports dev.finch.vm.engine to finch.persist, finch.core, finch.norman, finch.lib, finch.host, finch.providers, finch.bench;
    exports dev.finch.vm.runtime to finch.persist, finch.core, finch.lib, finch.host, finch.workbooks, finch.automation, finch.net,
            finch.providers, finch.bench;
    exports dev.finch.vm.word to finch.persist, finch.core, finch.lib, finch.host, finch.workbooks, finch.automation, finch.net,
            finch.cli, finch.bench;
    uses dev.finch.vm.word.WordLibrary;
}
