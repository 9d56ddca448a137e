package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;

/**
 * Turns one verified module into runnable code, choosing a tier per function. Words compile to static methods of
 * one hidden class (calls inside the module are direct {@code invokestatic}; calls to words persisted by earlier
 * submissions go through constant method handles, which the JIT inlines like direct calls). A module too large for
 * one class (its constant pool or initializer) compiles in several consecutive units, calling each other's words the
 * same way. The top-level program runs once, so without loops it is interpreted — no class is generated for a
 * one-shot program. A function too large for one JVM method falls back to the interpreter. Generated classes are
 * unloadable once nothing references their words.
 */
public final class ModuleCompiler {
    static final String CLASS_NAME = "dev/finch/vm/runtime/FinchCode";
    /** Above this many IR nodes a function is interpreted without trying to compile it. */
    static final int MAX_COMPILED_NODES = 20_000;

    private final CheckedModule module;
    private final VmState state;
    ClassData data;
    final Map<String, CheckedWord> moduleWords = new LinkedHashMap<>();
    final Map<String, String> methodNames = new LinkedHashMap<>();
    /** Extra methods (closure bodies, quote adapters) of the current generation attempt. */
    final List<Extra> extras = new ArrayList<>();
    private final Set<String> interpretedMethods = new HashSet<>();
    private final Map<String, Interpreter> interpreters = new HashMap<>();
    private final Map<String, MethodHandle> compiledHandles = new HashMap<>();
    private final Map<String, MethodHandle> moduleUniform = new HashMap<>();
    private final dev.finch.vm.word.Library library;
    /** The words of earlier submissions the module's interpreted code calls. */
    private final PersistedWords persisted;
    private final Interpreter.Link link = new Interpreter.Link() {
        @Override public Interpreter.Callee callee(String name) { return ModuleCompiler.this.callee(name); }

        @Override public dev.finch.vm.word.Library library() { return library; }
    };
    /** The module's words that can neither loop nor recurse (see {@link Bounded}), for the current generation attempt. */
    private Map<String, Bounded.Fact> bounded = Map.of();
    /** The uniform invoker of each closure literal compiled into the generated class. */
    private final Map<CheckedWord, MethodHandle> closureInvokers = new HashMap<>();
    /** The uniform invoker of each quotation's execution token compiled into the generated class. */
    private final Map<Checked.QuoteNode, MethodHandle> quoteInvokers = new java.util.IdentityHashMap<>();

    /**
     * A generated extra method and the class-data slot that will hold its uniform invoker; {@code site} is the quotation
     * whose execution token it runs, if it is one's.
     */
    record Extra(String method, CheckedWord word, boolean closure, int invokerSlot, Checked.QuoteNode site) { }

    private ModuleCompiler(CheckedModule module, VmState state, dev.finch.vm.word.Library library, PersistedWords persisted) {
        this.module = module;
        this.state = state;
        this.library = library;
        this.persisted = persisted;
    }

    /**
     * The link of interpreted code to the words of earlier submissions (the dictionary of the state it runs on), each
     * through the uniform invoker kept with the word. The whole link of a main alone that runs interpreted.
     */
    private static final class PersistedWords implements Interpreter.Link {
        private final VmState state;
        private final dev.finch.vm.word.Library library;

        PersistedWords(VmState state, dev.finch.vm.word.Library library) {
            this.state = state;
            this.library = library;
        }

        @Override
        public Interpreter.Callee callee(String name) {
            CompiledWord p = state.words().get(name);
            return new Interpreter.Callee(null, p.uniform(Adapt.INSTANCE), p.signature());
        }

        /** A word's handle adapted to the uniform shape; a named class, not a method reference (no lambda to link in a fresh JVM). */
        private static final class Adapt implements java.util.function.BiFunction<MethodHandle, Type.Fn, MethodHandle> {
            static final Adapt INSTANCE = new Adapt();

            @Override public MethodHandle apply(MethodHandle handle, Type.Fn signature) { return Invokers.uniform(handle, signature, false); }
        }

        @Override public dev.finch.vm.word.Library library() { return library; }
    }

    /** The library whose words the module calls (the one it was verified against). */
    dev.finch.vm.word.Library library() { return library; }

    /** A module's top-level program, ready to run on a context: its compiled method, or its interpreter. */
    public interface Main {
        void run(Ctx ctx) throws Throwable;
    }

