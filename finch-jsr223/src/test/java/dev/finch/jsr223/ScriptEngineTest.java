package dev.finch.jsr223;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.script.Invocable;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 22, item 4: Finch through javax.script, found by name and extension, with bindings, Invocable and errors. */
class ScriptEngineTest {
    @TempDir Path dir;

    @Test void theManagerFindsEveryNameAndExtension() {
        ScriptEngineManager m = new ScriptEngineManager();
        for (String name : List.of("finch", "finch-lisp", "finch-forth", "finch-norman")) {
            assertThat(m.getEngineByName(name)).as(name).isInstanceOf(FinchScriptEngine.class);
        }
        assertThat(m.getEngineByExtension("lisp").getFactory().getNames()).containsExactly("finch-lisp");
        assertThat(m.getEngineByExtension("fth").getFactory().getNames()).containsExactly("finch-forth");
        assertThat(m.getEngineByExtension("nm").getFactory().getNames()).containsExactly("finch-norman");
        ScriptEngine e = m.getEngineByName("finch");
        assertThat(e.getFactory().getEngineName()).isEqualTo("Finch");
        assertThat(e.getFactory().getLanguageVersion()).isEqualTo("FINCH-VM-TYPED/1");
        assertThat(e.getFactory().getParameter("THREADING")).isNull();
        assertThat(m.getEngineByName("finch-lisp").getFactory().getMethodCallSyntax(null, "sq", "7")).isEqualTo("(sq 7)");
        assertThat(m.getEngineByName("finch-forth").getFactory().getOutputStatement("hi \"x\"")).isEqualTo("\"hi \\\"x\\\"\" say");
    }

    @Test void evalAnswersTheValueLeftOnTopAndStreamsSay() throws Exception {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("finch");
        StringWriter out = new StringWriter();
        e.getContext().setWriter(out);
        assertThat(e.eval("(say \"hello \") (+ 40 2)")).isEqualTo(42L);
        assertThat(out).hasToString("hello ");
        assertThat(e.eval("(define (sq n) (* n n))")).isNull();
        assertThat(e.eval("7 sq")).as("one session: a Lisp definition, then Co-Forth").isEqualTo(49L);
        assertThat(e.eval("(list \"a\" \"b\")")).isEqualTo(List.of("a", "b"));
        assertThat(e.eval("(say \"a\") (yield) (say \"b\")")).isNull();
        assertThat(out).hasToString("hello ab");
    }

    @Test void bindingsAreTypedConstants() throws Exception {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("finch-lisp");
        e.put("n", 41);
        e.put("who", "Ada");
        e.put("scores", List.of(1, 2, 3));
        e.put("person", new Person("Ada", 36));
        assertThat(e.eval("(+ n 1)")).isEqualTo(42L);
        assertThat(e.eval("(match-option (record-get person \"name\") (some v v) (none \"?\"))")).isEqualTo("Ada");
        assertThat(e.eval("(string-append \"hi \" who)")).isEqualTo("hi Ada");
        assertThat(e.eval("(list-length scores)")).isEqualTo(3L);
        e.put("n", 1);
        assertThat(e.eval("(+ n 1)")).as("a new value of the same type").isEqualTo(2L);
        e.put("n", "text");
        assertThatThrownBy(() -> e.eval("n")).isInstanceOf(ScriptException.class).hasMessageContaining("cannot become a string");
        e.getBindings(ScriptContext.ENGINE_SCOPE).remove("n");
        e.put("mixed", Map.of("name", "Ada", "age", 36));
        assertThatThrownBy(() -> e.eval("1")).isInstanceOf(ScriptException.class).hasMessageContaining("binding 'mixed'");
    }

    public record Person(String name, long age) { }

    @Test void diagnosticsAreScriptExceptionsWithTheirPlace() {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("finch");
        e.put(ScriptEngine.FILENAME, "calc.lisp");
        assertThatThrownBy(() -> e.eval("(+ 1\n  (frobnicate 2))")).isInstanceOfSatisfying(ScriptException.class, x -> {
            assertThat(x.getMessage()).contains("E-LISP-102").contains("frobnicate");
            assertThat(x.getFileName()).isEqualTo("calc.lisp");
            assertThat(x.getLineNumber()).isEqualTo(2);
            assertThat(x.getColumnNumber()).isEqualTo(4);
        });
        ScriptEngine forth = new ScriptEngineManager().getEngineByName("finch-forth");
        assertThatThrownBy(() -> forth.eval("1 0 /")).isInstanceOf(ScriptException.class).hasMessageContaining("E-ARITH");
    }

