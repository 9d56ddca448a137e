/** The Co-Forth frontend. */
@SuppressWarnings("module") // names modules absent when this one compiles (automatic modules, later in the build)
module finch.forth {
    requires transitive finch.ir;
    requires finch.frontend;
    requires org.antlr.antlr4.runtime;
    exports dev.finch.forth to finch.core, finch.bench;
}
