/** The µNorman frontend. */
module finch.norman {
    requires transitive finch.ir;
    requires finch.frontend;
    requires org.antlr.antlr4.runtime;
    requires com.fasterxml.jackson.databind;
    exports dev.finch.norman;
}
