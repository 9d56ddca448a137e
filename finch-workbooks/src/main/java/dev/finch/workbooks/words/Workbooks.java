package dev.finch.workbooks.words;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.HostText;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.openxml4j.exceptions.OpenXML4JException;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.opc.PackageAccess;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.NumberToTextConverter;
import org.apache.poi.util.XMLHelper;
import org.apache.poi.xssf.eventusermodel.XSSFReader;

/**
 * The workbook readers behind the {@code workbook-*} words: XLSX (its sheet XML pulled one row at a time from the
 * package, never loaded into a workbook object), XLS (POI's HSSF model; the format itself caps a sheet at 65,536 rows
 * by 256 columns; it is decoded whole, so its file bound is {@link #MAX_XLS_BYTES}) and ODS (its {@code content.xml} pulled the same way). Every value crosses as text: a number in its
 * stored form (a date is its serial number in XLSX and XLS, its ISO date in ODS), a boolean as {@code TRUE} or
 * {@code FALSE}, a formula as its cached result, an error as its code ({@code #DIV/0!}).
 *
 * <p>The file comes from {@link FileHost#openBytes}, so its path was canonicalized and checked exactly as for
 * {@code file-read} (symlinks, hard links, special files); it is copied (at most {@link #MAX_FILE_BYTES}) to a private
 * temporary file that the reader owns and deletes on close, because a ZIP is read from its central directory.
 * Bounds, each a host diagnostic: the file size and the decompressed size of each part (POI's {@link ZipSecureFile}:
 * an entry inflating more than {@link #MAX_RATIO} times, or past {@link #MAX_ENTRY_BYTES}, is a zip bomb),
 * {@link #MAX_CELLS} cells decoded from a sheet, {@link #MAX_SHARED_STRINGS} shared strings of at most
 * {@link #MAX_SHARED_CHARS} characters in all, {@link #MAX_CELL_CHARS} characters in an inline cell; a DOCTYPE anywhere is refused (no entity is ever expanded).
 */
final class Workbooks {
    private Workbooks() { }

    static final long MAX_FILE_BYTES = 64L << 20;
    /** XLS is decoded whole (POI's HSSF model), so its file bound is lower: the model takes several times the file. */
    static final long MAX_XLS_BYTES = 16L << 20;
    static final long MAX_ENTRY_BYTES = 256L << 20;
    /** An entry whose compressed size is less than 1/MAX_RATIO of its decompressed size is a zip bomb. */
    static final double MAX_RATIO = 100;
    static final long MAX_CELLS = 10_000_000;
    static final int MAX_SHARED_STRINGS = 1_000_000;
    static final long MAX_SHARED_CHARS = 32L << 20;
    /** A cell's text (Excel itself stops at 32,767 characters). */
    static final int MAX_CELL_CHARS = 1 << 20;

    static {
        quietPoiLogging();
        // POI's ZIP bounds are process-wide settings; these are its defaults made explicit, except the entry size
        // (4 GiB by default), which is lowered.
        ZipSecureFile.setMinInflateRatio(1 / MAX_RATIO);
        ZipSecureFile.setMaxEntrySize(MAX_ENTRY_BYTES);
    }

    /**
     * POI logs through the Log4j API; with no Log4j implementation on the class path the API complains on stderr at
     * first use, and POI would log a refused DOCTYPE as FATAL there. Unless the embedder configured Log4j (a provider
     * property, or log4j-core present), its simple provider is selected with logging off: every failure reaches the
     * program as a diagnostic instead.
     */
    private static void quietPoiLogging() {
        if (System.getProperty("log4j2.provider") != null || System.getProperty("log4j2.loggerContextFactory") != null) return;
        try {
            Class.forName("org.apache.logging.log4j.core.LoggerContext", false, Workbooks.class.getClassLoader());
            return;
        } catch (ClassNotFoundException absent) {
            System.setProperty("log4j2.provider", "org.apache.logging.log4j.simple.internal.SimpleProvider");
            if (System.getProperty("org.apache.logging.log4j.simplelog.level") == null) System.setProperty("org.apache.logging.log4j.simplelog.level", "OFF");
        }
    }

    /** An open workbook: its sheet names and row cursors over one sheet. */
    sealed interface Book extends Closeable permits Xlsx, Xls, Ods {
        List<String> sheets() throws HostFailure;

