package dev.finch.norman.junit;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanCode;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.SourceLoader;
import dev.finch.norman.UnitTest;
import dev.finch.norman.test.Loaded;
import dev.finch.norman.test.TestHarness;
import dev.finch.norman.test.TestResult;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.ClasspathResourceSelector;
import org.junit.platform.engine.discovery.ClasspathRootSelector;
import org.junit.platform.engine.discovery.PackageSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.ClasspathResourceSource;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.opentest4j.AssertionFailedError;

/**
 * A JUnit Platform engine (id {@code finch-norman}) that runs µNorman unit tests: it finds {@code .nm} files on the
 * test class path — under a selected classpath root or package, a selected resource, or the folders named by
 * {@link NormanSuite} on a selected class (the fallback for Surefire and IDEs, which select classes) — and reports
 * each unit test as a JUnit test named by its source location. A file loads once (whole, before its tests, like
 * {@code finch test}); each test then runs in a fresh world. A file that does not load — not UTF-8, too deep or too
 * long to parse, not well typed, a failing top level — has a test of its own, {@code FILE loads}, which fails with the
 * diagnostics, and its unit tests are skipped: it is never dropped. A {@code use} reads only {@code .nm} resources
 * ({@link SourceLoader#classpath}), so a file cannot have another resource (a properties file) echoed into the report.
 */
public final class NormanTestEngine implements TestEngine {
    /** The engine id (the first segment of every unique id). */
    public static final String ID = "finch-norman";
    private static final String FILE = "file";
    private static final String TEST = "test";
    private static final String SUITE = "suite";

    @Override public String getId() { return ID; }

    @Override public Optional<String> getGroupId() { return Optional.of("dev.finch"); }

