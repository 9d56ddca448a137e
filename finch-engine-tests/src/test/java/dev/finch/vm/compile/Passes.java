package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.forth.CoForth;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.LoopNode;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.word.Library;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The compiler passes' test fixture: Co-Forth lowered by finch-forth and checked by finch-verifier, as a session
 * would submit it, and the nodes of its words the passes decide about.
 */
final class Passes {
    private Passes() { }

    /** The library every test program is verified against and compiled with. */
    static final Library LIBRARY = VmState.EMPTY.library();

    /** {@code text} lowered and verified on an empty stack; the test fails when it is not a valid program. */
    static CheckedModule module(String text) { return module(text, List.of()); }

    /** {@code text} lowered and verified on a stack of {@code stack}'s types (bottom first). */
    static CheckedModule module(String text, List<Type> stack) {
        var env = VmState.EMPTY.environment().withStack(stack);
        Lowering l = new CoForth().lower(text, "test", env);
        assertThat(l.diagnostics()).as("lowering %s", text).isEmpty();
        Verification v = Verifier.verify(l.module().orElseThrow(), env);
        assertThat(v.diagnostics()).as("verifying %s", text).isEmpty();
        return v.module().orElseThrow();
    }

    /** The word {@code name} of {@code m}. */
    static CheckedWord word(CheckedModule m, String name) {
        return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no word " + name));
    }

    /** Every node of {@code b} and of its inner blocks, in text order. */
    static List<Node> nodes(CheckedBlock b) {
        List<Node> out = new ArrayList<>();
        collect(b, out);
        return out;
    }

    private static void collect(CheckedBlock b, List<Node> out) {
        for (Node n : b.nodes()) {
            out.add(n);
            for (CheckedBlock inner : Checked.children(n)) collect(inner, out);
        }
    }

    /** The calls of {@code word} in {@code b}, in text order. */
    static List<Node> calls(CheckedBlock b, String word) {
        return nodes(b).stream().filter(n -> n.kind() == Instr.Kind.CALL && ((CallNode) n).target().name().equals(word)).toList();
    }

    /** The only loop of {@code b}. */
    static LoopNode loop(CheckedBlock b) {
        List<Node> loops = nodes(b).stream().filter(n -> n.kind() == Instr.Kind.LOOP).toList();
        assertThat(loops).hasSize(1);
        return (LoopNode) loops.get(0);
    }

    /**
     * A method compiler of {@code word} of {@code m} as module generation makes one, every word compiled: its module's
     * words and their {@link Bounded} facts known and its named locals' kinds planned — what {@link Strip#plan} reads.
     * Reflection stands in for the generation run that would otherwise set these up while it emits bytecode.
     */
    static MethodCompiler methodCompiler(CheckedModule m, CheckedWord word) {
        try {
            Class<?> persisted = Class.forName(ModuleCompiler.class.getName() + "$PersistedWords");
            Constructor<?> link = persisted.getDeclaredConstructor(VmState.class, Library.class);
            link.setAccessible(true);
            Constructor<ModuleCompiler> make = ModuleCompiler.class.getDeclaredConstructor(CheckedModule.class, VmState.class, Library.class, persisted);
            make.setAccessible(true);
            ModuleCompiler owner = make.newInstance(m, VmState.EMPTY, LIBRARY, link.newInstance(VmState.EMPTY, LIBRARY));
            for (CheckedWord w : m.words()) owner.moduleWords.put(w.name(), w);
            set(owner, "bounded", Bounded.of(m.words(), w -> true, LIBRARY));
            MethodCompiler mc = new MethodCompiler(owner, word, "test", MethodCompiler.Role.WORD);
            @SuppressWarnings("unchecked")
            Map<String, Kind> kinds = (Map<String, Kind>) field(MethodCompiler.class, "namedKinds").get(mc);
            word.locals().forEach((n, t) -> kinds.put(n, Kind.of(t)));
            return mc;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the compiler's internals moved: update Passes.methodCompiler", e);
        }
    }

    private static void set(Object o, String name, Object value) throws ReflectiveOperationException {
        field(o.getClass(), name).set(o, value);
    }

    private static Field field(Class<?> c, String name) throws ReflectiveOperationException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