    /** A compiled main: its method handle, {@code (Ctx) void}. */
    private record CompiledMain(MethodHandle handle) implements Main {
        @Override public void run(Ctx ctx) throws Throwable { handle.invokeExact(ctx); }
    }

    /**
     * The runnable module: its entry (taking the run context), its new words ready to persist, how many classes were
     * generated (none when everything runs interpreted), and which functions run interpreted.
     */
    public record Compiled(Main main, Map<String, CompiledWord> words, int classes, Set<String> interpreted, Remakes remakes)
            implements dev.finch.vm.engine.Remaker {
        /**
         * Remakes a closure literal of this module from its verified body and captured values (a restored run's), in
         * the tier its function was compiled to.
         */
        @Override
        public dev.finch.vm.value.Closure closure(CheckedWord body, Object[] captures) {
            return new dev.finch.vm.value.Closure(remakes.closureInvoker(body), captures, body.signature(), "closure@" + body.origin(), body);
        }

        /** Remakes the execution token of quotation {@code site} of this module, in the tier its function was compiled to. */
        @Override
        public dev.finch.vm.value.Closure quote(Checked.QuoteNode site) { return remakes.quote(site); }
    }

    /**
     * Compiles {@code module}, linking to the words of {@code state} and to {@code library}'s implementations; the
     * top-level program may be interpreted.
     */
    public static Compiled compile(CheckedModule module, VmState state, dev.finch.vm.word.Library library) {
        return compile(module, state, Tiering.AUTO, library);
    }

    /**
     * Which tier runs the functions: chosen per function, or forced (for differential tests and benchmarks). {@code
     * COMPILE_APART} compiles every function as {@code COMPILE_ALL} does, each word in a generated class of its own: the
     * units a submission too large for one class is cut into, at their finest, so every call between words crosses
     * units.
     */
    public enum Tiering { AUTO, COMPILE_ALL, INTERPRET_ALL, COMPILE_APART }

    public static Compiled compile(CheckedModule module, VmState state, Tiering tiering, dev.finch.vm.word.Library library) {
        // Choose tiers: the main is interpreted when told to, when it has no loop (AUTO), or when it is too large.
        Checked.CheckedBlock mainBody = module.main().body();
        boolean mainInterpreted = tiering == Tiering.INTERPRET_ALL || tiering == Tiering.AUTO && !Loops.has(mainBody)
                || Loops.size(mainBody) > MAX_COMPILED_NODES;
        PersistedWords persisted = new PersistedWords(state, library);
        if (module.words().isEmpty() && mainInterpreted) {
            // A main alone that runs interpreted (most programs a model writes): nothing to generate or link, the main's
            // interpreter is the whole module, linked to the earlier submissions' words alone — no compiler is made.
            return new Compiled(new Interpreter(module.main(), persisted), Map.of(), 0, Set.of("main"), new Remakes(Map.of(), Map.of(), persisted));
        }
        return new ModuleCompiler(module, state, library, persisted).run(tiering, mainInterpreted);
    }

