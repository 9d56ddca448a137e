package dev.finch.host.words;

import dev.finch.host.FileHost;
import dev.finch.host.ProcessHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.RunHost;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import de.siegmar.fastcsv.reader.CloseableIterator;
import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.finch.capabilities.Attempt;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.PathValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.StreamValue;
import dev.finch.vm.value.Unit;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import dev.finch.vm.value.ListValue;

/**
 * The host words, called from both tiers. Each computes its concrete capability requirement from its refined
 * arguments (never by string replacement: the selector is built from the canonical path's parts) and passes the
 * boundary ({@link RunHost#await}); the binding runs only after authorization, at most once.
 */
public final class HostWords {
    private HostWords() { }

    static final long MAX_SLICE = 8L << 20;
    static final int MAX_TREE = 100_000;
    static final int MAX_LINE = 1 << 20;

    // ---- refinement: pure, but refuses escapes ----

    @Word(name = "path", category = Category.FILE, doc = "Refine a relative name into a workspace path; '..', absolute names, NUL and wildcards are refused.")
    @Overload(sig = "string -> path", refines = true)
    public static Object path(Ctx ctx, String text, Origin o) { return refine(Root.WORKSPACE, text, o); }

    @Word(name = "host-path", category = Category.FILE, doc = "Refine a relative name under the installed root<host-machine>.")
    @Overload(sig = "string -> path<host-machine>", refines = true)
    public static Object hostPath(Ctx ctx, String text, Origin o) { return refine(Root.HOST_MACHINE, text, o); }

    @Word(name = "project-path", category = Category.FILE, doc = "Refine a relative name under the installed root<project>.")
    @Overload(sig = "string -> path<project>", refines = true)
    public static Object projectPath(Ctx ctx, String text, Origin o) { return refine(Root.PROJECT, text, o); }

    @Word(name = "task-output-path", category = Category.FILE, doc = "Refine a relative name under the installed root<task.output>.")
    @Overload(sig = "string -> path<task.output>", refines = true)
    public static Object taskOutputPath(Ctx ctx, String text, Origin o) { return refine(Root.TASK_OUTPUT, text, o); }

    private static Object refine(Root root, String text, Origin o) {
        Attempt<ConcretePath> p = ConcretePath.of(root, text, o);
        if (!p.isOk()) {
            var d = p.refusal().orElseThrow();
            throw new FinchTrap(HostCode.ESCAPE, new dev.finch.ir.diag.Diagnostic(d.phase(), d.code(), d.message(), o, d.expected(), d.found()));
        }
        return new PathValue(p.value());
    }

    /** The canonical path a {@code path} value holds (for the word libraries that read files: workbooks). */
    public static ConcretePath concrete(Object path) { return ((PathValue) path).path(); }

    // The requirement templates, one definition each: the declarations below name them (the verifier instantiates
    // them where the arguments are known) and every call instantiates them again with its canonical path.
    /** The template of reading one file: {@code fs.read($0)}. */
    public static final String READ = "fs.read($0)";
    static final String WRITE = "fs.write($0)";
    static final String READ_TREE = "fs.read($0/**)";
    static final String RUN = "process.run($0)";

    /**
     * The templates, parsed once when a host word first needs one: a holder, so that building the library (which reads
     * this class's stream openers) compiles no regular expression in a fresh JVM.
     */
    private static final class Templates {
        static final java.util.Map<String, dev.finch.ir.vocab.RequirementTemplate> ALL = java.util.Map.of(
                READ, template(READ), WRITE, template(WRITE), READ_TREE, template(READ_TREE), RUN, template(RUN));
    }

    private static dev.finch.ir.vocab.RequirementTemplate template(String text) {
        return dev.finch.ir.vocab.RequirementTemplate.parse(text).orElseThrow();
    }

    /** A template (parsed once) instantiated with the one argument every host word's template names. */
    private static Capability instantiate(String template, String argument) {
        return Templates.ALL.get(template).instantiate(i -> argument).orElseThrow();
    }

    /** {@link #READ} instantiated with {@code p}. */
    public static Capability read(ConcretePath p) { return instantiate(READ, p.toString()); }

    private static Capability write(ConcretePath p) { return instantiate(WRITE, p.toString()); }

