/**
 * The frontend kit: the mechanisms the Lisp and µNorman frontends share — reading datums, ordering definitions by
 * their strongly connected components, and Hindley–Milner inference's core — and the lexer helper all three frontends
 * share. It depends on the IR and on the ANTLR runtime the frontends' lexers run on (decisions D1).
 */
@SuppressWarnings("module") // the ANTLR runtime is an automatic module
module finch.frontend {
    requires transitive finch.ir;
    requires org.antlr.antlr4.runtime;
    exports dev.finch.frontend.lex to finch.forth, finch.lisp, finch.norman;
    exports dev.finch.frontend.graph to finch.lisp, finch.norman;
    exports dev.finch.frontend.read to finch.lisp, finch.norman;
    exports dev.finch.frontend.types to finch.lisp, finch.norman;
}