    private Compiled run(Tiering tiering, boolean mainInterpreted) {
        int i = 0;
        for (CheckedWord w : module.words()) {
            moduleWords.put(w.name(), w);
            methodNames.put(w.name(), "w" + (i++) + "_" + mangle(w.name()));
        }
        methodNames.put("main", "main");
        if (mainInterpreted) interpretedMethods.add("main");
        wordSizes = new int[module.words().size()];
        for (int k = 0; k < wordSizes.length; k++) {
            CheckedWord w = module.words().get(k);
            if (tiering == Tiering.INTERPRET_ALL) {
                interpretedMethods.add(methodNames.get(w.name()));
            } else {
                wordSizes[k] = Loops.size(w.body());
                if (wordSizes[k] > MAX_COMPILED_NODES) interpretedMethods.add(methodNames.get(w.name()));
            }
        }
        List<Unit> units = List.of();
        if (needsClass()) {
            // Most modules are one class; a submission too large for one class's constant pool or initializer compiles
            // in several, each smaller than the last attempt's budget.
            for (int budget = tiering == Tiering.COMPILE_APART ? 1 : UNIT_NODES; ; budget /= 2) {
                List<List<CheckedWord>> parts = partition(budget);
                try {
                    units = defineUnits(parts);
                    break;
                } catch (UnitTooLarge e) {
                    if (parts.stream().allMatch(p -> p.size() <= 1)) throw e.cause;
                }
            }
        }
        try {
            for (Unit u : units) {
                for (CheckedWord w : u.words()) {
                    if (isInterpreted(w.name())) continue;
                    compiledHandles.put(w.name(), u.lookup().findStatic(u.cls(), methodNames.get(w.name()), methodType(w.signature(), false)));
                }
            }
            for (Unit u : units) {
                for (Extra x : u.extras()) {
                    MethodHandle uniform = interpretedMethods.contains(x.method())
                            ? new Interpreter(x.word(), link).uniform()
                            : Invokers.uniform(u.lookup().findStatic(u.cls(), x.method(), methodType(x.word().signature(), x.closure())), x.word().signature(), x.closure());
                    u.data().fill(x.invokerSlot(), uniform);
                    if (x.closure()) closureInvokers.putIfAbsent(x.word(), uniform);
                    if (x.site() != null) quoteInvokers.putIfAbsent(x.site(), uniform);
                }
                for (var crossing : u.links().entrySet()) {
                    String name = crossing.getKey();
                    MethodHandle callee = isInterpreted(name) ? interpreter(name).typed() : compiledHandles.get(name);
                    u.data().fill(crossing.getValue(), new TypedHandleKey(name, callee));
                }
            }
            // Every late entry of every unit is in place: now the initializers may copy the class data into their fields.
            for (Unit u : units) u.lookup().ensureInitialized(u.cls());
            Map<String, CompiledWord> words = new LinkedHashMap<>();
            for (CheckedWord w : module.words()) {
                MethodHandle mh = isInterpreted(w.name()) ? interpreter(w.name()).typed() : compiledHandles.get(w.name());
                words.put(w.name(), new CompiledWord(w.name(), w.signature(), mh, w.suspends(), w));
            }
            // An interpreted main runs as its interpreter itself: binding a method handle to it cost every run.
            Unit last = units.isEmpty() ? null : units.get(units.size() - 1);
            Main main = interpretedMethods.contains("main") ? new Interpreter(module.main(), link)
                    : new CompiledMain(last.lookup().findStatic(last.cls(), "main", MethodType.methodType(void.class, Ctx.class)));
            Set<String> interpreted = new HashSet<>();
            for (var e : methodNames.entrySet()) if (interpretedMethods.contains(e.getValue())) interpreted.add(e.getKey());
            // A closure literal runs in the tier its function was compiled to, so a restored closure resumes its own frames.
            return new Compiled(main, words, units.size(), interpreted, new Remakes(Map.copyOf(closureInvokers), quoteInvokers, link));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("generated class could not be linked", e);
        }
    }

    /**
     * At most this many IR nodes (and {@link #UNIT_WORD_NODES} more a word) go into one generated class. A class holds at
     * most 65,535 constant-pool entries and a 64 KiB initializer: a few thousand lines of a model's definitions reach
     * either. Calls between the classes of one module go through constant method handles, like calls of an earlier
     * submission's words.
     */
    static final int UNIT_NODES = 24_000;
    private static final int UNIT_WORD_NODES = 16;

    /** One generated class of a module: its words (the last unit also holds the main), extras and cross-unit links. */
    private record Unit(Class<?> cls, MethodHandles.Lookup lookup, ClassData data, List<CheckedWord> words, List<Extra> extras, Map<String, Integer> links) { }

    /** A unit overflowed a class's limits: the module is split more finely. */
    private static final class UnitTooLarge extends Exception {
        final RuntimeException cause;

        UnitTooLarge(RuntimeException cause) {
            super(null, null, false, false);
            this.cause = cause;
        }
    }

    /** The module's words in source order, cut into consecutive parts of at most {@code budget} nodes (a part has at least one). */
    private List<List<CheckedWord>> partition(int budget) {
        List<List<CheckedWord>> parts = new ArrayList<>();
        List<CheckedWord> part = new ArrayList<>();
        int size = interpretedMethods.contains("main") ? 0 : Loops.size(module.main().body());
        for (int k = 0; k < wordSizes.length; k++) {
            CheckedWord w = module.words().get(k);
            if (isInterpreted(w.name())) continue;
            int n = wordSizes[k] + UNIT_WORD_NODES;
            if (!part.isEmpty() && size + n > budget) {
                parts.add(part);
                part = new ArrayList<>();
                size = 0;
            }
            part.add(w);
            size += n;
        }
        parts.add(part);
        return parts;
    }