    @Override public Optional<String> getArtifactId() { return Optional.of("finch-norman"); }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor engine = new EngineDescriptor(uniqueId, "µNorman");
        ClassLoader loader = loader();
        Discovery d = new Discovery(engine, loader);
        TreeSet<String> files = new TreeSet<>();
        for (ClasspathRootSelector s : request.getSelectorsByType(ClasspathRootSelector.class)) scanRoot(s.getClasspathRoot(), files);
        for (PackageSelector s : request.getSelectorsByType(PackageSelector.class)) scanFolder(loader, s.getPackageName().replace('.', '/'), files);
        for (ClasspathResourceSelector s : request.getSelectorsByType(ClasspathResourceSelector.class)) {
            String name = strip(s.getClasspathResourceName());
            if (name.endsWith(".nm") && loader.getResource(name) != null) files.add(name);
        }
        for (String f : files) d.file(engine, f, null);
        for (ClassSelector s : request.getSelectorsByType(ClassSelector.class)) {
            Class<?> c;
            try {
                c = s.getJavaClass();
            } catch (RuntimeException | LinkageError e) {
                continue; // not loadable here: another engine's business
            }
            d.suite(c, null, null);
        }
        for (UniqueIdSelector s : request.getSelectorsByType(UniqueIdSelector.class)) {
            List<UniqueId.Segment> segs = s.getUniqueId().getSegments();
            if (segs.size() < 2 || !segs.get(0).getValue().equals(ID)) continue;
            String test = null;
            if (segs.get(1).getType().equals(SUITE)) {
                Class<?> c;
                try {
                    c = Class.forName(segs.get(1).getValue(), false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                String file = segs.size() >= 3 && segs.get(2).getType().equals(FILE) ? segs.get(2).getValue() : null;
                if (segs.size() >= 4 && segs.get(3).getType().equals(TEST)) test = segs.get(3).getValue();
                d.suite(c, file, test);
            } else if (segs.get(1).getType().equals(FILE)) {
                if (segs.size() >= 3 && segs.get(2).getType().equals(TEST)) test = segs.get(2).getValue();
                d.file(engine, segs.get(1).getValue(), test);
            }
        }
        return engine;
    }

    private static ClassLoader loader() {
        ClassLoader c = Thread.currentThread().getContextClassLoader();
        return c != null ? c : NormanTestEngine.class.getClassLoader();
    }

    /** Builds the tree: suites (classes) hold files, files hold their unit tests; each node is added once. */
    private static final class Discovery {
        private final EngineDescriptor engine;
        private final ClassLoader loader;
        private final SourceLoader sources;
        private final Norman frontend;

        Discovery(EngineDescriptor engine, ClassLoader loader) {
            this.engine = engine;
            this.loader = loader;
            this.sources = SourceLoader.classpath(loader);
            this.frontend = new Norman(sources);
        }

        /** The files of a {@link NormanSuite} class (all, or one), under a container named after the class. */
        void suite(Class<?> c, String onlyFile, String onlyTest) {
            NormanSuite suite = c.getAnnotation(NormanSuite.class);
            if (suite == null) return;
            UniqueId id = engine.getUniqueId().append(SUITE, c.getName());
            TestDescriptor node = engine.findByUniqueId(id).orElse(null);
            if (node == null) {
                node = new NormanSuiteDescriptor(id, c);
                engine.addChild(node);
            }
            TreeSet<String> files = new TreeSet<>();
            for (String folder : suite.value()) scanFolder(loader, strip(folder), files);
            for (String f : files) if (onlyFile == null || onlyFile.equals(f)) file(node, f, onlyTest);
        }

        /** A file under {@code parent} with its unit tests (all, or the one at {@code onlyTest}, "line:col"). */
        void file(TestDescriptor parent, String resource, String onlyTest) {
            UniqueId fileId = parent.getUniqueId().append(FILE, resource);
            NormanFileDescriptor file = (NormanFileDescriptor) parent.findByUniqueId(fileId).orElse(null);
            boolean fresh = file == null;
            Optional<String> text = sources.read(resource);
            if (fresh) {
                file = new NormanFileDescriptor(fileId, resource, text.orElse(null), ClasspathResourceSource.from(resource));
                parent.addChild(file);
            }
            List<UnitTest> tests = List.of();
            boolean loads = text.isPresent();
            if (loads) {
                try {
                    NormanProgram p = frontend.check(text.get(), resource);
                    tests = p.tests();
                    loads = p.ok();
                } catch (RuntimeException | StackOverflowError e) {
                    loads = false; // the load at execution reports it
                }
            }
            // A file that does not load has a failing test of its own, so JUnit cannot drop it as an empty container.
            UniqueId loadId = fileId.append(TEST, NormanLoadDescriptor.SEGMENT);
            if (!loads && file.findByUniqueId(loadId).isEmpty()) file.addChild(new NormanLoadDescriptor(fileId, resource, ClasspathResourceSource.from(resource)));
            for (int i = 0; i < tests.size(); i++) {
                UnitTest t = tests.get(i);
                String position = t.origin().line() + ":" + t.origin().column();
                if (onlyTest != null && !onlyTest.equals(position)) continue;
                UniqueId testId = fileId.append(TEST, position);
                if (file.findByUniqueId(testId).isPresent()) continue;
                file.addChild(new NormanUnitTestDescriptor(testId, t.origin() + " " + t.kind().spelling(),
                        ClasspathResourceSource.from(resource, FilePosition.from(t.origin().line(), t.origin().column())), i));
            }
        }
    }

    @Override
    public void execute(ExecutionRequest request) {
        TestDescriptor root = request.getRootTestDescriptor();
        EngineExecutionListener listener = request.getEngineExecutionListener();
        listener.executionStarted(root);
        try (TestHarness harness = new TestHarness(SourceLoader.classpath(loader()))) {
            for (TestDescriptor child : root.getChildren()) {
                if (child instanceof NormanSuiteDescriptor) {
                    listener.executionStarted(child);
                    for (TestDescriptor f : child.getChildren()) runFile((NormanFileDescriptor) f, harness, listener);
                    listener.executionFinished(child, TestExecutionResult.successful());
                } else {
                    runFile((NormanFileDescriptor) child, harness, listener);
                }
            }
        } catch (RuntimeException e) {
            listener.executionFinished(root, TestExecutionResult.failed(e));
            return;
        }
        listener.executionFinished(root, TestExecutionResult.successful());
    }

    /**
     * Loads one file (once) and runs each of its selected tests in a fresh world. A file that does not load fails its
     * load test (registered now when discovery did not foresee it) and its unit tests are skipped.
     */
    private static void runFile(NormanFileDescriptor file, TestHarness harness, EngineExecutionListener listener) {
        listener.executionStarted(file);
        Loaded loaded = null;
        String failure;
        if (file.text == null) {
            failure = file.resource + ": error[" + NormanCode.TEST_FILE_UNREADABLE.code() + "] cannot read this .nm resource as UTF-8 text";
        } else {
            try {
                loaded = harness.load(file.text, file.resource);
                failure = loaded.ok() ? null : file.resource + " did not load:\n" + render(loaded.diagnostics());
            } catch (RuntimeException | StackOverflowError e) {
                failure = file.resource + ": error[" + dev.finch.SessionCode.INTERNAL.code() + "] an internal error in Finch stopped loading this file"
                        + " (please report it)";
            }
        }
        NormanLoadDescriptor load = null;
        for (TestDescriptor t : file.getChildren()) if (t instanceof NormanLoadDescriptor l) load = l;
        if (failure != null) {
            for (TestDescriptor t : file.getChildren()) if (t != load) listener.executionSkipped(t, "the file did not load");
            if (load == null) {
                load = new NormanLoadDescriptor(file.getUniqueId(), file.resource, ClasspathResourceSource.from(file.resource));
                file.addChild(load);
                listener.dynamicTestRegistered(load);
            }
            listener.executionStarted(load);
            listener.executionFinished(load, TestExecutionResult.failed(new AssertionFailedError(failure)));
            listener.executionFinished(file, TestExecutionResult.successful());
            return;
        }
        if (load != null) {
            listener.executionStarted(load);
            listener.executionFinished(load, TestExecutionResult.successful());
        }
        for (String v : loaded.valFailures()) listener.reportingEntryPublished(file, ReportEntry.from("val", v));
        for (TestDescriptor t : file.getChildren()) {
            if (!(t instanceof NormanUnitTestDescriptor test)) continue;
            listener.executionStarted(test);
            TestResult r = loaded.run(test.index);
            listener.executionFinished(test, r.passed() ? TestExecutionResult.successful()
                    : TestExecutionResult.failed(new AssertionFailedError(r.origin() + ": " + r.kind().spelling() + ": " + r.message())));
        }
        listener.executionFinished(file, TestExecutionResult.successful());
    }

    private static String render(List<Diagnostic> ds) {
        StringBuilder b = new StringBuilder();
        for (Diagnostic d : ds) b.append(d.origin()).append(": error[").append(d.code()).append("] ").append(d.message()).append('\n');
        return b.toString();
    }

    private static String strip(String name) {
        String n = name.startsWith("/") ? name.substring(1) : name;
        return n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
    }

    /** Every .nm file under a classpath folder, in every root (directory or jar) that has it. */
    private static void scanFolder(ClassLoader loader, String folder, TreeSet<String> out) {
        try {
            Enumeration<URL> urls = loader.getResources(folder);
            while (urls.hasMoreElements()) {
                URI uri = urls.nextElement().toURI();
                walk(uri, folder, out);
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            // An unreadable root contributes nothing; the files that were found still run.
        }
    }

    private static void scanRoot(URI root, TreeSet<String> out) {
        try {
            walk(root, "", out);
        } catch (IOException | RuntimeException e) {
            // As above.
        }
    }

    /** Adds the resource names (relative to the root, with {@code prefix}) of the .nm files under {@code uri}. */
    private static void walk(URI uri, String prefix, TreeSet<String> out) throws IOException {
        if ("jar".equals(uri.getScheme())) {
            try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                collect(fs.getPath(prefix.isEmpty() ? "/" : "/" + prefix), prefix, out);
            } catch (java.nio.file.FileSystemAlreadyExistsException e) {
                collect(FileSystems.getFileSystem(uri).getPath(prefix.isEmpty() ? "/" : "/" + prefix), prefix, out);
            }
            return;
        }
        Path p = Path.of(uri);
        if (Files.isRegularFile(p) && p.toString().endsWith(".jar")) {
            try (FileSystem fs = FileSystems.newFileSystem(p)) {
                collect(fs.getPath("/"), "", out);
            }
            return;
        }
        collect(p, prefix, out);
    }

    private static void collect(Path dir, String prefix, TreeSet<String> out) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(f -> f.getFileName() != null && f.getFileName().toString().endsWith(".nm") && Files.isRegularFile(f)).forEach(f -> {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                out.add(prefix.isEmpty() ? rel : prefix + "/" + rel);
            });
        }
    }
}
