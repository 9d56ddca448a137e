package dev.finch.workbooks.words;

import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import static dev.finch.host.words.HostWords.READ;
import static dev.finch.host.words.HostWords.available;
import static dev.finch.host.words.HostWords.concrete;
import static dev.finch.host.words.HostWords.files;
import static dev.finch.host.words.HostWords.read;

import dev.finch.capabilities.ConcretePath;
import dev.finch.host.words.HostWords;
import dev.finch.host.words.RunStreams;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.StreamValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * The workbook words (XLSX, XLS, ODS; {@link Workbooks} reads them). Each is a file read: the concrete requirement is
 * {@code fs.read} of the canonical path, made at the call exactly as for {@code file-read}, and the file is reached only
 * through {@link dev.finch.host.FileHost#openBytes}. Sheets are named by string; rows and columns are zero-based ints.
 */
public final class WorkbookWords {
    private WorkbookWords() { }

    static final long MAX_RANGE_CELLS = 10_000;
    static final long MAX_SUMMARY_ROWS = 100_000;

    /** Whether Apache POI (poi-ooxml, an optional dependency of finch-vm) is on the class path. */
    private static final boolean POI = present("org.apache.poi.openxml4j.opc.OPCPackage");

    private static boolean present(String className) {
        try {
            Class.forName(className, false, WorkbookWords.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Refuses, before any request is made, a workbook word in an application that did not add Apache POI. */
    private static void supported(Origin o) {
        if (!POI) {
            throw new FinchTrap(HostCode.NO_BINDING, o, "workbook words need Apache POI: add org.apache.poi:poi-ooxml 5.5.1 (an optional "
                    + "dependency of finch-vm) to the application");
        }
    }

    @Word(name = "workbook-sheets", category = Category.FILE, doc = "The sheet names of a workbook (XLSX, XLS or ODS), in order, without reading cells.")
    @Overload(sig = "path -> list<string> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object workbookSheets(Ctx ctx, Object path, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        supported(o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "workbook-sheets", read(p), EffectRequest.inputs(site, path), site.outs(), o, () -> {
            try (Workbooks.Book b = Workbooks.open(files(ctx).openBytes(p), p.toString())) {
                return ListValue.from(b.sheets());
            }
        });
    }

    @Word(name = "workbook-open", category = Category.FILE, doc = "Open a run-owned stream of the first sheet's rows (a missing row is an empty list).")
    @Overload(sig = "path -> stream<list<string>> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object workbookOpen(Ctx ctx, Object path, Type.Fn site, Origin o) {
        return open(ctx, "workbook-open", path, null, site, o);
    }

    @Word(name = "workbook-sheet-open", category = Category.FILE, doc = "Open a run-owned stream of the named sheet's rows (a missing row is an empty list).")
    @Overload(sig = "path string -> stream<list<string>> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object workbookSheetOpen(Ctx ctx, Object path, String sheet, Type.Fn site, Origin o) {
        return open(ctx, "workbook-sheet-open", path, sheet, site, o);
    }

    private static Object open(Ctx ctx, String word, Object path, String sheet, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        supported(o);
        var inputs = sheet == null ? EffectRequest.inputs(site, path) : EffectRequest.inputs(site, path, sheet);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, word, read(p), inputs, site.outs(), o,
                () -> RunStreams.open(ctx, WORKBOOK, p, sheet, rowsSource(ctx, p, sheet)));
    }

    /** Workbook streams: {@code workbook-open}'s and {@code workbook-sheet-open}'s, by sheet. */
    static final RunStreams.Opener WORKBOOK = new RunStreams.Opener() {
        @Override public String kind() { return "workbook"; }

        @Override public RunStreams.Source open(Ctx ctx, ConcretePath path, String sheet) throws HostFailure { return rowsSource(ctx, path, sheet); }
    };

    /** A source of the rows of {@code p}'s sheet {@code sheet} (the first when null). */
    static RunStreams.Source rowsSource(Ctx ctx, ConcretePath p, String sheet) throws HostFailure {
        Workbooks.Book b = Workbooks.open(files(ctx).openBytes(p), p.toString());
        Workbooks.Rows rows;
        try {
            rows = b.rows(sheet);
        } catch (HostFailure | RuntimeException e) {
            b.close();
            throw e;
        }
        return new RunStreams.Source() {
            @Override public Object next(Origin at) {
                try {
                    List<String> row = rows.next();
                    return row == null ? OptionValue.NONE : OptionValue.some(ListValue.from(row));
                } catch (HostFailure f) {
                    throw new FinchTrap(f.code(), at, f.getMessage());
                }
            }

            @Override public void close() {
                rows.close();
                b.close();
            }
        };
    }

    @Word(name = "workbook-range", category = Category.FILE,
            doc = "The cells of row_count × column_count from (start_row, start_column), zero-based, at most 10,000; rows past the sheet's end are left out, each row has column_count cells.")
    @Overload(sig = "path string int int int int -> list<list<string>> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object workbookRange(Ctx ctx, Object path, String sheet, long startRow, long startColumn, long rowCount, long columnCount,
                                       Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        supported(o);
        if (startRow < 0 || startColumn < 0 || rowCount < 0 || columnCount < 0) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "workbook-range needs non-negative offsets and counts");
        }
        if (rowCount > MAX_RANGE_CELLS || columnCount > MAX_RANGE_CELLS || rowCount * columnCount > MAX_RANGE_CELLS) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "workbook-range selects " + rowCount + " x " + columnCount + " cells; at most 10000");
        }
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "workbook-range", read(p), EffectRequest.inputs(site, path, sheet, startRow, startColumn, rowCount, columnCount),
                site.outs(), o, () -> {
                    List<Object> out = new ArrayList<>();
                    try (Workbooks.Book b = Workbooks.open(files(ctx).openBytes(p), p.toString()); Workbooks.Rows rows = b.rows(sheet)) {
                        List<String> row;
                        for (long i = 0; i < startRow + rowCount && (row = rows.next()) != null; i++) {
                            if (i < startRow) continue;
                            List<String> cells = new ArrayList<>((int) columnCount);
                            for (long c = startColumn; c < startColumn + columnCount; c++) cells.add(c < row.size() ? row.get((int) c) : "");
                            out.add(ListValue.from(cells));
                        }
                    }
                    return ListValue.from(out);
                });
    }

    @Word(name = "workbook-summary", category = Category.FILE,
            doc = "The sheet's name, header (its first row) and per-column facts of at most max_rows rows after it, as json (the facts of csv-summary).")
    @Overload(sig = "path string int -> json ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object workbookSummary(Ctx ctx, Object path, String sheet, long maxRows, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        supported(o);
        if (maxRows < 0 || maxRows > MAX_SUMMARY_ROWS) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "workbook-summary takes 0 to 100000 rows, not " + maxRows);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "workbook-summary", read(p), EffectRequest.inputs(site, path, sheet, maxRows), site.outs(), o, () -> {
            try (Workbooks.Book b = Workbooks.open(files(ctx).openBytes(p), p.toString()); Workbooks.Rows rows = b.rows(sheet)) {
                return HostWords.CsvSummary.of(rows::next, (int) maxRows, rows.sheet());
            }
        });
    }
}