    /** Generates and defines one hidden class a part (uninitialized: their late entries are filled first). */
    private List<Unit> defineUnits(List<List<CheckedWord>> parts) throws UnitTooLarge {
        List<Unit> units = new ArrayList<>();
        for (int u = 0; u < parts.size(); u++) {
            unitIndex = u;
            unitWords = new HashSet<>();
            for (CheckedWord w : parts.get(u)) unitWords.add(w.name());
            boolean withMain = u == parts.size() - 1;
            while (true) {
                data = new ClassData();
                extras.clear();
                links = new HashMap<>();
                try {
                    byte[] bytes = generate(parts.get(u), withMain);
                    MethodHandles.Lookup anchor = MethodHandles.privateLookupIn(Ctx.class, MethodHandles.lookup());
                    MethodHandles.Lookup hidden = anchor.defineHiddenClassWithClassData(bytes, data.values, false);
                    units.add(new Unit(hidden.lookupClass(), hidden, data, parts.get(u), List.copyOf(extras), links));
                    break;
                } catch (MethodTooLargeException e) {
                    String method = e.getMethodName();
                    if (method.equals("<clinit>")) throw new UnitTooLarge(e);
                    // Fall back to the interpreter for that function and try again (architecture: method-too-large is real).
                    if (method.endsWith(BOUNDED_BODY)) method = method.substring(0, method.length() - BOUNDED_BODY.length());
                    if (method.endsWith(THREADED_BODY)) method = method.substring(0, method.length() - THREADED_BODY.length());
                    if (method.endsWith(TWIN_BODY)) method = method.substring(0, method.length() - TWIN_BODY.length());
                    if (!interpretedMethods.add(method)) throw e;
                } catch (ClassTooLargeException e) {
                    throw new UnitTooLarge(e);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return units;
    }

    /** The IR nodes of each module word's body, in the module's order (measured once, for tiering and partitioning). */
    private int[] wordSizes;

    /** The index of the unit being generated; its words; the link slot of each word of another unit it calls. */
    private int unitIndex;
    private Set<String> unitWords = Set.of();
    private Map<String, Integer> links = Map.of();

    /**
     * Whether a call of module word {@code word} from the unit being generated goes through a method handle: the word is
     * interpreted or compiled in another unit.
     */
    boolean viaHandle(String word) { return isInterpreted(word) || !unitWords.contains(word); }

    /** The class-data slot whose {@link TypedHandleKey} holds the handle a call of {@code word} goes through. */
    int handleSlot(String word) {
        if (unitWords.contains(word)) return interpretedHandleSlot(word);
        return links.computeIfAbsent(word, w -> data.reserve());
    }

    /** Whether any function is to be compiled, so that a hidden class is needed. A loop: no stream on a fresh JVM's first submission. */
    private boolean needsClass() {
        if (!interpretedMethods.contains("main")) return true;
        for (CheckedWord w : module.words()) if (!isInterpreted(w.name())) return true;
        return false;
    }

    /**
     * How a module's closure literals and quotations make their values again (a restored run's or session's), each in the
     * tier its function was compiled to: the compiled class's invoker where there is one, else the interpreter's.
     */
    public static final class Remakes {
        private final Map<CheckedWord, MethodHandle> closures;
        private final Map<Checked.QuoteNode, MethodHandle> quotes;
        private final Interpreter.Link link;

        Remakes(Map<CheckedWord, MethodHandle> closures, Map<Checked.QuoteNode, MethodHandle> quotes, Interpreter.Link link) {
            this.closures = closures;
            this.quotes = quotes;
            this.link = link;
        }

        MethodHandle closureInvoker(CheckedWord body) {
            MethodHandle compiled = closures.get(body);
            return compiled != null ? compiled : new Interpreter(body, link).uniform();
        }

        dev.finch.vm.value.Closure quote(Checked.QuoteNode site) {
            MethodHandle compiled = quotes.get(site);
            if (compiled == null) return Interpreter.quote(site, link);
            String name = site.target().name();
            return new dev.finch.vm.value.Closure(compiled, site.type(), name, site);
        }
    }

    private byte[] generate(List<CheckedWord> words, boolean withMain) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override protected String getCommonSuperClass(String a, String b) { return "java/lang/Object"; }
        };
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, CLASS_NAME, null, "java/lang/Object", null);
        cw.visitSource(module.source().source(), null);
        bounded = Bounded.of(words, w -> !isInterpreted(w), library);
        threaded = new HashSet<>();
        twinned = new HashSet<>();
        for (CheckedWord w : words) {
            if (!isInterpreted(w.name()) && !bounded.containsKey(w.name()) && !w.suspends()) {
                threaded.add(w.name());
                if (Twins.eligible(w)) twinned.add(w.name());
            }
        }
        if (withMain && !interpretedMethods.contains("main")) new MethodCompiler(this, module.main(), "main", MethodCompiler.Role.MAIN).compile(cw);
        for (CheckedWord w : words) {
            if (isInterpreted(w.name())) continue;
            if (threaded.contains(w.name())) {
                // The body takes and returns the fuel (module callers pass theirs); the public entry reads and writes the context's.
                if (twinned(w.name())) {
                    // Two copies calling each other: see twinned.
                    new MethodCompiler(this, w, threadedBody(w.name()), MethodCompiler.Role.WORD, MethodCompiler.Body.THREADED, twinBody(w.name())).compile(cw);
                    new MethodCompiler(this, w, twinBody(w.name()), MethodCompiler.Role.WORD, MethodCompiler.Body.THREADED, threadedBody(w.name())).compile(cw);
                } else {
                    new MethodCompiler(this, w, threadedBody(w.name()), MethodCompiler.Role.WORD, MethodCompiler.Body.THREADED).compile(cw);
                }
                new MethodCompiler(this, w, methodNames.get(w.name()), MethodCompiler.Role.WORD).compileThreadedEntry(cw, threadedBody(w.name()));
            } else if (bounded.containsKey(w.name())) {
                // The body without checks, for the module's callers (which charge its step), and the public entry with them.
                new MethodCompiler(this, w, boundedBody(w.name()), MethodCompiler.Role.WORD, MethodCompiler.Body.UNCHECKED).compile(cw);
                new MethodCompiler(this, w, methodNames.get(w.name()), MethodCompiler.Role.WORD).compileEntry(cw, boundedBody(w.name()));
            } else {
                new MethodCompiler(this, w, methodNames.get(w.name()), MethodCompiler.Role.WORD).compile(cw);
            }
        }
        for (int e = 0; e < extras.size(); e++) {
            Extra x = extras.get(e);
            if (interpretedMethods.contains(x.method())) continue;
            new MethodCompiler(this, x.word(), x.method(), x.closure() ? MethodCompiler.Role.CLOSURE : MethodCompiler.Role.WORD).compile(cw);
        }
        data.emitFields(cw, CLASS_NAME);
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        String dump = System.getProperty("finch.vm.dump");
        if (dump != null) {
            // A debugging aid: write the generated class for javap / ASM's Textifier.
            try {
                java.nio.file.Path dir = java.nio.file.Path.of(dump);
                java.nio.file.Files.createDirectories(dir);
                java.nio.file.Files.write(dir.resolve("FinchCode-" + System.nanoTime() + ".class"), bytes);
            } catch (java.io.IOException ignored) {
                // Dumping is best effort.
            }
        }
        return bytes;
    }