        /** The rows of the named sheet, or of the first when {@code sheet} is null; an unknown name is a failure. */
        Rows rows(String sheet) throws HostFailure;

        @Override void close();
    }

    /** A pull cursor over a sheet's rows; a missing row in the file is an empty row, so indexes stay the sheet's. */
    interface Rows extends Closeable {
        /** The next row, or null at the end. */
        List<String> next() throws HostFailure;

        /** The sheet's name. */
        String sheet();

        @Override void close();
    }

    private static final XMLInputFactory XML = XMLHelper.newXMLInputFactory();

    /** Opens the workbook in {@code in} (closed here), telling the format from its first bytes. */
    static Book open(InputStream in, String name) throws HostFailure {
        Path copy = copy(in, name);
        boolean owned = false;
        try {
            byte[] head = new byte[8];
            int n;
            try (InputStream h = Files.newInputStream(copy)) { n = h.readNBytes(head, 0, 8); }
            Book b;
            if (n >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
                b = isOds(copy) ? new Ods(copy, name) : Xlsx.open(copy, name);
            } else if (n == 8 && (head[0] & 0xff) == 0xD0 && (head[1] & 0xff) == 0xCF && (head[2] & 0xff) == 0x11 && (head[3] & 0xff) == 0xE0) {
                b = Xls.open(copy, name);
            } else {
                throw new HostFailure(HostCode.WORKBOOK, name + " is not a workbook (XLSX, XLS or ODS)");
            }
            owned = true;
            return b;
        } catch (IOException e) {
            throw failure(e, name);
        } finally {
            if (!owned) delete(copy);
        }
    }

    private static Path copy(InputStream in, String name) throws HostFailure {
        Path tmp = null;
        try (in) {
            tmp = temporary();
            try (OutputStream out = Files.newOutputStream(tmp)) {
                byte[] buf = new byte[1 << 16];
                long total = 0;
                int r;
                while ((r = in.read(buf)) >= 0) {
                    total += r;
                    if (total > MAX_FILE_BYTES) throw new HostFailure(HostCode.WORKBOOK_BOUND, name + " exceeds the workbook bound of 64 MiB");
                    out.write(buf, 0, r);
                }
            }
            return tmp;
        } catch (IOException e) {
            if (tmp != null) delete(tmp);
            HostText.log("copying the workbook " + name + " failed", e);
            throw new HostFailure(HostCode.IO, "cannot read " + name + ": the copy Finch reads it from could not be written");
        } catch (HostFailure f) {
            delete(tmp);
            throw f;
        }
    }

