/** The workbook words (XLSX and XLS by Apache POI, ODS by StAX): a {@link dev.finch.vm.word.WordLibrary} of their own. */
module finch.workbooks {
    requires finch.host;
    requires java.xml;
    requires org.apache.poi.poi;
    requires org.apache.poi.ooxml;
    requires org.apache.commons.compress;
    exports dev.finch.workbooks;
    provides dev.finch.vm.word.WordLibrary with dev.finch.workbooks.WorkbookLibrary;
}
