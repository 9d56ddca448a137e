package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```java} block of {@code README.md} and {@code docs/*.md} is compiled, and run, here — the markdown
 * is the one copy of each example, so a doc that drifts from the API fails the build.
 *
 * <p><b>What a block is.</b> It starts with the import lines it needs (a reader pastes it into a file and it
 * compiles with {@code finch-core} on the class path; {@code java.lang} needs none, wildcard imports are refused,
 * and an import the code does not use is an error), then either
 * <ul>
 *   <li>one type declaration ({@code class}, {@code record}, {@code interface}, {@code enum}), compiled as a file
 *       of its own, or</li>
 *   <li>statements, compiled as the body of a method {@code static void run() throws Exception} and run.</li>
 * </ul>
 * The blocks of one markdown file are compiled together, as one package, so a statement block may use a type
 * that an earlier block of the same file declares ({@code MemoryFiles}, {@code Units}) without an import; each
 * block's imports are its own. Compilation uses the test class path (every module) with
 * {@code -Xlint:deprecation,removal,unchecked,rawtypes -Werror}, so a snippet that uses a deprecated API fails too.
 * A statement block needs nothing outside the machine: it makes its own inputs (temp directories, files, keys).
 *
 * <p><b>Markers</b> (HTML comments, invisible when the markdown is rendered):
 * <ul>
 *   <li>on the line right before the fence, {@code <!-- compile-only: REASON -->}: compiled but not run — for a
 *       block that calls a real model provider or the network;</li>
 *   <li>on the line right before the fence, {@code <!-- excerpt-of: PATH -->}: compiled but not run, because it
 *       is an excerpt of Finch's own source at {@code PATH} (from the repository root), whose own tests run it:
 *       every non-blank line of the block's code must occur, in order, in that file, and each of its imports must
 *       be one of the file's or name a class of the file's package;</li>
 *   <li>on the line right after the closing fence, {@code <!-- check:} … {@code -->}: Java statements appended to
 *       the block's method (they see its variables, and {@code assertThat} / {@code assertThatThrownBy} of AssertJ),
 *       asserting what the block produces — the behavioural checks, kept beside the code they check.</li>
 * </ul>
 * A block that declares a type and is not compile-only must be used by a block of its file that runs. Any other
 * HTML comment right before or after a java fence is an error, so a misspelt marker cannot silently change what runs.
 */
class DocsJavaBlocksTest {
    /** Surefire runs in the module directory; the repository is its parent. */
    static final Path ROOT = Path.of("..");

    private static final Pattern FENCE = Pattern.compile("^```\\s*([A-Za-z0-9_+-]*).*$");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;\\s*$");
    private static final Pattern COMPILE_ONLY = Pattern.compile("^<!-- compile-only: (\\S.*?) -->\\s*$");
    private static final Pattern EXCERPT = Pattern.compile("^<!-- excerpt-of: (\\S+) -->\\s*$");
    private static final Pattern CHECK_START = Pattern.compile("^<!-- check:(.*)$");
    /** Text blocks, strings, chars and comments: what a scan for names must skip (leftmost match wins, as a lexer). */
    private static final Pattern NOT_CODE = Pattern.compile(
            "\"\"\"[\\s\\S]*?\"\"\"|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'|//[^\\n]*|/\\*[\\s\\S]*?\\*/");
    private static final Pattern DECLARATION = Pattern.compile(
            "\\A\\s*(?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*(?:(?:public|protected|private|abstract|final|sealed|non-sealed|strictfp|static)\\s+)*"
                    + "(?:class|record|interface|enum|@interface)\\s+(\\w+)");

    // ------------------------------------------------------------------------------------------------ blocks

    /** How a block is backed: run here, only compiled (with the reason), or an excerpt of a source file. */
    sealed interface Mode {
        record Run() implements Mode { }

        record CompileOnly(String reason) implements Mode { }

        record Excerpt(String path) implements Mode { }
    }

    /** One line of a block, with its line number (1-based) in the markdown file. */
    record Line(int number, String text) { }

    /** One {@code ```java} block: its imports, its code, its marker and its check. */
    record Block(String file, int fence, List<Line> imports, List<Line> code, Mode mode, List<Line> check) {
        String name() { return file + ":" + fence; }

        String codeText() { return code.stream().map(Line::text).collect(Collectors.joining("\n")); }

        /**
         * The declared type's name when the whole block is one type declaration, or empty for statements (which may
         * begin with a local record or class: then code follows the declaration's closing brace).
         */
        Optional<String> declares() {
            String code = stripped(codeText());
            Matcher m = DECLARATION.matcher(code);
            if (!m.find()) return Optional.empty();
            int depth = 0;
            for (int i = code.indexOf('{', m.end()); i >= 0 && i < code.length(); i++) {
                char c = code.charAt(i);
                if (c == '{') depth++;
                if (c == '}' && --depth == 0) return code.substring(i + 1).isBlank() ? Optional.of(m.group(1)) : Optional.empty();
            }
            return Optional.empty();
        }

        String unitName() { return declares().orElse("Block" + fence); }

        boolean runs() { return mode instanceof Mode.Run && declares().isEmpty(); }
    }

    /** The files whose java blocks must be backed: the README and every page of docs/. */
    static List<Path> documents() throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    /** The java blocks of one markdown file, with their markers; a malformed block or marker is an error. */
    static List<Block> extract(String file, String text) {
        List<Block> out = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches()) continue;
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).startsWith("```")) end++;
            if (end >= lines.size()) throw new AssertionError(file + ":" + (i + 1) + ": the code block is not closed");
            if (fence.group(1).toLowerCase(Locale.ROOT).equals("java")) {
                if (!fence.group(1).equals("java")) throw new AssertionError(file + ":" + (i + 1) + ": spell the fence ```java");
                out.add(block(file, lines, i, end));
            }
            i = end;
        }
        return out;
    }

    private static Block block(String file, List<String> lines, int fence, int end) {
        String where = file + ":" + (fence + 1);
        Mode mode = new Mode.Run();
        if (fence > 0 && lines.get(fence - 1).startsWith("<!--")) {
            String before = lines.get(fence - 1);
            Matcher only = COMPILE_ONLY.matcher(before);
            Matcher excerpt = EXCERPT.matcher(before);
            if (only.matches()) mode = new Mode.CompileOnly(only.group(1));
            else if (excerpt.matches()) mode = new Mode.Excerpt(excerpt.group(1));
            else throw new AssertionError(where + ": the comment before a java block must be <!-- compile-only: REASON --> or <!-- excerpt-of: PATH -->, not " + before);
        }
        List<Line> imports = new ArrayList<>();
        List<Line> code = new ArrayList<>();
        for (int k = fence + 1; k < end; k++) {
            String l = lines.get(k);
            if (code.isEmpty() && l.isBlank()) continue;
            if (code.isEmpty() && l.startsWith("import ")) {
                Matcher m = IMPORT.matcher(l);
                if (!m.matches()) throw new AssertionError(file + ":" + (k + 1) + ": cannot read the import " + l);
                if (m.group(3) != null) throw new AssertionError(file + ":" + (k + 1) + ": name each imported type (no wildcard): " + l);
                imports.add(new Line(k + 1, l));
            } else {
                code.add(new Line(k + 1, l));
            }
        }
        if (code.isEmpty()) throw new AssertionError(where + ": the java block has no code");
        List<Line> check = new ArrayList<>();
        if (end + 1 < lines.size() && lines.get(end + 1).startsWith("<!--")) {
            Matcher m = CHECK_START.matcher(lines.get(end + 1));
            if (!m.matches()) throw new AssertionError(file + ":" + (end + 2) + ": the comment after a java block must be <!-- check: … -->");
            int k = end + 1;
            String first = m.group(1);
            while (true) {
                String l = k == end + 1 ? first : lines.get(k);
                int close = l.indexOf("-->");
                String part = close >= 0 ? l.substring(0, close) : l;
                if (!part.isBlank()) check.add(new Line(k + 1, part));
                if (close >= 0) {
                    if (!l.substring(close + 3).isBlank()) throw new AssertionError(file + ":" + (k + 1) + ": text after the check's -->");
                    break;
                }
                if (++k >= lines.size()) throw new AssertionError(file + ":" + (end + 2) + ": the check is not closed with -->");
            }
            if (check.isEmpty()) throw new AssertionError(file + ":" + (end + 2) + ": an empty check");
        }
        return new Block(file, fence + 1, List.copyOf(imports), List.copyOf(code), mode, List.copyOf(check));
    }

    /** {@code text} with strings, chars and comments blanked: what names a scan may find. */
    static String stripped(String text) { return NOT_CODE.matcher(text).replaceAll(" "); }

    // ------------------------------------------------------------------------------------------------ the tests

    @TestFactory
    Stream<DynamicNode> everyJavaBlockCompilesAndRuns() throws IOException {
        List<DynamicNode> files = new ArrayList<>();
        int total = 0;
        for (Path doc : documents()) {
            String file = ROOT.relativize(doc).toString().replace('\\', '/');
            List<Block> blocks = extract(file, Files.readString(doc, StandardCharsets.UTF_8));
            if (blocks.isEmpty()) continue;
            total += blocks.size();
            Compiled compiled = compile(file, blocks);
            List<DynamicTest> tests = new ArrayList<>();
            for (Block b : blocks) tests.add(DynamicTest.dynamicTest(b.name() + " " + describe(b), () -> check(b, blocks, compiled)));
            files.add(DynamicContainer.dynamicContainer(file, tests));
        }
        int found = total;
        files.add(DynamicTest.dynamicTest("the docs hold their java blocks",
                () -> assertThat(found).as("java blocks in README.md and docs/").isGreaterThanOrEqualTo(28)));
        return files.stream();
    }

    private static String describe(Block b) {
        if (b.mode() instanceof Mode.CompileOnly) return "(compile-only)";
        if (b.mode() instanceof Mode.Excerpt e) return "(excerpt of " + e.path() + ")";
        return b.declares().map(n -> "(declares " + n + ")").orElse("(runs)");
    }

    private static void check(Block b, List<Block> all, Compiled compiled) throws Throwable {
        List<String> unused = unusedImports(b);
        assertThat(unused).as("%s imports what its code does not use", b.name()).isEmpty();
        List<String> errors = compiled.errors().getOrDefault(b.unitName(), List.of());
        assertThat(errors).as("%s does not compile", b.name()).isEmpty();
        if (b.mode() instanceof Mode.Excerpt e) {
            excerpt(b, e.path());
        } else if (b.mode() instanceof Mode.Run && b.declares().isPresent()) {
            String type = b.declares().get();
            Pattern use = Pattern.compile("\\b" + Pattern.quote(type) + "\\b");
            assertThat(all).as("%s declares %s, which no block of %s that runs uses (use it, or mark it compile-only)", b.name(), type, b.file())
                    .anyMatch(o -> o.runs() && use.matcher(stripped(o.codeText() + "\n" + text(o.check()))).find());
        } else if (b.runs()) {
            assertThat(compiled.loader()).as("%s is not run: other blocks of %s do not compile (%s)", b.name(), b.file(),
                    String.join(", ", compiled.errors().keySet())).isPresent();
            run(b, compiled.loader().get());
        }
    }

    private static void run(Block b, ClassLoader loader) throws Throwable {
        Class<?> unit = Class.forName(packageOf(b.file()) + "." + b.unitName(), true, loader);
        Throwable[] failure = new Throwable[1];
        HangGuard.run(b.name(), () -> {
            Thread me = Thread.currentThread();
            ClassLoader before = me.getContextClassLoader();
            me.setContextClassLoader(loader);
            try {
                unit.getMethod("run").invoke(null);
            } catch (InvocationTargetException e) {
                failure[0] = e.getCause();
            } finally {
                me.setContextClassLoader(before);
            }
        });
        if (failure[0] instanceof AssertionError a) throw new AssertionError(b.name() + ": " + a.getMessage(), a);
        if (failure[0] != null) throw new AssertionError(b.name() + " threw " + failure[0], failure[0]);
    }

    /** An excerpt's code lines occur in order in its source, and its imports are the source's or its package's. */
    private static void excerpt(Block b, String path) throws IOException {
        Path source = ROOT.resolve(path);
        assertThat(source).as("%s is an excerpt of %s", b.name(), path).isRegularFile();
        List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8).stream().map(String::strip).toList();
        int at = 0;
        for (Line l : b.code()) {
            if (l.text().isBlank()) continue;
            String want = l.text().strip();
            int found = -1;
            for (int k = at; k < lines.size(); k++) {
                if (lines.get(k).equals(want)) { found = k; break; }
            }
            assertThat(found).as("%s:%d is not (or no longer) in %s, after the lines before it: %s", b.file(), l.number(), path, want).isNotNegative();
            at = found + 1;
        }
        String pkg = lines.stream().filter(s -> s.startsWith("package ")).findFirst().map(s -> s.substring(8, s.length() - 1)).orElse("");
        for (Line i : b.imports()) {
            Matcher m = IMPORT.matcher(i.text());
            assertThat(m.matches()).isTrue();
            String name = m.group(2);
            boolean samePackage = m.group(1) == null && name.substring(0, name.lastIndexOf('.')).equals(pkg);
            assertThat(samePackage || lines.contains(i.text().strip()))
                    .as("%s:%d imports what %s does not: %s", b.file(), i.number(), path, i.text()).isTrue();
        }
    }

    /** The imports whose simple name the block's code (outside strings and comments) never mentions. */
    static List<String> unusedImports(Block b) {
        String code = stripped(b.codeText());
        List<String> out = new ArrayList<>();
        for (Line i : b.imports()) {
            Matcher m = IMPORT.matcher(i.text());
            if (!m.matches()) throw new AssertionError(i.text());
            String simple = m.group(2).substring(m.group(2).lastIndexOf('.') + 1);
            if (!Pattern.compile("\\b" + Pattern.quote(simple) + "\\b").matcher(code).find()) out.add(b.file() + ":" + i.number() + " " + i.text());
        }
        return out;
    }

    private static String text(List<Line> lines) { return lines.stream().map(Line::text).collect(Collectors.joining("\n")); }

    // ------------------------------------------------------------------------------------------------ compilation

    /** One markdown file's blocks, compiled: errors by unit name, and a loader for the classes when all compiled. */
    record Compiled(Map<String, List<String>> errors, Optional<ClassLoader> loader) { }

    /** The Java source of one block, line by line, each line with the markdown line it comes from. */
    static List<Line> unit(Block b) {
        List<Line> out = new ArrayList<>();
        out.add(new Line(b.fence(), "package " + packageOf(b.file()) + ";"));
        out.addAll(b.imports());
        if (b.declares().isPresent()) {
            if (!b.check().isEmpty()) throw new AssertionError(b.name() + ": a block that declares a type has no check; check it where it is used");
            out.addAll(b.code());
            return out;
        }
        if (!b.check().isEmpty()) {
            out.add(new Line(b.fence(), "import static org.assertj.core.api.Assertions.assertThat;"));
            out.add(new Line(b.fence(), "import static org.assertj.core.api.Assertions.assertThatThrownBy;"));
        }
        out.add(new Line(b.fence(), "public final class " + b.unitName() + " { public static void run() throws Exception {"));
        out.addAll(b.code());
        out.addAll(b.check());
        out.add(new Line(b.code().get(b.code().size() - 1).number(), "}}"));
        return out;
    }

    /** {@code docs/embedding.md} → {@code finchdocs.docs_embedding}: one package per markdown file. */
    static String packageOf(String file) {
        return "finchdocs." + file.replaceAll("\\.md$", "").replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
    }

    static Compiled compile(String file, List<Block> blocks) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) throw new AssertionError("the tests need a JDK (javax.tools.JavaCompiler), not a JRE");
        Map<String, List<Line>> units = new LinkedHashMap<>();
        List<JavaFileObject> sources = new ArrayList<>();
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (Block b : blocks) {
            String name = b.unitName();
            if (units.containsKey(name)) {
                errors.computeIfAbsent(name, k -> new ArrayList<>()).add(b.name() + ": " + file + " declares " + name + " twice");
                continue;
            }
            List<Line> unit = unit(b);
            units.put(name, unit);
            String text = unit.stream().map(Line::text).collect(Collectors.joining("\n", "", "\n"));
            sources.add(new SimpleJavaFileObject(URI.create("string:///" + packageOf(file).replace('.', '/') + "/" + name + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override public CharSequence getCharContent(boolean ignoreEncodingErrors) { return text; }
            });
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, byte[]> classes = new HashMap<>();
        List<String> options = List.of("-classpath", testClassPath(), "-proc:none", "-implicit:none",
                "-Xlint:deprecation,removal,unchecked,rawtypes", "-Werror");
        boolean ok;
        try (StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
             InMemoryOutput output = new InMemoryOutput(standard, classes)) {
            ok = javac.getTask(null, output, diagnostics, options, null, sources).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR && d.getKind() != Diagnostic.Kind.WARNING && d.getKind() != Diagnostic.Kind.MANDATORY_WARNING) continue;
            String unit = d.getSource() == null ? "" : d.getSource().getName().replaceAll("^.*/", "").replaceAll("\\.java$", "");
            List<Line> lines = units.get(unit);
            int at = lines == null || d.getLineNumber() < 1 || d.getLineNumber() > lines.size() ? 0 : lines.get((int) d.getLineNumber() - 1).number();
            errors.computeIfAbsent(unit, k -> new ArrayList<>()).add(file + ":" + at + ": " + d.getKind().toString().toLowerCase(Locale.ROOT)
                    + ": " + d.getMessage(Locale.ROOT));
        }
        if (!ok && errors.isEmpty()) errors.put("", List.of(file + ": javac failed without a diagnostic"));
        ClassLoader parent = DocsJavaBlocksTest.class.getClassLoader();
        Optional<ClassLoader> loader = ok && errors.isEmpty() ? Optional.of(new ClassLoader(parent) {
            @Override protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name);
                if (b == null) throw new ClassNotFoundException(name);
                return defineClass(name, b, 0, b.length);
            }
        }) : Optional.empty();
        return new Compiled(errors, loader);
    }

    /** Surefire states the test class path in a property (its own class path may be one manifest-only jar). */
    static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** Class files kept in memory, by binary name. */
    static final class InMemoryOutput extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, byte[]> classes;

        InMemoryOutput(StandardJavaFileManager standard, Map<String, byte[]> classes) {
            super(standard);
            this.classes = classes;
        }

        @Override public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override public void close() { classes.put(className, toByteArray()); }
                    };
                }
            };
        }
    }

    // ------------------------------------------------------------------------------------------------ the extractor

    @Test
    void theExtractorReadsImportsCodeAndMarkers() {
        String doc = """
                text
                ```java
                import java.util.List;

                List<String> xs = List.of("a");
                ```
                <!-- check: assertThat(xs).hasSize(1); -->
                <!-- compile-only: calls a real model provider -->
                ```java
                System.out.println("x");
                ```
                ```forth
                1 2 +
                ```
                <!-- excerpt-of: finch-vm/src/main/java/dev/finch/lib/Strings.java -->
                ```java
                public final class Strings { }
                ```
                """;
        List<Block> blocks = extract("x.md", doc);
        assertThat(blocks).hasSize(3);
        Block first = blocks.get(0);
        assertThat(first.fence()).isEqualTo(2);
        assertThat(first.imports()).extracting(Line::text).containsExactly("import java.util.List;");
        assertThat(first.code()).extracting(Line::number).containsExactly(5);
        assertThat(first.check()).extracting(Line::text).containsExactly(" assertThat(xs).hasSize(1); ");
        assertThat(first.runs()).isTrue();
        assertThat(blocks.get(1).mode()).isEqualTo(new Mode.CompileOnly("calls a real model provider"));
        assertThat(blocks.get(2).mode()).isEqualTo(new Mode.Excerpt("finch-vm/src/main/java/dev/finch/lib/Strings.java"));
        assertThat(blocks.get(2).declares()).contains("Strings");
        assertThat(extract("y.md", "```java\nrecord P(long x) { }\nP p = new P(1);\n```\n").get(0).declares()).isEmpty();
        assertThat(unit(first)).extracting(Line::number).startsWith(2, 3).endsWith(5, 7, 5);
    }

    @Test
    void theExtractorRefusesWhatWouldSilentlyChangeWhatRuns() {
        assertThatThrownBy(() -> extract("x.md", "<!-- compile only -->\n```java\nint x = 1;\n```\n")).hasMessageContaining("x.md:2");
        assertThatThrownBy(() -> extract("x.md", "```java\nint x = 1;\n```\n<!-- chek: x == 1 -->\n")).hasMessageContaining("x.md:4");
        assertThatThrownBy(() -> extract("x.md", "```java\nint x = 1;\n```\n<!-- check: assertThat(x).isOne();\n")).hasMessageContaining("not closed");
        assertThatThrownBy(() -> extract("x.md", "```java\nimport java.util.*;\nint x = 1;\n```\n")).hasMessageContaining("wildcard");
        assertThatThrownBy(() -> extract("x.md", "```java\nint x = 1;\n")).hasMessageContaining("not closed");
        assertThatThrownBy(() -> extract("x.md", "```Java\nint x = 1;\n```\n")).hasMessageContaining("```java");
        assertThatThrownBy(() -> extract("x.md", "```java\nimport java.util.List;\n```\n")).hasMessageContaining("no code");
    }

    @Test
    void aBlockThatDoesNotCompileOrFailsItsCheckIsCaught() throws Throwable {
        List<Block> blocks = extract("x.md", """
                ```java
                import java.util.List;

                List<String> xs = List.of("a", "b");
                ```
                <!-- check:
                assertThat(xs).hasSize(3);
                -->
                ```java
                int n = undefined + 1;
                ```
                """);
        Compiled compiled = compile("x.md", blocks);
        assertThat(compiled.errors().get("Block9")).singleElement().asString().startsWith("x.md:10: error: cannot find symbol");
        assertThat(compiled.loader()).isEmpty();
        Compiled good = compile("x.md", blocks.subList(0, 1));
        assertThat(good.errors()).isEmpty();
        assertThatThrownBy(() -> check(blocks.get(0), blocks, good)).hasMessageContaining("x.md:1").hasMessageContaining("size");
    }

    @Test
    void unusedImportsAndUnusedDeclarationsAreCaught() {
        List<Block> blocks = extract("x.md", """
                ```java
                import java.util.List;
                import java.util.Map;

                List<String> xs = List.of("Map");   // a Map in a string or comment is not a use
                ```
                ```java
                public final class Helper { }
                ```
                """);
        assertThat(unusedImports(blocks.get(0))).containsExactly("x.md:3 import java.util.Map;");
        Compiled compiled = compile("x.md", blocks);
        assertThat(compiled.errors()).isEmpty();
        assertThatThrownBy(() -> check(blocks.get(1), blocks, compiled)).hasMessageContaining("declares Helper");
    }
}