    /** What is known of module word {@code word} when it can neither loop nor recurse, else null. */
    Bounded.Fact bounded(String word) { return bounded.get(word); }

    /**
     * Whether module word {@code word} is compiled with its fuel threaded through its calls: a compiled word that
     * may loop or recurse and cannot suspend. Its body method takes the caller's fuel after the depth and returns
     * the fuel left, its result going through the context ({@link Ctx#resultJ} and its siblings, or the registers
     * when it has several); module callers keep the fuel in a local across such calls, so a recursion's step count
     * never goes through memory.
     */
    boolean threaded(String word) { return threaded.contains(word); }

    /** The words of the current generation attempt compiled with threaded fuel. */
    private Set<String> threaded = Set.of();

    /** The method holding the threaded-fuel body of {@code word}. */
    String threadedBody(String word) { return methodNames.get(word) + THREADED_BODY; }

    /** The suffix of a threaded word's body method. */
    private static final String THREADED_BODY = "$$f";

    /**
     * Whether threaded word {@code word} compiles to two identical bodies whose calls of the word itself go to the
     * other copy ({@link Twins}): the JIT inlines a method into itself only one level deep, and a pair of methods
     * calling each other two levels each, so a small self-recursive word runs four levels of its recursion per JVM
     * call instead of two. The code, its checks and its step count are the same in either copy.
     */
    boolean twinned(String word) { return twinned.contains(word); }

