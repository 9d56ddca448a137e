package dev.finch.vm.word;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import dev.finch.vm.runtime.Ctx;
import java.util.List;

/**
 * The index of one word library's declarations, written by finch-word-index's annotation processor while the library
 * compiles (the class named by {@code -Afinch.words.index=…}): every member that carries {@link Word} or
 * {@link Overload}, with the annotations' values as written and the signatures parsed, and the interpreter's plain
 * static call of each indexed method. {@link Library} builds the vocabulary from it without reflecting on the declaring
 * classes; each library's index test builds the same words by reflection and requires them to agree.
 */
public interface WordIndex {
    /** The binary names of the classes that declare this library's words. */
    List<String> classes();

    /** Every declaring member, by class and then by name. */
    List<Declaration> declarations();

    /**
     * Calls indexed method {@code n} ({@link Declaration.IndexedMethod#call()}) with the interpreter's boxed inputs: the
     * inputs cast (and unboxed) to the method's parameters, a primitive result boxed, a void method's answered as null.
     */
    Object call(int n, Ctx c, int depth, Type.Fn site, Origin at, Object[] in) throws Throwable;
}
