/** The Lisp frontend. */
@SuppressWarnings("module") // names modules absent when this one compiles (automatic modules, later in the build)
module finch.lisp {
    requires transitive finch.ir;
    requires finch.frontend;
    requires org.antlr.antlr4.runtime;
    exports dev.finch.lisp to finch.core, finch.bench;
    exports dev.finch.lisp.lower to finch.core;
}
