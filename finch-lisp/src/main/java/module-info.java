/** The Lisp frontend. */
module finch.lisp {
    requires transitive finch.ir;
    requires finch.frontend;
    requires org.antlr.antlr4.runtime;
    exports dev.finch.lisp;
    exports dev.finch.lisp.expand;
    exports dev.finch.lisp.lower;
    exports dev.finch.lisp.syntax;
    exports dev.finch.lisp.types;
}