    private static Path temporary() throws IOException {
        try {
            return Files.createTempFile("finch-workbook", ".bin", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            return Files.createTempFile("finch-workbook", ".bin");
        }
    }

    private static void delete(Path p) {
        try { Files.deleteIfExists(p); } catch (IOException ignored) { /* a temporary file */ }
    }

    private static boolean isOds(Path copy) throws IOException {
        try (ZipSecureFile zip = new ZipSecureFile(copy.toFile())) {
            ZipArchiveEntry mime = zip.getEntry("mimetype");
            if (mime == null || mime.getSize() > 200) return false;
            try (InputStream m = zip.getInputStream(mime)) {
                return new String(m.readNBytes(200), java.nio.charset.StandardCharsets.US_ASCII).strip()
                        .equals("application/vnd.oasis.opendocument.spreadsheet");
            }
        }
    }

    /** The structured failure for what a parser or the ZIP layer threw. */
    static HostFailure failure(Throwable e, String name) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HostFailure f) return f;
            String m = String.valueOf(t.getMessage());
            if (m.contains("Zip bomb") || m.contains("ZIP bomb") || m.contains("MaxEntrySize") || m.contains("max entry size")
                    || m.contains("MAX_ENTRY_SIZE") || m.contains("exceeds the maximum")) {
                return new HostFailure(HostCode.WORKBOOK_BOUND, name + " inflates past its bound (a zip bomb is refused): " + firstLine(m));
            }
            if (m.contains("DOCTYPE") || m.contains("DTD")) {
                return new HostFailure(HostCode.WORKBOOK_ENTITY, name + " declares a DOCTYPE; entities are never expanded");
            }
        }
        HostText.log("reading the workbook " + name + " failed", e);
        String why = e.getMessage() == null ? "" : HostText.external(firstLine(e.getMessage()));
        return new HostFailure(HostCode.WORKBOOK, name + " is not a readable workbook" + (why.isBlank() ? "" : ": " + why));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String l = nl < 0 ? s : s.substring(0, nl);
        return l.length() > 200 ? l.substring(0, 200) + "…" : l;
    }

    private static XMLStreamReader xml(InputStream in) throws XMLStreamException { return XML.createXMLStreamReader(in); }

    /** The next event, refusing a DOCTYPE (the factory is already hardened; this makes the refusal a diagnostic). */
    private static int advance(XMLStreamReader r, String name) throws XMLStreamException, HostFailure {
        int e = r.next();
        if (e == XMLStreamConstants.DTD) throw new HostFailure(HostCode.WORKBOOK_ENTITY, name + " declares a DOCTYPE; entities are never expanded");
        return e;
    }

    /** Counts decoded cells against {@link #MAX_CELLS}. */
    private static final class Budget {
        private final String name;
        private long cells;

        Budget(String name) { this.name = name; }

        void take(long n) throws HostFailure {
            cells += n;
            if (cells > MAX_CELLS) throw new HostFailure(HostCode.WORKBOOK_BOUND, "a sheet of " + name + " has more than 10,000,000 cells");
        }
    }

    /** A stored number as Excel shows it in general format ({@code 3.0} → {@code 3}); text that is no number, as it is. */
    static String number(String raw) {
        if (raw == null) return null;
        try {
            double d = Double.parseDouble(raw.strip());
            return Double.isFinite(d) ? NumberToTextConverter.toText(d) : raw;
        } catch (NumberFormatException notANumber) {
            return raw;
        }
    }

    /** The zero-based column of an A1 reference ({@code BC12} → 54), or -1. */
    static int column(String ref) {
        if (ref == null) return -1;
        int c = 0;
        int i = 0;
        while (i < ref.length() && Character.isLetter(ref.charAt(i))) {
            c = c * 26 + (Character.toUpperCase(ref.charAt(i)) - 'A' + 1);
            if (c > 16_384) return -1;
            i++;
        }
        return i == 0 ? -1 : c - 1;
    }

    private static void pad(List<String> row, int column, Budget budget) throws HostFailure {
        if (column < row.size()) return;
        budget.take(column - row.size());
        while (row.size() < column) row.add("");
    }

    // ---- XLSX: POI's package reader for the parts, a pull parser for the sheet and shared strings ----

    static final class Xlsx implements Book {
        private final Path file;
        private final String name;
        private final OPCPackage pkg;
        private final XSSFReader reader;
        private List<String> strings;

        private Xlsx(Path file, String name, OPCPackage pkg, XSSFReader reader) {
            this.file = file; this.name = name; this.pkg = pkg; this.reader = reader;
        }

        static Xlsx open(Path file, String name) throws HostFailure {
            OPCPackage pkg = null;
            try {
                pkg = OPCPackage.open(file.toFile(), PackageAccess.READ);
                return new Xlsx(file, name, pkg, new XSSFReader(pkg));
            } catch (IOException | OpenXML4JException | RuntimeException e) {
                if (pkg != null) pkg.revert();
                throw failure(e, name);
            }
        }

        @Override public List<String> sheets() throws HostFailure {
            List<String> out = new ArrayList<>();
            try {
                XSSFReader.SheetIterator it = reader.getSheetIterator();
                while (it.hasNext()) {
                    it.next().close();
                    out.add(it.getSheetName());
                }
                return out;
            } catch (IOException | OpenXML4JException | RuntimeException e) {
                throw failure(e, name);
            }
        }

        @Override public Rows rows(String sheet) throws HostFailure {
            try {
                XSSFReader.SheetIterator it = reader.getSheetIterator();
                while (it.hasNext()) {
                    InputStream in = it.next();
                    String n = it.getSheetName();
                    if (sheet == null || sheet.equals(n)) return new XlsxRows(n, in, sharedStrings());
                    in.close();
                }
            } catch (IOException | OpenXML4JException | XMLStreamException | RuntimeException e) {
                throw failure(e, name);
            }
            throw noSheet(name, sheet);
        }

        /** The shared strings, read once with their bounds (the text of each item, phonetic runs left out). */
        private List<String> sharedStrings() throws IOException, OpenXML4JException, XMLStreamException, HostFailure {
            if (strings != null) return strings;
            List<String> out = new ArrayList<>();
            InputStream data;
            try {
                data = reader.getSharedStringsData();
            } catch (IOException | OpenXML4JException | RuntimeException none) {
                data = null;
            }
            if (data == null) return strings = out;
            try (InputStream in = data) {
                XMLStreamReader r = xml(in);
                StringBuilder item = null;
                long chars = 0;
                int phonetic = 0;
                boolean text = false;
                while (r.hasNext()) {
                    int e = advance(r, name);
                    if (e == XMLStreamConstants.START_ELEMENT) {
                        switch (r.getLocalName()) {
                            case "si" -> item = new StringBuilder();
                            case "rPh" -> phonetic++;
                            case "t" -> text = phonetic == 0 && item != null;
                            default -> { }
                        }
                    } else if (e == XMLStreamConstants.END_ELEMENT) {
                        switch (r.getLocalName()) {
                            case "si" -> {
                                if (out.size() >= MAX_SHARED_STRINGS) throw new HostFailure(HostCode.WORKBOOK_BOUND, name + " has more than 1,000,000 shared strings");
                                out.add(item == null ? "" : item.toString());
                                item = null;
                            }
                            case "rPh" -> phonetic--;
                            case "t" -> text = false;
                            default -> { }
                        }
                    } else if (text && (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA || e == XMLStreamConstants.SPACE)) {
                        chars += r.getTextLength();
                        if (chars > MAX_SHARED_CHARS) throw new HostFailure(HostCode.WORKBOOK_BOUND, name + " has more than 32 Mi characters of shared strings");
                        item.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                    }
                }
                r.close();
            }
            return strings = out;
        }

        @Override public void close() {
            pkg.revert();
            delete(file);
        }

        private final class XlsxRows implements Rows {
            private final String sheet;
            private final InputStream in;
            private final XMLStreamReader r;
            private final List<String> shared;
            private final Budget budget = new Budget(name);
            private int emitted;
            private List<String> pending;
            private int pendingIndex;
            private boolean done;

            XlsxRows(String sheet, InputStream in, List<String> shared) throws XMLStreamException {
                this.sheet = sheet; this.in = in; this.shared = shared; this.r = xml(in);
            }

            @Override public String sheet() { return sheet; }

            @Override public List<String> next() throws HostFailure {
                try {
                    if (pending == null && !done) readRow();
                    if (pending == null) return null;
                    if (emitted < pendingIndex) {
                        emitted++;
                        return List.of();
                    }
                    List<String> row = pending;
                    pending = null;
                    emitted++;
                    return row;
                } catch (XMLStreamException | RuntimeException e) {
                    throw failure(e, name);
                }
            }

            /** Reads the next {@code <row>} into {@link #pending}, or sets {@link #done}. */
            private void readRow() throws XMLStreamException, HostFailure {
                while (r.hasNext()) {
                    int e = advance(r, name);
                    if (e == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("row")) {
                        String at = r.getAttributeValue(null, "r");
                        int index = at == null ? emitted : parseIndex(at) - 1;
                        if (index < emitted) throw new HostFailure(HostCode.WORKBOOK, "sheet " + sheet + " of " + name + " has rows out of order");
                        budget.take(Math.max(1, index - emitted));
                        pendingIndex = index;
                        pending = cells();
                        return;
                    }
                }
                done = true;
            }

            private int parseIndex(String at) throws HostFailure {
                try {
                    int i = Integer.parseInt(at);
                    if (i >= 1 && i <= 1_048_576) return i;
                } catch (NumberFormatException bad) {
                    // reported below
                }
                throw new HostFailure(HostCode.WORKBOOK, "sheet " + sheet + " of " + name + " has a bad row number " + firstLine(at));
            }

            /** The cells of the current row, up to its end tag. */
            private List<String> cells() throws XMLStreamException, HostFailure {
                List<String> row = new ArrayList<>();
                String type = null;
                int column = -1;
                StringBuilder value = null;
                boolean inValue = false;
                boolean inline = false;
                boolean inText = false;
                while (r.hasNext()) {
                    int e = advance(r, name);
                    if (e == XMLStreamConstants.START_ELEMENT) {
                        switch (r.getLocalName()) {
                            case "c" -> {
                                type = r.getAttributeValue(null, "t");
                                int c = column(r.getAttributeValue(null, "r"));
                                column = c >= 0 ? c : row.size();
                                if (column < row.size()) throw new HostFailure(HostCode.WORKBOOK, "sheet " + sheet + " of " + name + " has cells out of order");
                                value = new StringBuilder();
                            }
                            case "v" -> inValue = true;
                            case "is" -> inline = true;
                            case "t" -> inText = inline;
                            default -> { }
                        }
                    } else if (e == XMLStreamConstants.END_ELEMENT) {
                        switch (r.getLocalName()) {
                            case "c" -> {
                                pad(row, column, budget);
                                budget.take(1);
                                row.add(cell(type, value.toString()));
                                value = null;
                            }
                            case "v" -> inValue = false;
                            case "is" -> inline = false;
                            case "t" -> inText = false;
                            case "row" -> { return row; }
                            default -> { }
                        }
                    } else if (value != null && (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA || e == XMLStreamConstants.SPACE)) {
                        // The text of <v>, or of the <t> runs inside <is> (never a formula's text <f>).
                        if (inValue || inText) {
                            if (value.length() + r.getTextLength() > MAX_CELL_CHARS) throw new HostFailure(HostCode.WORKBOOK_BOUND, "a cell of " + name + " has more than 1 Mi characters");
                            value.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                        }
                    }
                }
                throw new HostFailure(HostCode.WORKBOOK, "sheet " + sheet + " of " + name + " ends inside a row");
            }

            private String cell(String type, String raw) throws HostFailure {
                if ("s".equals(type)) {
                    try {
                        int i = Integer.parseInt(raw.strip());
                        if (i >= 0 && i < shared.size()) return shared.get(i);
                    } catch (NumberFormatException bad) {
                        // reported below
                    }
                    throw new HostFailure(HostCode.WORKBOOK, "a cell of " + name + " names a shared string that does not exist");
                }
                if ("b".equals(type)) return raw.strip().equals("1") ? "TRUE" : "FALSE";
                return type == null || "n".equals(type) ? number(raw) : raw;
            }

            @Override public void close() {
                try { r.close(); } catch (XMLStreamException ignored) { /* closing */ }
                try { in.close(); } catch (IOException ignored) { /* closing */ }
            }
        }
    }

    private static HostFailure noSheet(String name, String sheet) {
        return new HostFailure(HostCode.WORKBOOK, name + " has no sheet named '" + sheet + "' (workbook-sheets lists them)");
    }

    // ---- XLS: HSSF ----

    static final class Xls implements Book {
        private final Path file;
        private final String name;
        private final POIFSFileSystem fs;
        private final HSSFWorkbook book;

        private Xls(Path file, String name, POIFSFileSystem fs, HSSFWorkbook book) {
            this.file = file; this.name = name; this.fs = fs; this.book = book;
        }

        static Xls open(Path file, String name) throws HostFailure {
            POIFSFileSystem fs = null;
            try {
                if (Files.size(file) > MAX_XLS_BYTES) throw new HostFailure(HostCode.WORKBOOK_BOUND, name + " exceeds the XLS bound of 16 MiB (XLSX and ODS are streamed up to 64 MiB)");
                fs = new POIFSFileSystem(file.toFile(), true);
                return new Xls(file, name, fs, new HSSFWorkbook(fs.getRoot(), true));
            } catch (IOException | RuntimeException e) {
                if (fs != null) {
                    try { fs.close(); } catch (IOException ignored) { /* closing */ }
                }
                throw failure(e, name);
            }
        }

        @Override public List<String> sheets() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < book.getNumberOfSheets(); i++) out.add(book.getSheetName(i));
            return out;
        }

        @Override public Rows rows(String sheet) throws HostFailure {
            Sheet s = sheet == null ? (book.getNumberOfSheets() == 0 ? null : book.getSheetAt(0)) : book.getSheet(sheet);
            if (s == null) throw noSheet(name, sheet);
            Iterator<Row> it = s.rowIterator();
            Budget budget = new Budget(name);
            return new Rows() {
                private int emitted;
                private Row pending;

                @Override public List<String> next() throws HostFailure {
                    if (pending == null) {
                        if (!it.hasNext()) return null;
                        pending = it.next();
                    }
                    if (emitted < pending.getRowNum()) {
                        emitted++;
                        budget.take(1);
                        return List.of();
                    }
                    Row row = pending;
                    pending = null;
                    emitted++;
                    List<String> out = new ArrayList<>();
                    for (Cell c : row) {
                        pad(out, c.getColumnIndex(), budget);
                        budget.take(1);
                        out.add(text(c, c.getCellType()));
                    }
                    return out;
                }

                @Override public String sheet() { return s.getSheetName(); }

                @Override public void close() { }
            };
        }

        private static String text(Cell c, CellType type) {
            return switch (type) {
                case STRING -> c.getStringCellValue();
                case NUMERIC -> NumberToTextConverter.toText(c.getNumericCellValue());
                case BOOLEAN -> c.getBooleanCellValue() ? "TRUE" : "FALSE";
                case ERROR -> FormulaError.forInt(c.getErrorCellValue()).getString();
                case FORMULA -> text(c, c.getCachedFormulaResultType());
                case BLANK, _NONE -> "";
            };
        }

        @Override public void close() {
            try { book.close(); } catch (IOException ignored) { /* closing */ }
            try { fs.close(); } catch (IOException ignored) { /* closing */ }
            delete(file);
        }
    }

    // ---- ODS: content.xml pulled through POI's bounded ZIP reader ----

    static final class Ods implements Book {
        private static final String TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0";
        private static final String OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";
        private static final String TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
        private final Path file;
        private final String name;

        Ods(Path file, String name) { this.file = file; this.name = name; }

        @Override public List<String> sheets() throws HostFailure {
            List<String> out = new ArrayList<>();
            try (Content c = new Content()) {
                while (c.nextTable()) out.add(c.table);
            } catch (IOException | XMLStreamException | RuntimeException e) {
                throw failure(e, name);
            }
            return out;
        }

        @Override public Rows rows(String sheet) throws HostFailure {
            Content c = null;
            try {
                c = new Content();
                while (c.nextTable()) {
                    if (sheet == null || sheet.equals(c.table)) {
                        Content open = c;
                        c = null;
                        return open.rows();
                    }
                }
            } catch (IOException | XMLStreamException | RuntimeException e) {
                throw failure(e, name);
            } finally {
                if (c != null) c.close();
            }
            throw noSheet(name, sheet);
        }

        @Override public void close() { delete(file); }

        /** One pass over content.xml. */
        private final class Content implements Closeable {
            private final ZipSecureFile zip;
            private final InputStream in;
            private final XMLStreamReader r;
            String table;

            Content() throws IOException, XMLStreamException, HostFailure {
                zip = new ZipSecureFile(file.toFile());
                ZipArchiveEntry e = zip.getEntry("content.xml");
                if (e == null) {
                    zip.close();
                    throw new HostFailure(HostCode.WORKBOOK, name + " has no content.xml");
                }
                in = zip.getInputStream(e);
                r = xml(in);
            }

            /** Advances to the next {@code table:table}, setting its name. */
            boolean nextTable() throws XMLStreamException, HostFailure {
                while (r.hasNext()) {
                    int e = advance(r, name);
                    if (e == XMLStreamConstants.START_ELEMENT && TABLE.equals(r.getNamespaceURI()) && r.getLocalName().equals("table")) {
                        table = r.getAttributeValue(TABLE, "name");
                        if (table == null) table = "";
                        return true;
                    }
                }
                return false;
            }

            Rows rows() {
                Budget budget = new Budget(name);
                return new Rows() {
                    private long emptyRows;
                    private List<String> pending;
                    private long pendingRepeats;
                    private boolean done;

                    @Override public String sheet() { return table; }

                    @Override public List<String> next() throws HostFailure {
                        try {
                            while (true) {
                                if (pending != null) {
                                    if (emptyRows > 0) {
                                        emptyRows--;
                                        budget.take(1);
                                        return List.of();
                                    }
                                    List<String> row = pending;
                                    if (--pendingRepeats == 0) pending = null;
                                    else budget.take(Math.max(1, row.size()));
                                    return row;
                                }
                                if (done || !readRow()) {
                                    done = true;
                                    return null;
                                }
                            }
                        } catch (XMLStreamException | RuntimeException e) {
                            throw failure(e, name);
                        }
                    }

                    /**
                     * Reads rows up to the next one with content; trailing empty rows and cells (ODS repeats them to
                     * the sheet's edge) are never materialized. False at the end of the table.
                     */
                    private boolean readRow() throws XMLStreamException, HostFailure {
                        while (r.hasNext()) {
                            int e = advance(r, name);
                            if (e == XMLStreamConstants.END_ELEMENT && TABLE.equals(r.getNamespaceURI()) && r.getLocalName().equals("table")) return false;
                            if (e == XMLStreamConstants.START_ELEMENT && TABLE.equals(r.getNamespaceURI()) && r.getLocalName().equals("table-row")) {
                                long repeats = repeated(r.getAttributeValue(TABLE, "number-rows-repeated"));
                                List<String> row = cells();
                                if (row.isEmpty()) {
                                    emptyRows += repeats;
                                    if (emptyRows > MAX_CELLS) emptyRows = MAX_CELLS + 1;
                                    continue;
                                }
                                budget.take(row.size());
                                pending = row;
                                pendingRepeats = repeats;
                                return true;
                            }
                        }
                        return false;
                    }

                    private List<String> cells() throws XMLStreamException, HostFailure {
                        List<String> row = new ArrayList<>();
                        long emptyCells = 0;
                        while (r.hasNext()) {
                            int e = advance(r, name);
                            if (e == XMLStreamConstants.END_ELEMENT && TABLE.equals(r.getNamespaceURI()) && r.getLocalName().equals("table-row")) return row;
                            if (e == XMLStreamConstants.START_ELEMENT && TABLE.equals(r.getNamespaceURI())
                                    && (r.getLocalName().equals("table-cell") || r.getLocalName().equals("covered-table-cell"))) {
                                long repeats = repeated(r.getAttributeValue(TABLE, "number-columns-repeated"));
                                String v = value();
                                if (v.isEmpty()) {
                                    emptyCells += repeats;
                                    continue;
                                }
                                if (row.size() + emptyCells + repeats > 16_384) throw new HostFailure(HostCode.WORKBOOK_BOUND, "a row of " + name + " has more than 16,384 columns");
                                budget.take(emptyCells + repeats);
                                for (long i = 0; i < emptyCells; i++) row.add("");
                                emptyCells = 0;
                                for (long i = 0; i < repeats; i++) row.add(v);
                            }
                        }
                        throw new HostFailure(HostCode.WORKBOOK, name + " ends inside a row");
                    }

                    /** The current cell's value, reading to its end tag. */
                    private String value() throws XMLStreamException, HostFailure {
                        String type = r.getAttributeValue(OFFICE, "value-type");
                        String attr = switch (type == null ? "" : type) {
                            case "float", "percentage", "currency" -> number(r.getAttributeValue(OFFICE, "value"));
                            case "boolean" -> "true".equals(r.getAttributeValue(OFFICE, "boolean-value")) ? "TRUE" : "FALSE";
                            case "date" -> r.getAttributeValue(OFFICE, "date-value");
                            case "time" -> r.getAttributeValue(OFFICE, "time-value");
                            default -> null;
                        };
                        StringBuilder text = new StringBuilder();
                        int depth = 1;
                        int paragraphs = 0;
                        while (depth > 0) {
                            int e = advance(r, name);
                            if (e == XMLStreamConstants.START_ELEMENT) {
                                depth++;
                                if (TEXT.equals(r.getNamespaceURI())) {
                                    switch (r.getLocalName()) {
                                        case "p" -> { if (paragraphs++ > 0) text.append('\n'); }
                                        case "s" -> text.append(" ".repeat((int) Math.min(1000, repeated(r.getAttributeValue(TEXT, "c")))));
                                        case "tab" -> text.append('\t');
                                        case "line-break" -> text.append('\n');
                                        default -> { }
                                    }
                                }
                            } else if (e == XMLStreamConstants.END_ELEMENT) {
                                depth--;
                            } else if (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA) {
                                if (text.length() + r.getTextLength() > MAX_CELL_CHARS) throw new HostFailure(HostCode.WORKBOOK_BOUND, "a cell of " + name + " has more than 1 Mi characters");
                                text.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                            }
                        }
                        return attr != null ? attr : text.toString();
                    }

                    @Override public void close() { Content.this.close(); }
                };
            }

            private long repeated(String n) throws HostFailure {
                if (n == null) return 1;
                try {
                    long v = Long.parseLong(n);
                    if (v >= 1) return Math.min(v, MAX_CELLS + 1);
                } catch (NumberFormatException bad) {
                    // reported below
                }
                throw new HostFailure(HostCode.WORKBOOK, name + " has a bad repeat count " + firstLine(n));
            }

            @Override public void close() {
                try { r.close(); } catch (XMLStreamException ignored) { /* closing */ }
                try { in.close(); } catch (IOException ignored) { /* closing */ }
                try { zip.close(); } catch (IOException ignored) { /* closing */ }
            }
        }
    }
}
