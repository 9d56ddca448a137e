package dev.finch.workbooks.words;

import dev.finch.vm.word.WordIndex;
import dev.finch.vm.word.WordLibrary;
import java.util.List;

/** The workbook words, found by the engine as a service when this module is there. */
public final class WorkbookLibrary implements WordLibrary {
    /** For the service loader. */
    public WorkbookLibrary() { }

    @Override public String name() { return "workbooks"; }

    @Override public WordIndex index() { return WorkbookIndex.INSTANCE; }

    /** The opener that reopens a workbook stream after a restore. */
    @Override public List<Object> extensions() { return List.of(WorkbookWords.WORKBOOK); }
}
