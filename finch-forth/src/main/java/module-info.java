/** The Co-Forth frontend. */
module finch.forth {
    requires transitive finch.ir;
    requires org.antlr.antlr4.runtime;
    exports dev.finch.forth;
}
