package dev.finch.vm.word;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.vocab.WordSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@link Library#core()} is built from the index the build writes ({@code CoreIndex}), trusting it; this is where it
 * is checked. The same library read from the annotations by reflection — with every check a host's words get — must
 * be the same vocabulary with the same implementations, and the index must name every class of finch-vm that
 * declares a word. A declaration changed without the index following (a stale or partial compile) fails here.
 */
class CoreIndexTest {

    @Test void theIndexGivesTheVocabularyAndImplementationsTheAnnotationsDeclare() {
        Library indexed = Library.core();
        Library read = Library.readCore();
        List<WordSpec> words = read.vocabulary().words();
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
     * The interpreter calls Finch's own words through {@code CoreCalls}, generated with the index: each indexed
     * method's call number must reach that method (read from the compiled cases, in number order), and nothing else.
     */
    @Test void eachIndexedMethodsCallNumberCallsThatMethod() throws IOException {
        List<String> called = new java.util.ArrayList<>();
        java.util.Map<Integer, List<String>> byMethod = new java.util.TreeMap<>();
        try (InputStream in = CoreCalls.class.getResourceAsStream("CoreCalls.class")) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                    if (!name.matches("m\\d+")) return null;
                    List<String> calls = new java.util.ArrayList<>();
                    byMethod.put(Integer.parseInt(name.substring(1)), calls);
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override public void visitMethodInsn(int opcode, String owner, String n, String desc, boolean itf) {
                            if (opcode == Opcodes.INVOKESTATIC && owner.startsWith("dev/finch/")) calls.add(owner + "." + n + desc);
                        }
                    };
                }
            }, 0);
        }
        for (List<String> calls : byMethod.values()) called.addAll(calls);
        int methods = 0;
        for (Impl i : Library.core().impls()) {
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

    @Test void theIndexNamesEveryClassOfTheVmThatDeclaresAWord() throws IOException, URISyntaxException {
        Path classes = Path.of(Library.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> declaring = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                if (declaresWords(f)) declaring.add(classes.relativize(f).toString().replace(".class", "").replace('/', '.'));
            });
        }
        assertThat(declaring).hasSizeGreaterThan(10);
        assertThat(CoreIndex.CLASSES).containsExactlyInAnyOrderElementsOf(declaring);
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