    /** The run's file host. */
    public static FileHost files(Ctx ctx) throws HostFailure {
        FileHost f = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(FileHost.class);
        if (f == null) throw new HostFailure(HostCode.NO_BINDING, "no file host is installed");
        return f;
    }

    // ---- files ----

    /**
     * Availability comes before authorization: asking a person to approve an operation that cannot happen here
     * (no file host, root not installed) would be a prompt for nothing. Every file host says which roots it serves
     * ({@link FileHost#installed}), the embedder's own as much as the local one. Deferred hosts provide their own bindings.
     */
    public static void available(Ctx ctx, ConcretePath p, Origin o) {
        if (dev.finch.vm.boundary.RunHost.of(ctx).config().deferred() || ctx.takeResumePeek()) return;
        FileHost f = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(FileHost.class);
        // Said where it is fixed: the command line's flags (finch run, repl, mcp), or the embedder's session options.
        if (f == null) {
            throw new FinchTrap(HostCode.NO_BINDING, o, "no file host is installed in this session: it has no workspace or other root "
                    + "(on the command line, --workspace DIR; embedded, SessionOptions.withWorkspace)");
        }
        if (!f.installed(p.root())) {
            throw new FinchTrap(HostCode.NOT_INSTALLED, o, p.root() + " is not installed on this host (on the command line, --" + flag(p.root())
                    + " DIR; embedded, SessionOptions.withRoot)");
        }
    }

    /** The command line's flag that installs {@code root}. */
    private static String flag(dev.finch.capabilities.Root root) {
        return switch (root) {
            case WORKSPACE -> "workspace";
            case PROJECT -> "project";
            case TASK_OUTPUT -> "task-output";
            case HOST_MACHINE -> "host-root";
        };
    }

    @Word(name = "file-read", category = Category.FILE, doc = "The bytes of a workspace file.")
    @Overload(sig = "path -> bytes ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object fileRead(Ctx ctx, Object path, Type.Fn site, Origin o) { return read(ctx, "file-read", path, site, o); }

    @Word(name = "host-file-read", category = Category.FILE, doc = "The bytes of a file under root<host-machine>.")
    @Overload(sig = "path<host-machine> -> bytes ! {fs.read(${host-machine}/**)}", requires = READ)
    public static Object hostFileRead(Ctx ctx, Object path, Type.Fn site, Origin o) { return read(ctx, "host-file-read", path, site, o); }

    @Word(name = "project-file-read", category = Category.FILE, doc = "The bytes of a file under root<project>.")
    @Overload(sig = "path<project> -> bytes ! {fs.read(${project}/**)}", requires = READ)
    public static Object projectFileRead(Ctx ctx, Object path, Type.Fn site, Origin o) { return read(ctx, "project-file-read", path, site, o); }

    @Word(name = "task-output-file-read", category = Category.FILE, doc = "The bytes of a file under root<task.output>.")
    @Overload(sig = "path<task.output> -> bytes ! {fs.read(${task.output}/**)}", requires = READ)
    public static Object taskOutputFileRead(Ctx ctx, Object path, Type.Fn site, Origin o) { return read(ctx, "task-output-file-read", path, site, o); }

    @Word(name = "host-file-write", category = Category.FILE, doc = "Replace a file under root<host-machine>.")
    @Overload(sig = "path<host-machine> bytes -> ! {fs.write(${host-machine}/**)}", requires = WRITE)
    public static void hostFileWrite(Ctx ctx, Object path, Object bytes, Type.Fn site, Origin o) { write(ctx, "host-file-write", path, bytes, site, o); }

    @Word(name = "project-file-write", category = Category.FILE, doc = "Replace a file under root<project>.")
    @Overload(sig = "path<project> bytes -> ! {fs.write(${project}/**)}", requires = WRITE)
    public static void projectFileWrite(Ctx ctx, Object path, Object bytes, Type.Fn site, Origin o) { write(ctx, "project-file-write", path, bytes, site, o); }

    @Word(name = "task-output-file-write", category = Category.FILE, doc = "Replace a file under root<task.output>.")
    @Overload(sig = "path<task.output> bytes -> ! {fs.write(${task.output}/**)}", requires = WRITE)
    public static void taskOutputFileWrite(Ctx ctx, Object path, Object bytes, Type.Fn site, Origin o) { write(ctx, "task-output-file-write", path, bytes, site, o); }

    /** The envelope names the word that was called, so an audit log can tell the roots apart. */
    private static Object read(Ctx ctx, String word, Object path, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        long max = Math.min(dev.finch.vm.boundary.RunHost.of(ctx).config().maxFileReadBytes(), ctx.maxMemoryBytes());
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, word, read(p), EffectRequest.inputs(site, path), site.outs(), o,
                () -> Bytes.wrap(files(ctx).read(p, max)));
    }

