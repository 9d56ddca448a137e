/**
 * Build-time only: the annotation processor that writes each word library's index of its word declarations
 * (a {@code dev.finch.vm.word.WordIndex} named by {@code -Afinch.words.index}) while that module compiles. No module depends on it at run time.
 */
module finch.word.index {
    requires java.compiler;
    requires finch.ir;
    provides javax.annotation.processing.Processor with dev.finch.wordindex.WordIndexProcessor;
}
