/**
 * The VM: every word's declaration and implementation, the compiler and interpreter, values, persistence and the host
 * boundary. The workbook words need Apache POI (an optional dependency); the automation words java.desktop when a
 * desktop is there.
 */
module finch.vm {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    requires transitive com.fasterxml.jackson.databind;
    requires org.objectweb.asm;
    requires io.vavr;
    requires de.siegmar.fastcsv;
    requires java.xml;
    requires static java.desktop;
    requires static org.apache.poi.poi;
    requires static org.apache.poi.ooxml;
    requires static org.apache.commons.compress;
    exports dev.finch.vm;
    exports dev.finch.vm.boundary;
    exports dev.finch.vm.compile;
    exports dev.finch.vm.host;
    exports dev.finch.vm.lib;
    exports dev.finch.vm.persist;
    exports dev.finch.vm.runtime;
    exports dev.finch.vm.value;
    exports dev.finch.vm.word;
}
