package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.type.Type;
import dev.finch.vm.CompiledWord;
import dev.finch.vm.VmState;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Compiles one verified module into one hidden class: a static method per word, one for the top-level program,
 * one per closure body and per quoted vocabulary word. Calls inside the module are direct {@code invokestatic};
 * calls to words persisted by earlier submissions go through constant method handles (class data), which the JIT
 * inlines like direct calls. The class is unloadable once nothing references its words.
 */
public final class ModuleCompiler {
    static final String CLASS_NAME = "dev/finch/vm/runtime/FinchCode";
    static final String CTX = Type_.internal(Ctx.class);

    private final CheckedModule module;
    private final VmState state;
    final ClassData data = new ClassData();
    final Map<String, CheckedWord> moduleWords = new LinkedHashMap<>();
    final Map<String, String> methodNames = new LinkedHashMap<>();
    private final ClassWriter cw;
    /** Work queue of extra methods (closure bodies, quote adapters) and the late class-data slots they fill. */
    final List<Extra> extras = new ArrayList<>();

    /** A generated extra method and the class-data slot that will hold its uniform invoker. */
    record Extra(String method, CheckedWord word, boolean closure, int invokerSlot) { }

    private ModuleCompiler(CheckedModule module, VmState state) {
        this.module = module;
        this.state = state;
        this.cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override protected String getCommonSuperClass(String a, String b) { return "java/lang/Object"; }
        };
    }

    /** The compiled module: the main entry and the new words, ready to persist. */
    public record Compiled(MethodHandle main, Map<String, CompiledWord> words, Class<?> generated) { }

    /** Compiles {@code module}, linking to the words of {@code state}. */
    public static Compiled compile(CheckedModule module, VmState state) {
        return new ModuleCompiler(module, state).run();
    }

    private Compiled run() {
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, CLASS_NAME, null, "java/lang/Object", null);
        cw.visitSource(module.source().source(), null);
        int i = 0;
        for (CheckedWord w : module.words()) {
            moduleWords.put(w.name(), w);
            methodNames.put(w.name(), "w" + (i++) + "_" + mangle(w.name()));
        }
        new MethodCompiler(this, module.main(), "main", MethodCompiler.Role.MAIN).compile(cw);
        for (CheckedWord w : module.words()) {
            new MethodCompiler(this, w, methodNames.get(w.name()), MethodCompiler.Role.WORD).compile(cw);
        }
        for (int e = 0; e < extras.size(); e++) {
            Extra x = extras.get(e);
            new MethodCompiler(this, x.word(), x.method(), x.closure() ? MethodCompiler.Role.CLOSURE : MethodCompiler.Role.WORD).compile(cw);
        }
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup().in(Ctx.class);
            MethodHandles.Lookup anchor = MethodHandles.privateLookupIn(Ctx.class, MethodHandles.lookup());
            MethodHandles.Lookup hidden = anchor.defineHiddenClassWithClassData(bytes, data.values, true);
            Class<?> cls = hidden.lookupClass();
            Map<String, CompiledWord> words = new LinkedHashMap<>();
            for (CheckedWord w : module.words()) {
                MethodHandle mh = hidden.findStatic(cls, methodNames.get(w.name()), methodType(w.signature(), false));
                words.put(w.name(), new CompiledWord(w.name(), w.signature(), mh, w.suspends(), w));
            }
            for (Extra x : extras) {
                MethodHandle mh = hidden.findStatic(cls, x.method(), methodType(x.word().signature(), x.closure()));
                data.fill(x.invokerSlot(), Invokers.uniform(mh, x.word().signature(), x.closure()));
            }
            MethodHandle main = hidden.findStatic(cls, "main", MethodType.methodType(void.class, Ctx.class));
            if (lookup == null) throw new IllegalStateException();
            return new Compiled(main, words, cls);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("generated class could not be linked", e);
        }
    }

    /** Persisted word from an earlier submission, if {@code name} is one. */
    CompiledWord persisted(String name) { return state.words().get(name); }

    /** Queues a closure body or quote adapter; returns the class-data slot of its invoker. */
    int addExtra(String prefix, CheckedWord body, boolean closure) {
        int slot = data.reserve();
        extras.add(new Extra(prefix + extras.size(), body, closure, slot));
        return slot;
    }

    /** The JVM method type of a compiled word: {@code (Ctx, int depth[, Object[] captures], ins…) out}. */
    static MethodType methodType(Type.Fn sig, boolean closure) {
        List<Class<?>> params = new ArrayList<>();
        params.add(Ctx.class);
        params.add(int.class);
        if (closure) params.add(Object[].class);
        for (Type t : sig.ins()) params.add(jvmClass(Kind.of(t)));
        Class<?> ret = sig.outs().size() == 1 ? jvmClass(Kind.of(sig.outs().get(0))) : void.class;
        return MethodType.methodType(ret, params);
    }

    static String descriptor(Type.Fn sig, boolean closure) { return methodType(sig, closure).toMethodDescriptorString(); }

    static Class<?> jvmClass(Kind k) {
        return switch (k) {
            case J -> long.class;
            case D -> double.class;
            case Z -> boolean.class;
            case A -> Object.class;
        };
    }

    private static String mangle(String name) {
        StringBuilder b = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (Character.isLetterOrDigit(c) || c == '_') b.append(c);
            else b.append('$').append(Integer.toHexString(c));
        }
        return b.toString();
    }

    CheckedModule module() { return module; }

    /** Small helper for internal names. */
    static final class Type_ {
        static String internal(Class<?> c) { return org.objectweb.asm.Type.getInternalName(c); }
    }

    @SuppressWarnings("unused")
    private static Checked.Target unusedTarget() { return null; }
}
