/**
 * The frontend kit: the mechanisms the Lisp and µNorman frontends share — reading datums, ordering definitions by
 * their strongly connected components, and Hindley–Milner inference's core. It depends on the IR alone (decisions D1).
 */
module finch.frontend {
    requires transitive finch.ir;
    exports dev.finch.frontend.graph to finch.lisp, finch.norman;
    exports dev.finch.frontend.read to finch.lisp, finch.norman;
    exports dev.finch.frontend.types to finch.lisp, finch.norman;
}
