package dev.finch.wordindex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor run by javac over small declarations (finch-vm's annotations stood in for by their shape; the real
 * index is checked against the real annotations by finch-vm's CoreIndexTest): what it writes, and what it refuses.
 */
class WordIndexProcessorTest {
    @TempDir
    Path out;

    /** The annotations' shape, as finch-vm declares them (only what the processor reads). */
    private static final List<JavaFileObject> ANNOTATIONS = List.of(
            source("dev.finch.vm.declare.Intrinsic", "package dev.finch.vm.declare; public enum Intrinsic { NONE, SHUFFLE }"),
            // What the index's method signatures name (javac reads them in the round after it is written).
            source("dev.finch.vm.word.Declaration", "package dev.finch.vm.word; public record Declaration() { }"),
            source("dev.finch.vm.word.WordIndex", "package dev.finch.vm.word; public interface WordIndex { }"),
            source("dev.finch.vm.runtime.Ctx", "package dev.finch.vm.runtime; public final class Ctx { }"),
            source("dev.finch.vm.declare.Word", """
                    package dev.finch.vm.declare;
                    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
                    public @interface Word {
                        String name();
                        dev.finch.ir.vocab.WordSpec.Category category() default dev.finch.ir.vocab.WordSpec.Category.HOST;
                        String doc();
                        boolean foldsLeft() default false;
                        boolean pauses() default false;
                        dev.finch.ir.vocab.Typing typing() default dev.finch.ir.vocab.Typing.ORDINARY;
                        String[] aka() default {};
                    }"""),
            source("dev.finch.vm.declare.Overload", """
                    package dev.finch.vm.declare;
                    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
                    public @interface Overload {
                        String sig();
                        String id() default "";
                        String word() default "";
                        int order() default 0;
                        String requires() default "";
                        boolean refines() default false;
                        dev.finch.vm.declare.Intrinsic intrinsic() default dev.finch.vm.declare.Intrinsic.NONE;
                    }"""));

    @Test void theIndexHoldsEachMembersValuesParsedSignatureAndDescriptor() throws IOException {
        List<Diagnostic<? extends JavaFileObject>> problems = compile(source("demo.Words", """
                package demo;
                import dev.finch.vm.declare.*;
                public final class Words {
                    @Word(name = "swap-ish", category = dev.finch.ir.vocab.WordSpec.Category.STACK, doc = "Says \\"hi\\".\\nTwice.")
                    @Overload(sig = "a b -> b a", intrinsic = dev.finch.vm.declare.Intrinsic.SHUFFLE)
                    public static Object[] swap(Object a, Object b) { return new Object[] {b, a}; }

                    @Word(name = "read-it", doc = "Reads.")
                    @Overload(sig = "path int -> option<record{a:int,b:list<string>}> ! {fs.read(${workspace}/**)}", requires = "fs.read($0)")
                    public static Object read(Object path, long n, dev.finch.ir.type.Type.Fn site) { return null; }

                    @Overload(word = "read-it", id = "read-it-2", order = 1, sig = "-> variant{none|some(int)}")
                    public static java.util.List<String>[] other() { return null; }

                    @Word(name = "tally", doc = "Tallies.", aka = {"count", "\\"n\\""}) @Overload(sig = "string -> list<string>")
                    public static java.util.List<String> tally(dev.finch.vm.runtime.Ctx c, int depth, String s, dev.finch.ir.diag.Origin at) { return null; }

                    @Word(name = "say-bool", doc = "Says.") @Overload(sig = "bool ->")
                    public static void say(boolean b) { }

                    @Word(name = "half", doc = "Halves.") @Overload(sig = "float -> float")
                    public static double half(double x) { return x / 2; }
                }"""));
        assertThat(problems).isEmpty();
        String index = Files.readString(out.resolve("demo/DemoIndex.java"));
        assertThat(index).contains("public final class DemoIndex implements dev.finch.vm.word.WordIndex {")
                .contains("public static final DemoIndex INSTANCE = new DemoIndex();")
                .contains("return DemoIndexCalls.call(n, c, depth, site, at, in);")
                .contains("private static final List<String> CLASSES = List.of(\n            \"demo.Words\");")
                .contains("new Declaration.IndexedMethod(\"demo.Words\", \"swap\", List.of(\"Ljava/lang/Object;\", \"Ljava/lang/Object;\"), \"[Ljava/lang/Object;\", false, false, false, false, 4, this)")
                .contains("new Declaration.WordValues(\"swap-ish\", WordSpec.Category.STACK, \"Says \\\"hi\\\".\\nTwice.\", false, false, Typing.ORDINARY, List.of())")
                .contains("new Declaration.WordValues(\"tally\", WordSpec.Category.HOST, \"Tallies.\", false, false, Typing.ORDINARY, List.of(\"count\", \"\\\"n\\\"\"))")
                .contains("Intrinsic.SHUFFLE")
                .contains("new Declaration.IndexedMethod(\"demo.Words\", \"read\", List.of(\"Ljava/lang/Object;\", \"J\", \"Ldev/finch/ir/type/Type$Fn;\"), \"Ljava/lang/Object;\", false, false, true, false, 2, this)")
                .contains("Optional.of(new RequirementTemplate(\"fs.read\", List.of(new RequirementTemplate.Slot.Arg(0, false))))")
                .contains("new Declaration.IndexedMethod(\"demo.Words\", \"other\", List.of(), \"[Ljava/util/List;\", false, false, false, false, 1, this),\n                null,")
                .contains("\"read-it-2\", \"read-it\", 1,");
        // The interpreter's calls, by number: the inputs cast or unboxed to the parameters, a primitive result boxed.
        String calls = Files.readString(out.resolve("demo/DemoIndexCalls.java"));
        assertThat(calls).contains("case 0: return Double.valueOf(demo.Words.half(((Double) in[0]).doubleValue()));")
                .contains("case 1: return demo.Words.other();")
                .contains("case 2: return demo.Words.read(in[0], ((Long) in[1]).longValue(), site);")
                .contains("case 3: demo.Words.say(((Boolean) in[0]).booleanValue()); return null;")
                .contains("case 4: return demo.Words.swap(in[0], in[1]);")
                .contains("case 5: return demo.Words.tally(c, depth, ((java.lang.String) in[0]), at);");
    }

    @Test void aMalformedSignatureOrTemplateIsACompileError() throws IOException {
        List<Diagnostic<? extends JavaFileObject>> problems = compile(source("demo.Bad", """
                package demo;
                import dev.finch.vm.declare.*;
                public final class Bad {
                    @Word(name = "bad", doc = "Bad.") @Overload(sig = "int -> list<")
                    public static long bad(long a) { return a; }
                    @Word(name = "worse", doc = "Worse.") @Overload(sig = "path -> ! {fs.read(x)}", requires = "fs.read(")
                    public static void worse(Object p) { }
                }"""));
        assertThat(problems).extracting(d -> d.getKind() + " " + d.getMessage(Locale.ROOT))
                .anySatisfy(m -> assertThat(m).startsWith("ERROR malformed signature \"int -> list<\""))
                .anySatisfy(m -> assertThat(m).startsWith("ERROR malformed requirement template \"fs.read(\""));
        assertThat(out.resolve("demo/DemoIndex.java")).doesNotExist();
    }

    @Test void eachTypeIsWrittenAsTheJavaThatMakesItAgain() {
        for (String sig : List.of("a b -> b a", "path<host-machine> -> result<bytes,string>", "-> map<string,json> fiber<int,unit> stream<float>",
                "task<bool> resource<money> -> rec<Tree,variant{leaf|node(record{l:Tree,r:Tree})}>", "xt -> (int -> int ! {model.ask(m)}) yields<int,string>")) {
            Type.Fn fn = TypeSyntax.parseSignature(sig);
            assertThat(WordIndexProcessor.type(fn)).as(sig).startsWith("new Type.Fn(").doesNotContain("null");
        }
        assertThat(WordIndexProcessor.type(TypeSyntax.parseSignature("int -> list<string>")))
                .isEqualTo("new Type.Fn(List.of(Type.Prim.INT), List.of(new Type.ListT(Type.Prim.STRING)), Declaration.effects(), Optional.empty())");
    }

    /** Runs javac with only the processor over the stand-in annotations and {@code src}; its diagnostics. */
    private List<Diagnostic<? extends JavaFileObject>> compile(JavaFileObject src) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> units = new ArrayList<>(ANNOTATIONS);
        units.add(src);
        List<String> options = List.of("-proc:only", "-s", out.toString(), "-d", out.toString(), "-classpath", System.getProperty("java.class.path"),
                "-processor", WordIndexProcessor.class.getName(), "-A" + WordIndexProcessor.OPTION + "=demo.DemoIndex");
        javac.getTask(null, null, diagnostics, options, null, units).call();
        List<Diagnostic<? extends JavaFileObject>> problems = new ArrayList<>();
        for (var d : diagnostics.getDiagnostics()) if (d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING) problems.add(d);
        return problems;
    }

    private static JavaFileObject source(String className, String text) {
        return new SimpleJavaFileObject(URI.create("string:///" + className.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override public CharSequence getCharContent(boolean ignoreEncodingErrors) { return text; }
        };
    }
}