    @Test void aScriptThatNeedsACapabilityIsRefusedAndNothingHappens() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "secret");
        ScriptEngine e = new FinchScriptEngineFactory.Lisp(Finch.builder().build(), SessionOptions.builder().workspace(dir).build())
                .getScriptEngine();
        assertThatThrownBy(() -> e.eval("(file-read (path \"a.txt\"))")).isInstanceOf(ScriptException.class)
                .hasMessageContaining("fs.read");
        assertThat(((FinchScriptEngine) e).session().suspendedExecutions()).as("the paused run was cancelled").isEmpty();
    }

    public interface Quiet {
        long nothing();
    }

    public interface Texty {
        long text() throws ScriptException;
    }

    /** Issue 35 item 8: every refusal carries a stable code (first in its message, and code()); no Java internals in it. */
    @Test void everyRefusalCarriesAStableCodeAndNoJavaInternals() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "secret");
        ScriptEngine e = new FinchScriptEngineFactory.Lisp(Finch.builder().build(), SessionOptions.builder().workspace(dir).build())
                .getScriptEngine();
        Map<String, String> seen = new java.util.LinkedHashMap<>();
        java.util.function.BiConsumer<String, org.assertj.core.api.ThrowableAssert.ThrowingCallable> refused = (expected, call) ->
                assertThatThrownBy(call).isInstanceOfSatisfying(FinchScriptException.class, x -> {
                    seen.put(expected, x.getMessage());
                    assertThat(x.code()).isEqualTo(expected);
                    assertThat(x.getMessage()).startsWith(expected + ": ").doesNotContain("java.").doesNotContain("Exception")
                            .doesNotContain(dir.toString()).doesNotContain("/tmp/finch-");
                    assertThat(x.diagnostics().get(0).code()).isEqualTo(expected);
                });
        refused.accept("E-CAP-014", () -> e.eval("(file-read (path \"a.txt\"))"));
        refused.accept("E-EMBED-003", () -> e.eval("(yield 7)"));
        assertThat(((FinchScriptEngine) e).session().suspendedExecutions()).as("both paused runs were cancelled").isEmpty();

        e.put("t", new Thread(() -> { }));
        refused.accept("E-EMBED-001", () -> e.eval("1"));
        e.getBindings(ScriptContext.ENGINE_SCOPE).remove("t");
        e.put("n", 1);
        e.eval("n");
        e.put("n", "text");
        refused.accept("E-EMBED-002", () -> e.eval("n"));
        e.getBindings(ScriptContext.ENGINE_SCOPE).remove("n");

        java.io.Reader broken = new java.io.Reader() {
            @Override public int read(char[] b, int off, int len) throws java.io.IOException {
                throw new java.io.IOException("cannot read /tmp/finch-workbook-123.bin");
            }

            @Override public void close() { }
        };
        assertThatThrownBy(() -> e.eval(broken)).isInstanceOfSatisfying(FinchScriptException.class, x -> {
            assertThat(x.code()).isEqualTo("E-EMBED-004");
            assertThat(x.getMessage()).doesNotContain("/tmp/finch-workbook");
            assertThat(x.getCause()).as("the host's exception is the cause").hasMessageContaining("/tmp/finch-workbook");
        });

        Invocable inv = (Invocable) e;
        refused.accept("E-EMBED-001", () -> inv.invokeFunction("string-length", new Object()));
        e.eval("(define (nothing) (say \"\"))");
        // A method that declares no ScriptException gets the refusal unchecked, with the same code.
        assertThatThrownBy(() -> inv.getInterface(Quiet.class).nothing()).isInstanceOfSatisfying(FinchScriptException.Unchecked.class,
                x -> assertThat(x.code()).isEqualTo("E-EMBED-005"));
        e.eval("(define (text) \"not a number\")");
        refused.accept("E-EMBED-005", () -> inv.getInterface(Texty.class).text());
        refused.accept("E-LISP-102", () -> e.eval("(frobnicate 1)"));
        assertThat(seen).hasSize(6).allSatisfy((code, message) -> assertThat(message).startsWith(code));
    }

    /**
     * Issue 35 item 8: a writer that fails under say is the host's concern, as any host sink (Session): the script goes
     * on and answers, and nothing of the writer's exception (a host path) reaches it.
     */
    @Test void aFailingWriterDoesNotStopTheScript() throws Exception {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("finch-lisp");
        e.getContext().setWriter(new java.io.Writer() {
            @Override public void write(char[] b, int off, int len) throws java.io.IOException {
                throw new java.io.IOException("disk full at /tmp/finch-out-77.txt");
            }

            @Override public void flush() { }

            @Override public void close() { }
        });
        assertThat(e.eval("(say \"hi\") (string-append \"still \" \"here\")")).isEqualTo("still here");
    }

    public interface Maths {
        long sq(long n);

        String greet(String who);
    }

    @Test void invocableCallsWordsAndInterfacesProxyThem() throws Exception {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("finch-forth");
        e.eval("100 : sq ( int -- int ) dup * ;\n: greet ( string -- string ) \"hi \" swap string-append ;");
        Invocable inv = (Invocable) e;
        assertThat(inv.invokeFunction("sq", 12)).isEqualTo(144L);
        assertThat(inv.invokeFunction("string-length", "héllo")).isEqualTo(5L);
        assertThatThrownBy(() -> inv.invokeFunction("nope", 1)).isInstanceOf(NoSuchMethodException.class);
        assertThatThrownBy(() -> inv.invokeFunction("sq", "x")).isInstanceOf(ScriptException.class);
        Maths m = inv.getInterface(Maths.class);
        assertThat(m.sq(9)).isEqualTo(81);
        assertThat(m.greet("Ada")).isEqualTo("hi Ada");
        assertThatThrownBy(() -> inv.invokeMethod(new Object(), "sq", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test void aConfiguredFactoryGivesItsSessionsTheirAuthority() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "hello");
        ScriptEngine e = new FinchScriptEngineFactory(Finch.builder().build(), SessionOptions.builder().workspace(dir).grants(List.of("fs.read(${workspace}/**)")).build()).getScriptEngine();
        assertThat(e.eval("(match-result (bytes-to-string (file-read (path \"a.txt\"))) (ok t t) (err e \"bad\"))")).isEqualTo("hello");
    }

    /** Issue 42: a script found through ScriptEngineManager gets a workspace and grants from its context. */
    @org.junit.jupiter.api.Test
    void aScriptGetsItsWorkspaceAndGrantsFromTheContext(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("in.txt"), "from the workspace");
        javax.script.ScriptEngine e = new javax.script.ScriptEngineManager().getEngineByName("finch-lisp");
        e.put(FinchScriptEngine.WORKSPACE, dir);
        e.put(FinchScriptEngine.GRANTS, java.util.List.of("fs.read(${workspace}/**)"));
        org.assertj.core.api.Assertions.assertThat(e.eval("(expect-ok (bytes-to-string (file-read (path \"in.txt\"))))"))
                .isEqualTo("from the workspace");
        // Fixed once the session began; a changed or malformed setting is refused with its code.
        e.put(FinchScriptEngine.GRANTS, "fs.write(${workspace}/**)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.eval("1"))
                .isInstanceOfSatisfying(FinchScriptException.class, x -> org.assertj.core.api.Assertions.assertThat(x.code()).isEqualTo("E-EMBED-006"));
        javax.script.ScriptEngine bad = new javax.script.ScriptEngineManager().getEngineByName("finch-lisp");
        bad.put(FinchScriptEngine.WORKSPACE, dir.resolve("in.txt"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bad.eval("1"))
                .isInstanceOfSatisfying(FinchScriptException.class, x -> org.assertj.core.api.Assertions.assertThat(x.code()).isEqualTo("E-EMBED-006"));
        javax.script.ScriptEngine malformed = new javax.script.ScriptEngineManager().getEngineByName("finch-lisp");
        malformed.put(FinchScriptEngine.GRANTS, "fs.read(");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> malformed.eval("1"))
                .isInstanceOfSatisfying(FinchScriptException.class, x -> org.assertj.core.api.Assertions.assertThat(x.code()).isEqualTo("E-EMBED-006"));
    }
}
