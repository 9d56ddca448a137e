package dev.finch.vm.word;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@link Library#core()} is built from the indexes the builds write — the engine's own and each word library's —
 * trusting them; this is where they are checked, each index on its own. The same words read from the annotations by
 * reflection ({@link Library#reflected}, with every check a host's words get) must be the same vocabulary with the same
 * implementations; each indexed method's call number must reach that method; and the index must name every class of
 * its module that declares a word. A declaration changed without the index following (a stale or partial compile)
 * fails here.
 */
class WordIndexTest {

    /** The engine's index and every library's, by name. */
    static Stream<Arguments> indexes() {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("engine", Library.engineIndex()));
        for (WordLibrary l : Library.libraries()) out.add(Arguments.of(l.name(), l.index()));
        return out.stream();
    }

    @Test void theCoreIsTheEnginesWordsAndEveryLibrarysFoundBeside() {
        assertThat(Library.libraries()).extracting(WordLibrary::name).containsExactly("automation", "host", "lib", "net", "workbooks");
        int words = Library.indexed(Library.engineIndex()).vocabulary().words().size();
        for (WordLibrary l : Library.libraries()) words += Library.indexed(l.index()).vocabulary().words().size();
        assertThat(Library.core().vocabulary().words()).hasSize(words);
    }

    @ParameterizedTest(name = "{0}") @MethodSource("indexes")
    void theIndexGivesTheVocabularyAndImplementationsTheAnnotationsDeclare(String name, WordIndex index) {
        Library indexed = Library.indexed(index);
        Library read = Library.reflected(index);
        List<WordSpec> words = read.vocabulary().words();
        assertThat(words).isNotEmpty();
        assertThat(indexed.vocabulary().words()).containsExactlyElementsOf(words);
        assertThat(indexed.vocabulary().fingerprint()).isEqualTo(read.vocabulary().fingerprint());
        assertThat(indexed.impls()).hasSameSizeAs(read.impls());
        for (Impl r : read.impls()) {
            Impl i = indexed.impl(r.overload().id());
            String id = r.overload().id();
            assertThat(i.overload()).as(id).isEqualTo(r.overload());
            assertThat(i.word()).as(id).isEqualTo(r.word());
            assertThat(i.method()).as("%s's method", id).isEqualTo(r.method());
            assertThat(i.special()).as("%s's special", id).isSameAs(r.special());
            assertThat(i.intrinsic()).as("%s's intrinsic", id).isSameAs(r.intrinsic());
            assertThat(List.of(i.takesContext(), i.takesDepth(), i.takesSite(), i.takesOrigin())).as("%s's parameters", id)
                    .isEqualTo(List.of(r.takesContext(), r.takesDepth(), r.takesSite(), r.takesOrigin()));
            if (r.method() != null) assertThat(i.boxed().type()).as("%s's boxed handle", id).isEqualTo(r.boxed().type());
        }
    }

    /**
     * The interpreter calls a library's words through the calls class generated with its index: each indexed method's
     * call number must reach that method (read from the compiled cases, in number order), and nothing else.
     */
    @ParameterizedTest(name = "{0}") @MethodSource("indexes")
    void eachIndexedMethodsCallNumberCallsThatMethod(String name, WordIndex index) throws IOException {
        List<String> called = new ArrayList<>();
        Map<Integer, List<String>> byMethod = new TreeMap<>();
        String calls = index.getClass().getSimpleName() + "Calls.class";
        try (InputStream in = index.getClass().getResourceAsStream(calls)) {
            assertThat(in).as(calls).isNotNull();
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override public MethodVisitor visitMethod(int access, String n, String descriptor, String signature, String[] exceptions) {
                    if (!n.matches("m\\d+")) return null;
                    List<String> found = new ArrayList<>();
                    byMethod.put(Integer.parseInt(n.substring(1)), found);
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override public void visitMethodInsn(int opcode, String owner, String m, String desc, boolean itf) {
                            if (opcode == Opcodes.INVOKESTATIC && owner.startsWith("dev/finch/")) found.add(owner + "." + m + desc);
                        }
                    };
                }
            }, 0);
        }
        for (List<String> c : byMethod.values()) called.addAll(c);
        int methods = 0;
        for (Impl i : Library.indexed(index).impls()) {
            if (i.methodOwner() == null) {
                assertThat(i.call()).as("%s has no call", i).isEqualTo(-1);
                continue;
            }
            methods++;
            assertThat(i.call()).as("%s's call number", i).isBetween(0, called.size() - 1);
            assertThat(called.get(i.call())).as("%s's call", i).isEqualTo(i.methodOwner().replace('.', '/') + "." + i.methodName() + i.methodDescriptor());
        }
        assertThat(called).hasSize(methods);
    }

    @ParameterizedTest(name = "{0}") @MethodSource("indexes")
    void theIndexNamesEveryClassOfItsModuleThatDeclaresAWord(String name, WordIndex index) throws IOException, URISyntaxException {
        Path classes = Path.of(index.getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> declaring = new TreeSet<>();
        if (Files.isDirectory(classes)) {
            try (Stream<Path> files = Files.walk(classes)) {
                files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                    if (declaresWords(f)) declaring.add(classes.relativize(f).toString().replace(".class", "").replace('/', '.'));
                });
            }
        } else {
            try (FileSystem jar = FileSystems.newFileSystem(classes)) {
                Path root = jar.getPath("/");
                try (Stream<Path> files = Files.walk(root)) {
                    files.filter(f -> f.toString().endsWith(".class") && !f.toString().startsWith("/META-INF")).forEach(f -> {
                        if (declaresWords(f)) declaring.add(root.relativize(f).toString().replace(".class", "").replace('/', '.'));
                    });
                }
            }
        }
        assertThat(declaring).isNotEmpty();
        assertThat(index.classes()).containsExactlyInAnyOrderElementsOf(declaring);
    }

    /** True when a member of the compiled class carries {@link Word} or {@link Overload}. */
    private static boolean declaresWords(Path classFile) {
        boolean[] found = new boolean[1];
        AnnotationVisitor none = null;
        try (InputStream in = Files.newInputStream(classFile)) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                            found[0] |= declares(desc);
                            return none;
                        }
                    };
                }

                @Override public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                    return new FieldVisitor(Opcodes.ASM9) {
                        @Override public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                            found[0] |= declares(desc);
                            return none;
                        }
                    };
                }
            }, ClassReader.SKIP_CODE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found[0];
    }

    private static boolean declares(String annotationDescriptor) {
        return annotationDescriptor.equals(org.objectweb.asm.Type.getDescriptor(Word.class))
                || annotationDescriptor.equals(org.objectweb.asm.Type.getDescriptor(Overload.class));
    }
}
