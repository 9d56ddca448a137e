package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.forth;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Outcome;
import dev.finch.Session;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xssf.streaming.SXSSFWorkbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 1: the workbook words through real sessions, over workbooks POI writes at test time (XLSX, XLS), an
 * ODS built as its ZIP of XML, and hostile ones (a zip bomb, an XXE DOCTYPE, a huge shared-string table).
 */
class WorkbookWordsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path ws;

    Session s() { return session(ws, READ_ALL); }

    static String p(String rel) { return "(path " + str(rel) + ")"; }

    static String out(Outcome o) {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return o.output();
    }

    /** Two sheets: Data (a header, typed cells, a formula, a missing row and a missing cell) and Notes. */
    static void fill(Workbook b) {
        Sheet data = b.createSheet("Data");
        Row h = data.createRow(0);
        h.createCell(0).setCellValue("name");
        h.createCell(1).setCellValue("qty");
        h.createCell(2).setCellValue("ok");
        Row r1 = data.createRow(1);
        r1.createCell(0).setCellValue("Lovelace, Ada");
        r1.createCell(1).setCellValue(3);
        r1.createCell(2).setCellValue(true);
        Row r2 = data.createRow(2);
        r2.createCell(0).setCellValue("Hopper");
        r2.createCell(1).setCellValue(4.5);
        // row 3 is missing; row 4 has no first cell and a formula whose cached result is 7.5
        Row r4 = data.createRow(4);
        r4.createCell(1).setCellFormula("B2+B3");
        b.getCreationHelper().createFormulaEvaluator().evaluateAll();
        b.createSheet("Notes").createRow(0).createCell(0).setCellValue("hello");
    }

    static byte[] bytes(Workbook b) throws IOException {
        try (b; ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            fill(b);
            b.write(out);
            return out.toByteArray();
        }
    }

    static byte[] xlsx() throws IOException { return bytes(new XSSFWorkbook()); }

    static byte[] xls() throws IOException { return bytes(new HSSFWorkbook()); }

    /** The same two sheets as an ODS: a ZIP with its mimetype first and content.xml (repeats as office suites write them). */
    static byte[] ods() throws IOException {
        String content = """
                <?xml version="1.0" encoding="UTF-8"?>
                <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
                    xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">
                 <office:body><office:spreadsheet>
                  <table:table table:name="Data">
                   <table:table-row><table:table-cell office:value-type="string"><text:p>name</text:p></table:table-cell>
                    <table:table-cell office:value-type="string"><text:p>qty</text:p></table:table-cell>
                    <table:table-cell office:value-type="string"><text:p>ok</text:p></table:table-cell></table:table-row>
                   <table:table-row><table:table-cell office:value-type="string"><text:p>Lovelace, Ada</text:p></table:table-cell>
                    <table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell>
                    <table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>
                    <table:table-cell table:number-columns-repeated="16381"/></table:table-row>
                   <table:table-row><table:table-cell office:value-type="string"><text:p>Hopper</text:p></table:table-cell>
                    <table:table-cell office:value-type="float" office:value="4.5"><text:p>4.5</text:p></table:table-cell></table:table-row>
                   <table:table-row><table:table-cell table:number-columns-repeated="3"/></table:table-row>
                   <table:table-row><table:table-cell/><table:table-cell table:formula="of:=[.B2]+[.B3]" office:value-type="float" office:value="7.5"><text:p>7.5</text:p></table:table-cell></table:table-row>
                   <table:table-row table:number-rows-repeated="1048571"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
                  </table:table>
                  <table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string"><text:p>hel<text:s/>lo</text:p></table:table-cell></table:table-row></table:table>
                 </office:spreadsheet></office:body>
                </office:document-content>
                """.strip().replace("hel<text:s/>lo", "hello");
        Map<String, byte[]> parts = new LinkedHashMap<>();
        parts.put("mimetype", "application/vnd.oasis.opendocument.spreadsheet".getBytes(StandardCharsets.US_ASCII));
        parts.put("content.xml", content.getBytes(StandardCharsets.UTF_8));
        return zip(parts);
    }

    static byte[] zip(Map<String, byte[]> parts) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (var e : parts.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return out.toByteArray();
    }

    /** The parts of a ZIP, in order, with {@code replaced} put in their place. */
    static byte[] replacing(byte[] zip, Map<String, byte[]> replaced) throws IOException {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(zip))) {
            ZipEntry e;
            while ((e = z.getNextEntry()) != null) parts.put(e.getName(), z.readAllBytes());
        }
        parts.putAll(replaced);
        return zip(parts);
    }

    void put(String name, byte[] data) throws IOException { Files.write(ws.resolve(name), data); }

    @Test
    void xlsxXlsAndOdsReadAlike() throws IOException {
        put("b.xlsx", xlsx());
        put("b.xls", xls());
        put("b.ods", ods());
        Session s = s();
        for (String f : new String[] {"b.xlsx", "b.xls", "b.ods"}) {
            assertThat(out(lisp(s, "(say (show (workbook-sheets " + p(f) + ")))"))).as(f).isEqualTo("[\"Data\",\"Notes\"]");
            String rows = out(lisp(s, "(let ((r (workbook-open " + p(f) + "))) "
                    + "(say (show (stream-next r))) ".repeat(6) + "(stream-close r))"));
            assertThat(rows).as(f).isEqualTo("{\"tag\":\"some\",\"value\":[\"name\",\"qty\",\"ok\"]}"
                    + "{\"tag\":\"some\",\"value\":[\"Lovelace, Ada\",\"3\",\"TRUE\"]}"
                    + "{\"tag\":\"some\",\"value\":[\"Hopper\",\"4.5\"]}"
                    + "{\"tag\":\"some\",\"value\":[]}"
                    + "{\"tag\":\"some\",\"value\":[\"\",\"7.5\"]}"
                    + "{\"tag\":\"none\"}");
            assertThat(out(lisp(s, "(say (show (stream-next (workbook-sheet-open " + p(f) + " \"Notes\"))))")))
                    .as(f).isEqualTo("{\"tag\":\"some\",\"value\":[\"hello\"]}");
            assertThat(out(lisp(s, "(say (show (workbook-range " + p(f) + " \"Data\" 1 1 5 2)))")))
                    .as("%s: zero-based, padded to the columns, cut at the sheet's end", f)
                    .isEqualTo("[[\"3\",\"TRUE\"],[\"4.5\",\"\"],[\"\",\"\"],[\"7.5\",\"\"]]");
            JsonNode summary = JSON.readTree(out(lisp(s, "(say (json-stringify (workbook-summary " + p(f) + " \"Data\" 100)))")));
            assertThat(summary.get("sheet").asText()).isEqualTo("Data");
            assertThat(summary.get("header").toString()).isEqualTo("[\"name\",\"qty\",\"ok\"]");
            assertThat(summary.get("rows").asInt()).as(f).isEqualTo(4);
            JsonNode qty = summary.get("columns").get(1);
            assertThat(qty.get("numeric").asInt()).isEqualTo(3);
            assertThat(qty.get("min").asDouble()).isEqualTo(3.0);
            assertThat(qty.get("max").asDouble()).isEqualTo(7.5);
            assertThat(qty.get("empty").asInt()).isEqualTo(1);
            JsonNode two = JSON.readTree(out(lisp(s, "(say (json-stringify (workbook-summary " + p(f) + " \"Data\" 1)))")));
            assertThat(two.get("rows").asInt()).isEqualTo(1);
            assertThat(two.get("truncated").asBoolean()).isTrue();
        }
        assertThat(forth(s, "\"b.xlsx\" path workbook-sheets").stack()).extracting(e -> e.display()).containsExactly("[\"Data\" \"Notes\"]");
    }

    @Test
    void aLargeStreamedSheetIsReadOneRowAtATime() throws IOException {
        try (SXSSFWorkbook b = new SXSSFWorkbook(100); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            Sheet sh = b.createSheet("big");
            sh.createRow(0).createCell(0).setCellValue("n");
            for (int i = 1; i <= 200_000; i++) sh.createRow(i).createCell(0).setCellValue(i);
            b.write(out);
            put("big.xlsx", out.toByteArray());
        }
        Session s = s();
        assertThat(out(lisp(s, "(let ((r (workbook-open " + p("big.xlsx") + "))) (stream-next r) (say (show (stream-next r))) (stream-close r))")))
                .isEqualTo("{\"tag\":\"some\",\"value\":[\"1\"]}");
        assertThat(out(lisp(s, "(say (show (workbook-range " + p("big.xlsx") + " \"big\" 199999 0 5 1)))"))).isEqualTo("[[\"199999\"],[\"200000\"]]");
        JsonNode summary = JSON.readTree(out(lisp(s, "(say (json-stringify (workbook-summary " + p("big.xlsx") + " \"big\" 100000)))")));
        assertThat(summary.get("rows").asInt()).isEqualTo(100_000);
        assertThat(summary.get("truncated").asBoolean()).isTrue();
        assertThat(summary.get("columns").get(0).get("max").asDouble()).isEqualTo(100_000.0);
    }

    @Test
    void argumentsAndNamesAreChecked() throws IOException {
        put("b.xlsx", xlsx());
        Files.writeString(ws.resolve("not.xlsx"), "name,qty\n");
        Session s = s();
        assertFailed(lisp(s, "(workbook-range " + p("b.xlsx") + " \"Data\" 0 0 101 100)"), "host", "E-HOST-007");
        assertFailed(lisp(s, "(workbook-range " + p("b.xlsx") + " \"Data\" -1 0 1 1)"), "host", "E-HOST-007");
        assertThat(out(lisp(s, "(say (show (workbook-range " + p("b.xlsx") + " \"Data\" 0 0 100 100)))"))).startsWith("[[\"name\",\"qty\",\"ok\",\"\"");
        assertFailed(lisp(s, "(workbook-summary " + p("b.xlsx") + " \"Data\" 100001)"), "host", "E-HOST-007");
        assertFailed(lisp(s, "(workbook-sheet-open " + p("b.xlsx") + " \"Nope\")"), "host", "E-HOST-020");
        assertFailed(lisp(s, "(workbook-sheets " + p("not.xlsx") + ")"), "host", "E-HOST-020");
        assertFailed(lisp(s, "(workbook-sheets " + p("missing.xlsx") + ")"), "host", "E-HOST-004");
        // An XLS is decoded whole, so its bound (16 MiB) is checked before POI sees it: an OLE2 header and padding.
        byte[] big = new byte[(16 << 20) + 1];
        System.arraycopy(new byte[] {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1}, 0, big, 0, 8);
        put("big.xls", big);
        assertFailed(lisp(s, "(workbook-sheets " + p("big.xls") + ")"), "host", "E-HOST-021");
    }

    @Test
    void pathsAreCheckedLikeFileRead() throws IOException {
        Path outside = Files.createDirectories(ws.resolveSibling(ws.getFileName() + "-outside"));
        Files.write(outside.resolve("secret.xlsx"), xlsx());
        Files.createSymbolicLink(ws.resolve("link.xlsx"), outside.resolve("secret.xlsx"));
        Files.createLink(ws.resolve("hard.xlsx"), outside.resolve("secret.xlsx"));
        Session s = s();
        assertFailed(lisp(s, "(workbook-sheets " + p("link.xlsx") + ")"), "host", "E-HOST-003");
        assertFailed(lisp(s, "(workbook-open " + p("hard.xlsx") + ")"), "host", "E-HOST-019");
    }

    @Test
    void aZipBombIsRefused() throws IOException {
        // A sheet of ~20 MB of one repeated row deflates to a few KB: past POI's inflate-ratio bound.
        StringBuilder sheet = new StringBuilder("<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>");
        String row = "<row><c t=\"inlineStr\"><is><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></is></c></row>";
        while (sheet.length() < 20_000_000) sheet.append(row);
        sheet.append("</sheetData></worksheet>");
        put("bomb.xlsx", replacing(xlsx(), Map.of("xl/worksheets/sheet1.xml", sheet.toString().getBytes(StandardCharsets.UTF_8))));
        assertThat(Files.size(ws.resolve("bomb.xlsx"))).isLessThan(200_000);
        // The first row is decoded before much is inflated (streaming); reading on passes the bound.
        assertThat(out(lisp(s(), "(say (show (workbook-range " + p("bomb.xlsx") + " \"Data\" 0 0 1 1)))"))).contains("aaaa");
        Outcome o = lisp(s(), "(say (json-stringify (workbook-summary " + p("bomb.xlsx") + " \"Data\" 100000)))");
        assertFailed(o, "host", "E-HOST-021");
        assertThat(o.diagnostics().get(0).message()).contains("zip bomb");
    }

    @Test
    void anXxeDoctypeIsRefusedAndNothingIsExpanded() throws IOException {
        Path secret = Files.writeString(ws.resolveSibling(ws.getFileName() + "-secret.txt"), "TOP-SECRET");
        String sheet = "<?xml version=\"1.0\"?><!DOCTYPE w [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>&x;</t></is></c></row></sheetData></worksheet>";
        put("xxe.xlsx", replacing(xlsx(), Map.of("xl/worksheets/sheet1.xml", sheet.getBytes(StandardCharsets.UTF_8))));
        Outcome o = lisp(s(), "(say (show (workbook-range " + p("xxe.xlsx") + " \"Data\" 0 0 1 1)))");
        assertFailed(o, "host", "E-HOST-022");
        assertThat(o.output()).doesNotContain("TOP-SECRET");
        // The same DOCTYPE in the workbook part (read by POI's own hardened parser) and in an ODS's content.xml.
        String book = new String(unzip(xlsx()).get("xl/workbook.xml"), StandardCharsets.UTF_8).replaceFirst("\\?>", "?><!DOCTYPE w [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>");
        put("xxe2.xlsx", replacing(xlsx(), Map.of("xl/workbook.xml", book.getBytes(StandardCharsets.UTF_8))));
        Outcome o2 = lisp(s(), "(say (show (workbook-sheets " + p("xxe2.xlsx") + ")))");
        assertThat(o2.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o2.diagnostics().get(0).code()).isEqualTo("E-HOST-022");
        assertThat(o2.output()).doesNotContain("TOP-SECRET");
        byte[] ods = replacing(ods(), Map.of("content.xml", ("<?xml version=\"1.0\"?><!DOCTYPE w [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]><a>&x;</a>")
                .getBytes(StandardCharsets.UTF_8)));
        put("xxe.ods", ods);
        assertFailed(lisp(s(), "(workbook-sheets " + p("xxe.ods") + ")"), "host", "E-HOST-022");
    }

    static Map<String, byte[]> unzip(byte[] zip) throws IOException {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(zip))) {
            ZipEntry e;
            while ((e = z.getNextEntry()) != null) parts.put(e.getName(), z.readAllBytes());
        }
        return parts;
    }

    @Test
    void anOversizedCellIsRefused() throws IOException {
        java.util.Random random = new java.util.Random(7);
        StringBuilder text = new StringBuilder();
        while (text.length() <= 1 << 20) text.append(Long.toString(random.nextLong(), 36));
        String sheet = "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>" + text + "</t></is></c></row></sheetData></worksheet>";
        put("cell.xlsx", replacing(xlsx(), Map.of("xl/worksheets/sheet1.xml", sheet.getBytes(StandardCharsets.UTF_8))));
        Outcome o = lisp(s(), "(workbook-range " + p("cell.xlsx") + " \"Data\" 0 0 1 1)");
        assertFailed(o, "host", "E-HOST-021");
        assertThat(o.diagnostics().get(0).message()).contains("1 Mi characters");
    }

    @Test
    void aHugeSharedStringTableIsRefused() throws IOException {
        // Distinct strings, so the part compresses modestly (not a zip bomb) and the shared-string bound is what refuses it.
        StringBuilder sst = new StringBuilder("<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">");
        java.util.Random random = new java.util.Random(21);
        for (int i = 0; i <= 1_000_000; i++) sst.append("<si><t>").append(Long.toString(random.nextLong(), 36)).append("</t></si>");
        sst.append("</sst>");
        put("sst.xlsx", replacing(xlsx(), Map.of("xl/sharedStrings.xml", sst.toString().getBytes(StandardCharsets.UTF_8))));
        Outcome o = lisp(s(), "(workbook-open " + p("sst.xlsx") + ")");
        assertFailed(o, "host", "E-HOST-021");
        assertThat(o.diagnostics().get(0).message()).contains("shared strings");
    }
}