    @Word(name = "file-write", category = Category.FILE, doc = "Replace a workspace file's bytes, creating the file if needed; its directory must exist.")
    @Overload(sig = "path bytes -> ! {fs.write(${workspace}/**)}", requires = WRITE)
    public static void fileWrite(Ctx ctx, Object path, Object bytes, Type.Fn site, Origin o) { write(ctx, "file-write", path, bytes, site, o); }

    private static void write(Ctx ctx, String word, Object path, Object bytes, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        byte[] data = ((Bytes) bytes).toArray();
        dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, word, write(p), EffectRequest.inputs(site, path, bytes), site.outs(), o, () -> {
            files(ctx).write(p, data);
            return Unit.INSTANCE;
        });
    }

    @Word(name = "file-size", category = Category.FILE, doc = "A workspace file's size in bytes.")
    @Overload(sig = "path -> int ! {fs.read(${workspace}/**)}", requires = READ)
    public static long fileSize(Ctx ctx, Object path, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        Object v = dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "file-size", read(p), EffectRequest.inputs(site, path), site.outs(), o, () -> files(ctx).size(p));
        return v == null ? 0 : (Long) v;
    }

    @Word(name = "file-slice", category = Category.FILE, doc = "Up to length bytes from offset (at most 8 MiB; shorter at end of file).")
    @Overload(sig = "path int int -> bytes ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object fileSlice(Ctx ctx, Object path, long offset, long length, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        if (offset < 0 || length < 0) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "file-slice needs a non-negative offset and length");
        if (length > MAX_SLICE) throw new FinchTrap(HostCode.TOO_LARGE, o, "file-slice length " + length + " exceeds 8 MiB");
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "file-slice", read(p), EffectRequest.inputs(site, path, offset, length),
                site.outs(), o, () -> Bytes.wrap(files(ctx).slice(p, offset, (int) length)));
    }

    @Word(name = "tree-list", category = Category.FILE, doc = "Up to max entries under a directory, sorted, no symlinks (at most 100,000).")
    @Overload(sig = "path int -> record{entries:list<record{kind:string,path:string,size:int}>,truncated:bool} ! {fs.read(${workspace}/**)}", requires = READ_TREE)
    public static Object treeList(Ctx ctx, Object path, long max, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        if (max < 0 || max > MAX_TREE) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "tree-list takes 0 to 100000 entries, not " + max);
        Capability req = instantiate(READ_TREE, p.toString());
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "tree-list", req, EffectRequest.inputs(site, path, max), site.outs(), o, () -> {
            FileHost.Listing l = files(ctx).list(p, (int) max);
            List<Object> entries = new ArrayList<>();
            // record{kind,path,size} in canonical (sorted) field order.
            for (FileHost.Entry e : l.entries()) entries.add(new RecordValue(new Object[] {e.kind(), e.path(), e.size()}));
            return new RecordValue(new Object[] {ListValue.from(entries), l.truncated()});
        });
    }

    // ---- streams ----

    @Word(name = "file-lines-open", category = Category.FILE, doc = "Open a run-owned stream of the file's lines, each without its line end (\\n or \\r\\n), at most 1 MiB.")
    @Overload(sig = "path -> stream<string> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object fileLinesOpen(Ctx ctx, Object path, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "file-lines-open", read(p), EffectRequest.inputs(site, path), site.outs(), o,
                () -> RunStreams.open(ctx, StreamOpeners.LINES, p, null, linesSource(ctx, p)));
    }

    /** A source of {@code p}'s lines, each decoded strictly by itself. */
    static RunStreams.Source linesSource(Ctx ctx, ConcretePath p) throws HostFailure {
        java.io.InputStream in = new java.io.BufferedInputStream(files(ctx).openBytes(p));
        int[] lineNo = {0};
        return new RunStreams.Source() {
            @Override public Object next(Origin at) {
                try {
                    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
                    int c;
                    boolean any = false;
                    while ((c = in.read()) >= 0) {
                        any = true;
                        if (c == '\n') break;
                        if (line.size() >= MAX_LINE) throw new FinchTrap(HostCode.TOO_LARGE, at, "line " + (lineNo[0] + 1) + " of " + p + " exceeds 1 MiB");
                        line.write(c);
                    }
                    if (!any) return OptionValue.NONE;
                    lineNo[0]++;
                    byte[] bytes = line.toByteArray();
                    int n = bytes.length;
                    if (n > 0 && bytes[n - 1] == '\r') n--;
                    // Each line is decoded strictly on its own, so a bad byte is reported at its own line.
                    String text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                            .decode(java.nio.ByteBuffer.wrap(bytes, 0, n)).toString();
                    return OptionValue.some(text);
                } catch (java.nio.charset.CharacterCodingException e) {
                    throw new FinchTrap(HostCode.IO, at, "line " + lineNo[0] + " of " + p + " is not valid UTF-8");
                } catch (IOException e) {
                    throw new FinchTrap(HostCode.IO, at, "cannot read " + p + ": " + e.getClass().getSimpleName());
                }
            }

            @Override public void close() {
                try { in.close(); } catch (IOException ignored) { /* closing */ }
            }
        };
    }

    /**
     * The line where a quoted field opens and never closes, if any. FastCSV reads such a field to the end of the
     * file; a CSV stream must instead fail with the position (reliability row 7). One extra pass over the bytes.
     */
    private static long unterminatedQuoteLine(java.io.InputStream in) throws IOException {
        try (java.io.InputStream b = new java.io.BufferedInputStream(in)) {
            boolean quoted = false;
            long line = 1;
            long openedAt = 0;
            int c;
            while ((c = b.read()) >= 0) {
                if (c == '"') {
                    quoted = !quoted;
                    if (quoted) openedAt = line;
                } else if (c == '\n') {
                    line++;
                }
            }
            return quoted ? openedAt : 0;
        }
    }

    private static void requireTerminatedQuotes(Ctx ctx, ConcretePath p) throws HostFailure {
        long line;
        try {
            line = unterminatedQuoteLine(files(ctx).openBytes(p));
        } catch (IOException e) {
            throw new HostFailure(HostCode.IO, "cannot read " + p);
        }
        if (line > 0) throw new HostFailure(HostCode.CSV, "malformed CSV in " + p + ": a quoted field opened on line " + line + " is never closed");
    }

    private static CsvReader<CsvRecord> csv(Reader r) {
        return CsvReader.builder().detectBomHeader(false).allowExtraFields(true).allowMissingFields(true)
                .allowExtraCharsAfterClosingQuote(false).ofCsvRecord(withoutBom(r));
    }

    /**
     * {@code r} without a leading U+FEFF: a UTF-8 byte order mark is not part of the first header's name (FastCSV
     * detects one only when it opens the file itself). Lazy, so a decoding error still surfaces where the records are read.
     */
    static Reader withoutBom(Reader r) {
        return new java.io.PushbackReader(r, 1) {
            private boolean checked;

            private void skipBom() throws IOException {
                if (checked) return;
                checked = true;
                int first = super.read();
                if (first >= 0 && first != '\uFEFF') unread(first);
            }

            @Override public int read() throws IOException {
                skipBom();
                return super.read();
            }

            @Override public int read(char[] cbuf, int off, int len) throws IOException {
                skipBom();
                return super.read(cbuf, off, len);
            }
        };
    }

    @Word(name = "csv-open", category = Category.FILE, doc = "Open a run-owned stream of CSV records, the header row first (quoted, comma-bearing and multiline fields).")
    @Overload(sig = "path -> stream<list<string>> ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object csvOpen(Ctx ctx, Object path, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "csv-open", read(p), EffectRequest.inputs(site, path), site.outs(), o,
                () -> RunStreams.open(ctx, StreamOpeners.CSV, p, null, csvSource(ctx, p)));
    }

    /** A source of {@code p}'s CSV records. */
    static RunStreams.Source csvSource(Ctx ctx, ConcretePath p) throws HostFailure {
        requireTerminatedQuotes(ctx, p);
        CsvReader<CsvRecord> reader = csv(files(ctx).open(p));
        CloseableIterator<CsvRecord> it = reader.iterator();
        return new RunStreams.Source() {
            @Override public Object next(Origin at) {
                try {
                    if (!it.hasNext()) return OptionValue.NONE;
                    CsvRecord rec = it.next();
                    return OptionValue.some(ListValue.from(rec.getFields()));
                } catch (CsvParseException | UncheckedIOException e) {
                    throw new FinchTrap(HostCode.CSV, at, "malformed CSV in " + p + ": " + firstLine(e.getMessage()));
                }
            }

            @Override public void close() {
                try { reader.close(); } catch (IOException ignored) { /* closing */ }
            }
        };
    }

    @Word(name = "stream-next", category = Category.FILE, doc = "The next item of a run-owned stream, or none at its end.")
    @Overload(sig = "stream<a> -> option<a>")
    public static Object streamNext(Ctx ctx, Object stream, Origin o) { return RunStreams.of(ctx).next(ctx, open(ctx, stream, o), o); }

    @Word(name = "stream-close", category = Category.FILE, doc = "Release a run-owned stream.")
    @Overload(sig = "stream<a> ->")
    public static void streamClose(Ctx ctx, Object stream, Origin o) { RunStreams.of(ctx).close(open(ctx, stream, o)); }

    @Word(name = "file-lines-next", category = Category.FILE, doc = "Compatibility alias of stream-next for line streams.")
    @Overload(sig = "stream<string> -> option<string>")
    public static Object fileLinesNext(Ctx ctx, Object stream, Origin o) { return streamNext(ctx, stream, o); }

    @Word(name = "file-lines-close", category = Category.FILE, doc = "Compatibility alias of stream-close for line streams.")
    @Overload(sig = "stream<string> ->")
    public static void fileLinesClose(Ctx ctx, Object stream, Origin o) { streamClose(ctx, stream, o); }

    /** The number of {@code stream}, open in this run; else {@code E-HOST} stream-closed. */
    private static long open(Ctx ctx, Object stream, Origin o) {
        StreamValue v = (StreamValue) stream;
        if (!v.owner().equals(dev.finch.vm.boundary.RunHost.of(ctx).executionId()) || !RunStreams.of(ctx).isOpen(v.id())) {
            throw new FinchTrap(HostCode.STREAM_CLOSED, o, "stream " + v + " is closed or belongs to another run");
        }
        return v.id();
    }

    @Word(name = "csv-summary", category = Category.FILE, doc = "Header and per-column facts of at most max_rows records, as json.")
    @Overload(sig = "path int -> json ! {fs.read(${workspace}/**)}", requires = READ)
    public static Object csvSummary(Ctx ctx, Object path, long maxRows, Type.Fn site, Origin o) {
        ConcretePath p = concrete(path);
        available(ctx, p, o);
        if (maxRows < 0 || maxRows > 100_000) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "csv-summary takes 0 to 100000 rows, not " + maxRows);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "csv-summary", read(p), EffectRequest.inputs(site, path, maxRows), site.outs(), o, () -> {
            requireTerminatedQuotes(ctx, p);
            try (CsvReader<CsvRecord> reader = csv(files(ctx).open(p))) {
                java.util.Iterator<CsvRecord> it = reader.iterator();
                return CsvSummary.of(() -> it.hasNext() ? it.next().getFields() : null, (int) maxRows, null);
            } catch (CsvParseException | UncheckedIOException e) {
                throw new HostFailure(HostCode.CSV, "malformed CSV in " + p + ": " + firstLine(e.getMessage()));
            } catch (IOException e) {
                throw new HostFailure(HostCode.IO, "cannot read " + p);
            }
        });
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    // ---- processes ----

    @SuppressWarnings("unchecked")
    @Word(name = "process-run", category = Category.PROCESS, doc = "Run an executable directly (never a shell) with an argument list; bounded time and output.")
    @Overload(sig = "string list<string> -> record{exit:int,stderr:string,stdout:string} ! {process.run(**)}", requires = RUN)
    public static Object processRun(Ctx ctx, String executable, Object arguments, Type.Fn site, Origin o) {
        List<String> args = new ArrayList<>();
        for (Object a : (ListValue) arguments) args.add((String) a);
        if (executable.isEmpty() || executable.indexOf('\0') >= 0 || !executable.startsWith("/")) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "process-run needs an absolute executable path");
        }
        // The prompt shows the requirement: an executable that no grant can spell (capability syntax, odd
        // characters) would make a misleading prompt, so it is refused before any request is made.
        var spec = dev.finch.capabilities.CapabilitySpec.parse("process.run(" + executable + ")");
        if (!spec.isOk() || !spec.value().toString().equals("process.run(" + executable + ")")) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "process-run cannot run '" + executable + "': no grant can name that path");
        }
        for (String a : args) if (a.indexOf('\0') >= 0) throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "process arguments cannot contain NUL");
        // The process host watches the run: a cancellation or the deadline ends the process at once, not at its timeout.
        dev.finch.vm.boundary.Watch watch = () -> java.util.Optional.ofNullable(ctx.stopNow()).map(FinchTrap::getMessage);
        try {
            return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "process-run", instantiate(RUN, executable), EffectRequest.inputs(site, executable, arguments), site.outs(), o, () -> {
                ProcessHost ph = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ProcessHost.class);
                if (ph == null) throw new HostFailure(HostCode.NO_BINDING, "no process host is installed");
                ProcessHost.Completed c = ph.run(executable, args, watch);
                // record{exit,stderr,stdout} in canonical field order.
                return new RecordValue(new Object[] {(long) c.exit(), c.stderr(), c.stdout()});
            });
        } catch (FinchTrap failed) {
            // A run stopped while its process ran reports its own stop (cancelled, deadline), not the kill it caused.
            FinchTrap stop = failed.code() == HostCode.PROCESS ? ctx.stopNow() : null;
            if (stop == null) throw failed;
            throw new FinchTrap(stop.code(), o, stop.getMessage() + " while " + executable + " ran; its processes were killed");
        }
    }

    /** The bounded column aggregate of {@code csv-summary} and {@code workbook-summary}. */
    public static final class CsvSummary {
        private CsvSummary() { }

        /** A source of records: the next one, or null at the end. */
        @FunctionalInterface public interface Records { List<String> next() throws HostFailure; }

        /** The summary of the first row (the header) and at most {@code maxRows} records; {@code sheet} is named when not null. */
        public static Object of(Records records, int maxRows, String sheet) throws HostFailure {
            JsonNodeFactory f = JsonNodeFactory.instance;
            ObjectNode out = f.objectNode();
            if (sheet != null) out.put("sheet", sheet);
            List<String> header = null;
            long[] empty = new long[0];
            long[] nonEmpty = new long[0];
            long[] numeric = new long[0];
            double[] min = new double[0];
            double[] max = new double[0];
            double[] sum = new double[0];
            int rows = 0;
            boolean truncated = false;
            List<String> rec;
            while ((rec = records.next()) != null) {
                if (header == null) {
                    header = rec;
                    int n = header.size();
                    empty = new long[n]; nonEmpty = new long[n]; numeric = new long[n];
                    min = new double[n]; max = new double[n]; sum = new double[n];
                    java.util.Arrays.fill(min, Double.POSITIVE_INFINITY);
                    java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
                    continue;
                }
                if (rows >= maxRows) { truncated = true; break; }
                rows++;
                for (int i = 0; i < header.size(); i++) {
                    String v = i < rec.size() ? rec.get(i).strip() : "";
                    if (v.isEmpty()) { empty[i]++; continue; }
                    nonEmpty[i]++;
                    try {
                        double d = Double.parseDouble(v);
                        if (Double.isFinite(d)) {
                            numeric[i]++;
                            min[i] = Math.min(min[i], d);
                            max[i] = Math.max(max[i], d);
                            sum[i] += d;
                        }
                    } catch (NumberFormatException notNumeric) {
                        // counted as non-empty text
                    }
                }
            }
            ArrayNode h = out.putArray("header");
            ArrayNode cols = out.putArray("columns");
            if (header != null) {
                for (int i = 0; i < header.size(); i++) {
                    h.add(header.get(i));
                    ObjectNode c = cols.addObject();
                    c.put("name", header.get(i));
                    c.put("empty", empty[i]);
                    c.put("non_empty", nonEmpty[i]);
                    c.put("numeric", numeric[i]);
                    if (numeric[i] > 0) {
                        c.put("min", min[i]);
                        c.put("max", max[i]);
                        c.put("mean", sum[i] / numeric[i]);
                    }
                }
            }
            out.put("rows", rows);
            out.put("truncated", truncated);
            return out;
        }
    }

}