    /** The threaded words of the current generation attempt compiled as twins. */
    private Set<String> twinned = Set.of();

    /** The method holding the second copy of twinned word {@code word}'s threaded body. */
    String twinBody(String word) { return methodNames.get(word) + TWIN_BODY; }

    /** The suffix of a twinned word's second body method. */
    private static final String TWIN_BODY = "$$g";

    /** The descriptor of a threaded word's body: {@code (Ctx, int depth, long fuel, ins…) long fuelLeft}. */
    static String threadedDescriptor(Type.Fn sig) {
        List<Class<?>> params = new ArrayList<>();
        params.add(Ctx.class);
        params.add(int.class);
        params.add(long.class);
        for (Type t : sig.ins()) params.add(jvmClass(Kind.of(t)));
        return MethodType.methodType(long.class, params).toMethodDescriptorString();
    }

    /** The method holding the check-free body of bounded word {@code word}. */
    String boundedBody(String word) { return methodNames.get(word) + BOUNDED_BODY; }

    /** The suffix of a bounded word's body method; {@link #mangle} never writes two dollars in a row. */
    private static final String BOUNDED_BODY = "$$b";

    boolean isInterpreted(String word) { return interpretedMethods.contains(methodNames.get(word)); }

    private Interpreter interpreter(String word) {
        return interpreters.computeIfAbsent(word, n -> new Interpreter(moduleWords.get(n), link));
    }

    /** The class-data slot of the typed handle of an interpreted module word, for compiled callers. */
    int interpretedHandleSlot(String word) { return data.intern(new TypedHandleKey(word, interpreter(word).typed())); }

    /** Wraps a handle so that interning keys by word (handles compare by identity). */
    public record TypedHandleKey(String word, MethodHandle handle) { }

    private Interpreter.Callee callee(String name) {
        CheckedWord w = moduleWords.get(name);
        if (w != null) {
            if (isInterpreted(name)) return new Interpreter.Callee(interpreter(name), null, w.signature());
            return new Interpreter.Callee(null, moduleUniform.computeIfAbsent(name,
                    k -> Invokers.uniform(compiledHandles.get(name), w.signature(), false)), w.signature());
        }
        return persisted.callee(name);
    }

    /** Persisted word from an earlier submission, if {@code name} is one. */
    CompiledWord persisted(String name) { return state.words().get(name); }

    /** Queues a closure body or quote adapter; returns the class-data slot of its invoker. */
    int addExtra(String prefix, CheckedWord body, boolean closure) {
        int slot = data.reserve();
        extras.add(new Extra(prefix + unitIndex + "_" + extras.size(), body, closure, slot, null));
        return slot;
    }

    /** The slot of the invoker of quotation {@code site}'s execution token, which runs {@code adapter}. */
    int addQuote(CheckedWord adapter, Checked.QuoteNode site) {
        int slot = data.reserve();
        extras.add(new Extra("q" + unitIndex + "_" + extras.size(), adapter, false, slot, site));
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

    /** A readable JVM method-name part for {@code name}; the {@code w<i>_} prefix makes it unique, so it may be cut. */
    private static String mangle(String name) {
        StringBuilder b = new StringBuilder();
        for (char c : name.toCharArray()) {
            // A JVM name is at most 65,535 bytes: the first part of a long word name is enough for stack traces.
            if (b.length() >= MAX_NAME_PART) break;
            if (Character.isLetterOrDigit(c) && c < 128 || c == '_') b.append(c);
            else b.append('$').append(Integer.toHexString(c));
        }
        return b.toString();
    }

    private static final int MAX_NAME_PART = 200;

    /** Facts about a body used for tiering. */
    static final class Loops {
        private Loops() { }

        static boolean has(Checked.CheckedBlock b) {
            for (Checked.Node n : b.nodes()) {
                boolean loops = switch (n.kind()) {
                    case LOOP, UNTIL -> true;
                    case PUSH, CALL, IF, IF_SOME, IF_OK, CASE, LIST, MAP, RECORD, QUOTE, CLOSURE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> false;
                };
                if (loops) return true;
                for (Checked.CheckedBlock c : Checked.children(n)) if (has(c)) return true;
            }
            return false;
        }

        static int size(Checked.CheckedBlock b) {
            int s = 0;
            for (Checked.Node n : b.nodes()) {
                s++;
                for (Checked.CheckedBlock c : Checked.children(n)) s += size(c);
            }
            return s;
        }
    }
}
