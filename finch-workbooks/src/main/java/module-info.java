/** The workbook words (XLSX and XLS by Apache POI, ODS by StAX): a {@link dev.finch.vm.word.WordLibrary} of their own. */
module finch.workbooks {
    requires finch.host;
    requires java.xml;
    requires org.apache.poi.poi;
    requires org.apache.poi.ooxml;
    requires org.apache.commons.compress;
    // The word classes: the engine reads their declarations and its generated code calls them.
    exports dev.finch.workbooks.words to finch.vm, finch.core;
    provides dev.finch.vm.word.WordLibrary with dev.finch.workbooks.words.WorkbookLibrary;
}
