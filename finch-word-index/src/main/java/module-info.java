/**
 * Build-time only: the annotation processor that writes finch-vm's index of its word declarations
 * ({@code dev.finch.vm.word.CoreIndex}) while finch-vm compiles. No module depends on it at run time.
 */
module finch.word.index {
    requires java.compiler;
    requires finch.ir;
    provides javax.annotation.processing.Processor with dev.finch.wordindex.WordIndexProcessor;
}
