package dev.finch.vm.word;

import dev.finch.capabilities.CapabilitySpec;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.RequirementTemplate;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.compile.Intrinsic;
import dev.finch.vm.compile.Specials;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The words a Finch runs, read from their declarations ({@link Word} and {@link Overload} on the members that
 * implement them): the {@link Vocabulary} that the frontends and the verifier see, and the implementation of
 * every overload, by its stable id, that both VM tiers call. Immutable and thread-safe.
 *
 * <p>Building a library checks every declaration against its implementation and refuses, with a message naming
 * the member: a malformed signature or template, a method whose parameters or result disagree with the signature,
 * a word declared twice or not at all, a duplicate overload id, an intrinsic that cannot emit its overload, a word
 * typed by a dedicated rule without an implementation of it. A test builds {@link #core()}, so none of these reaches
 * a user's run.
 */
public final class Library {
    /** The classes that declare Finch's own words, in documentation order. */
    private static final List<Class<?>> CORE = List.of(
            dev.finch.vm.lib.StackWords.class, dev.finch.vm.lib.Numbers.class, dev.finch.vm.lib.Comparisons.class,
            dev.finch.vm.lib.Logic.class, dev.finch.vm.lib.Strings.class, dev.finch.vm.lib.ByteWords.class,
            dev.finch.vm.lib.Control.class, dev.finch.vm.lib.Outputs.class, dev.finch.vm.lib.Fibers.class, dev.finch.vm.lib.Tasks.class, dev.finch.vm.lib.Options.class, dev.finch.vm.lib.Lists.class, dev.finch.vm.lib.Maps.class,
            dev.finch.vm.lib.Json.class, dev.finch.vm.lib.Norman.class, Specials.class,
            dev.finch.vm.host.HostWords.class, dev.finch.vm.host.WorkbookWords.class, dev.finch.vm.host.ProposalWords.class,
            dev.finch.vm.host.AutomationWords.class, dev.finch.vm.host.ModelWords.class, dev.finch.vm.host.ToolWords.class,
            dev.finch.vm.host.AgentWords.class, dev.finch.vm.host.McpWords.class);

    private static volatile Library core;

    private final Vocabulary vocabulary;
    private final Map<String, Impl> impls;

    private Library(Vocabulary vocabulary, Map<String, Impl> impls) {
        this.vocabulary = vocabulary;
        this.impls = Map.copyOf(impls);
    }

    /** Stack of the thread that builds {@link #core}: reading the declarations loads chains of classes, deep in native frames. */
    private static final long BUILDER_STACK_BYTES = 16L << 20;

    /**
     * Finch's own words (built once per class loader). The first call builds them on a thread of its own with a
     * large stack and waits for it, so that a caller on a small stack (an embedder's 128 KiB thread) cannot overflow
     * while the declarations' classes load.
     */
    public static Library core() {
        Library c = core;
        if (c == null) {
            synchronized (Library.class) {
                if (core == null) core = buildCore();
                c = core;
            }
        }
        return c;
    }

    private static Library buildCore() {
        Library[] built = new Library[1];
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                built[0] = build(CORE, WordSpec.Provenance.CORE, new Library(Vocabulary.EMPTY, Map.of()));
            } catch (RuntimeException | Error e) {
                failed[0] = e;
            }
        }, "finch-library", BUILDER_STACK_BYTES);
        t.setDaemon(true);
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the library is needed whatever the interruption; the caller sees its flag again
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (failed[0] instanceof RuntimeException r) throw r;
        if (failed[0] instanceof Error e) throw e;
        return built[0];
    }

    /**
     * This library and the words declared on {@code classes} (public static methods annotated with {@link Word} and
     * {@link Overload}), installed by the host.
     *
     * @throws IllegalArgumentException when a declaration is malformed, disagrees with its method, or takes a name
     *         or overload id that is already taken
     */
    public Library with(List<Class<?>> classes) {
        if (classes.isEmpty()) return this;
        return build(classes, WordSpec.Provenance.HOST, this);
    }

    /**
     * This library with {@code words} declared as data: each added, or in place of the host word of the same name (a
     * replaced word's earlier overloads stay implemented under their own ids, so definitions verified against them
     * keep working). Finch's own words are never replaced.
     *
     * @throws IllegalArgumentException when a signature needs more than one capability, names one Finch does not know,
     *         says or yields, answers more than one value, or a name or overload id is taken by another word
     */
    public Library withWords(List<DataWord> words) {
        if (words.isEmpty()) return this;
        List<WordSpec> specs = new ArrayList<>();
        Map<String, Impl> all = new LinkedHashMap<>(impls);
        for (DataWord w : words) {
            Type.Fn sig = w.signature();
            String where = "the data word `" + w.name() + "`";
            for (Capability c : sig.effects()) {
                if (!CapabilitySpec.of(c).isOk()) throw new IllegalArgumentException(where + ": `" + c + "` is not a capability Finch knows");
            }
            if (sig.effects().size() > 1 || sig.effects().contains(Capability.SESSION_EMIT) || sig.yields().isPresent() || sig.outs().size() > 1) {
                throw new IllegalArgumentException(where + " may require at most one capability, answer at most one value, and cannot say or yield");
            }
            if (all.containsKey(w.overloadId()) && !impls.containsKey(w.overloadId())) {
                throw new IllegalArgumentException(where + ": the overload id `" + w.overloadId() + "` is given twice");
            }
            var decl = new dev.finch.ir.vocab.Overload(w.overloadId(), sig, Optional.empty(), false);
            WordSpec spec = new WordSpec(w.name(), WordSpec.Category.HOST, w.doc(), Typing.ORDINARY, List.of(decl), false, WordSpec.Provenance.HOST, false);
            specs.add(spec);
            // The same binding declared again (a server re-listing a tool, perhaps with a new description) replaces it.
            Impl before = all.get(w.overloadId());
            if (before != null && !before.word().name().equals(w.name())) {
                throw new IllegalArgumentException(where + ": the overload id `" + w.overloadId() + "` is taken by `" + before.word().name() + "`");
            }
            all.put(w.overloadId(), new Impl(decl, spec, null, null, Intrinsic.NONE, false, false, false, false, dataHandle(w.body())));
        }
        Vocabulary vocabulary;
        try {
            vocabulary = this.vocabulary.replacing(specs);
        } catch (IllegalArgumentException taken) {
            throw new IllegalArgumentException(taken.getMessage() + " (a host's words cannot reuse Finch's names or ids)", taken);
        }
        return new Library(vocabulary, all);
    }

    private static final MethodHandle CALL_DATA;

    static {
        try {
            CALL_DATA = MethodHandles.lookup().findStatic(Library.class, "callData", MethodType.methodType(Object.class,
                    DataWord.Body.class, Ctx.class, int.class, Type.Fn.class, Origin.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A data word's body as the boxed shape {@link Impl#invoke} calls. */
    private static MethodHandle dataHandle(DataWord.Body body) { return MethodHandles.insertArguments(CALL_DATA, 0, body); }

    @SuppressWarnings("unused") // called through CALL_DATA
    private static Object callData(DataWord.Body body, Ctx ctx, int depth, Type.Fn site, Origin origin, Object[] inputs) {
        dev.finch.vm.host.ProcessHost.Watch watch = () -> Optional.ofNullable(ctx.stopNow()).map(RuntimeException::getMessage);
        try {
            return body.call(inputs, watch);
        } catch (dev.finch.vm.host.HostFailure f) {
            // A stop the run asked for is reported as the run's own (cancelled, past its deadline), not as the host's failure.
            dev.finch.vm.runtime.FinchTrap stop = ctx.stopNow();
            if (stop != null) throw stop;
            throw new dev.finch.vm.runtime.FinchTrap(f.code(), origin, f.getMessage());
        }
    }

    /** The vocabulary, for the environment of the frontends and the verifier. */
    public Vocabulary vocabulary() { return vocabulary; }

    /** The implementation of overload {@code id}; a verified call always names one. */
    public Impl impl(String id) {
        Impl i = impls.get(id);
        if (i == null) throw new IllegalStateException("no implementation of the overload `" + id + "` in this library");
        return i;
    }

    /** The implementation of overload {@code id}, if this library has it. */
    public Optional<Impl> find(String id) { return Optional.ofNullable(impls.get(id)); }

    /** Every implementation, in vocabulary order. */
    public List<Impl> impls() {
        List<Impl> out = new ArrayList<>();
        for (WordSpec w : vocabulary.words()) for (var o : w.overloads()) out.add(impls.get(o.id()));
        return out;
    }

    // ------------------------------------------------------------------------------------------------ building

    /** One annotated member before its word is assembled. */
    private record Declared(Member member, AnnotatedElement element, Word word, Overload overload, Class<?> owner) {
        String where() { return owner.getSimpleName() + "." + member.getName(); }
    }

    private static Library build(List<Class<?>> classes, WordSpec.Provenance provenance, Library base) {
        Map<String, Declared> words = new LinkedHashMap<>();
        Map<String, List<Declared>> overloads = new LinkedHashMap<>();
        for (Class<?> c : classes) {
            if (provenance == WordSpec.Provenance.HOST && !Modifier.isPublic(c.getModifiers())) {
                throw new IllegalArgumentException(c.getName() + " declares words but is not public");
            }
            List<Declared> found = new ArrayList<>();
            for (Method m : c.getDeclaredMethods()) collect(found, m, m, c);
            for (Field f : c.getDeclaredFields()) collect(found, f, f, c);
            found.sort(Comparator.comparing(d -> d.member().getName()));
            if (found.isEmpty() && provenance == WordSpec.Provenance.HOST) {
                throw new IllegalArgumentException(c.getName() + " declares no words (no @Word/@Overload members)");
            }
            for (Declared d : found) {
                if (d.word() != null) {
                    Declared before = words.putIfAbsent(d.word().name(), d);
                    if (before != null) {
                        throw new IllegalArgumentException("the word `" + d.word().name() + "` is declared twice: on " + before.where() + " and " + d.where());
                    }
                }
            }
            for (Declared d : found) {
                if (d.overload() == null) throw new IllegalArgumentException(d.where() + " declares a @Word without an @Overload");
                String name = !d.overload().word().isEmpty() ? d.overload().word() : d.word() == null ? "" : d.word().name();
                if (name.isEmpty()) throw new IllegalArgumentException(d.where() + " has an @Overload without a @Word; name its word with word = \"…\"");
                if (d.word() != null && !d.overload().word().isEmpty() && !d.overload().word().equals(d.word().name())) {
                    throw new IllegalArgumentException(d.where() + " declares @Word " + d.word().name() + " but its @Overload names " + d.overload().word());
                }
                overloads.computeIfAbsent(name, k -> new ArrayList<>()).add(d);
            }
        }
        for (String name : overloads.keySet()) {
            if (!words.containsKey(name)) throw new IllegalArgumentException("the overloads on " + overloads.get(name).get(0).where()
                    + " belong to the word `" + name + "`, which no @Word declares");
        }
        List<WordSpec> specs = new ArrayList<>();
        Map<String, Impl> impls = new LinkedHashMap<>(base.impls);
        for (var e : words.entrySet()) {
            Declared head = e.getValue();
            List<Declared> members = new ArrayList<>(overloads.getOrDefault(e.getKey(), List.of()));
            members.sort(Comparator.comparingInt((Declared d) -> d.overload().order()).thenComparing(d -> id(d, head.word())));
            List<dev.finch.ir.vocab.Overload> decls = new ArrayList<>();
            for (Declared d : members) decls.add(declaration(d, head.word(), members.size()));
            WordSpec spec = new WordSpec(head.word().name(), head.word().category(), head.word().doc(), head.word().typing(), decls,
                    head.word().foldsLeft(), provenance, head.word().pauses());
            check(spec, head);
            specs.add(spec);
            for (int i = 0; i < members.size(); i++) impls.put(decls.get(i).id(), implementation(members.get(i), decls.get(i), spec, provenance));
        }
        specs.sort(Comparator.comparing(WordSpec::category).thenComparing(WordSpec::name));
        Vocabulary vocabulary;
        try {
            vocabulary = base.vocabulary.extend(specs);
        } catch (IllegalArgumentException taken) {
            throw new IllegalArgumentException(taken.getMessage() + " (a host's words cannot reuse Finch's names or ids)", taken);
        }
        return new Library(vocabulary, impls);
    }

    private static void collect(List<Declared> out, Member m, AnnotatedElement e, Class<?> owner) {
        Word w = e.getAnnotation(Word.class);
        Overload o = e.getAnnotation(Overload.class);
        if (w != null || o != null) out.add(new Declared(m, e, w, o, owner));
    }

    private static String id(Declared d, Word word) { return d.overload().id().isEmpty() ? word.name() : d.overload().id(); }

    private static dev.finch.ir.vocab.Overload declaration(Declared d, Word word, int count) {
        String id = id(d, word);
        if (d.overload().id().isEmpty() && count > 1) {
            throw new IllegalArgumentException(d.where() + ": the word `" + word.name() + "` has " + count + " overloads, so each needs its own id");
        }
        Type.Fn sig;
        try {
            sig = TypeSyntax.parseSignature(d.overload().sig());
        } catch (RuntimeException bad) {
            throw new IllegalArgumentException(d.where() + ": malformed signature \"" + d.overload().sig() + "\": " + bad.getMessage(), bad);
        }
        for (Capability c : sig.effects()) {
            if (!CapabilitySpec.of(c).isOk()) throw new IllegalArgumentException(d.where() + ": `" + c + "` is not a capability Finch knows");
        }
        Optional<RequirementTemplate> template = Optional.empty();
        if (!d.overload().requires().isEmpty()) {
            template = RequirementTemplate.parse(d.overload().requires());
            if (template.isEmpty()) throw new IllegalArgumentException(d.where() + ": malformed requirement template \"" + d.overload().requires() + "\"");
            String name = template.get().name();
            if (sig.effects().stream().noneMatch(c -> c.name().equals(name))) {
                throw new IllegalArgumentException(d.where() + ": the template " + template.get() + " has no bound: the signature names no " + name);
            }
            if (template.get().maxArgument() >= sig.ins().size()) {
                throw new IllegalArgumentException(d.where() + ": the template " + template.get() + " names an argument the word does not take");
            }
        }
        if (d.overload().refines() && (sig.ins().isEmpty() || sig.ins().get(0) != Type.STRING || sig.outs().size() != 1)) {
            throw new IllegalArgumentException(d.where() + ": a refinement takes a string first and answers one value");
        }
        return new dev.finch.ir.vocab.Overload(id, sig, template, d.overload().refines());
    }

    /** Word-level rules: a special word's implementation, a fold's shape. */
    private static void check(WordSpec spec, Declared head) {
        if (spec.foldsLeft()) {
            for (var o : spec.overloads()) {
                Type.Fn f = o.signature();
                if (f.ins().size() != 2 || f.outs().size() != 1 || !f.ins().get(0).equals(f.outs().get(0))) {
                    throw new IllegalArgumentException(head.where() + ": `" + spec.name() + "` folds left, so each overload must be `t x -> t`");
                }
            }
        }
    }

    private static Impl implementation(Declared d, dev.finch.ir.vocab.Overload decl, WordSpec spec, WordSpec.Provenance provenance) {
        Intrinsic intrinsic = d.overload().intrinsic();
        if (d.member() instanceof Field f) {
            if (!(Specials.class.isAssignableFrom(f.getType())) || provenance == WordSpec.Provenance.HOST) {
                throw new IllegalArgumentException(d.where() + ": only a static method implements a word");
            }
            Specials special;
            try {
                special = (Specials) f.get(null);
            } catch (IllegalAccessException e) {
                throw new IllegalArgumentException(d.where() + " is not accessible", e);
            }
            if (special.typing() != spec.typing()) {
                throw new IllegalArgumentException(d.where() + ": implements " + special.typing() + " but the word is typed " + spec.typing());
            }
            return new Impl(decl, spec, null, special, Intrinsic.NONE, false, false, false, false, null);
        }
        Method m = (Method) d.member();
        String where = d.where();
        if (!Modifier.isStatic(m.getModifiers()) || !Modifier.isPublic(m.getModifiers())) {
            throw new IllegalArgumentException(where + " implements `" + spec.name() + "` but is not public static");
        }
        if (spec.special() && spec.typing().immediates().size() > 0) {
            throw new IllegalArgumentException(where + ": `" + spec.name() + "` takes immediates, so a Specials constant implements it");
        }
        Type.Fn sig = decl.signature();
        Class<?>[] p = m.getParameterTypes();
        int i = 0;
        boolean ctx = i < p.length && p[i] == Ctx.class;
        if (ctx) i++;
        boolean depth = ctx && i < p.length && p[i] == int.class;
        if (depth) i++;
        if (provenance == WordSpec.Provenance.HOST && ctx) {
            throw new IllegalArgumentException(where + ": a host's word cannot take the run context");
        }
        int n = sig.ins().size();
        if (p.length - i < n) {
            throw new IllegalArgumentException(where + " takes " + (p.length - i) + " inputs but `" + sig + "` has " + n);
        }
        for (int k = 0; k < n; k++) {
            if (!Representation.accepts(p[i + k], sig.ins().get(k))) {
                throw new IllegalArgumentException(where + ": input " + (k + 1) + " of `" + sig + "` is a " + sig.ins().get(k) + ", held as "
                        + Representation.of(sig.ins().get(k)).getSimpleName() + ", but the parameter is " + p[i + k].getSimpleName());
            }
        }
        i += n;
        boolean site = i < p.length && p[i] == Type.Fn.class;
        if (site) i++;
        boolean origin = i < p.length && p[i] == Origin.class;
        if (origin) i++;
        if (i != p.length) {
            throw new IllegalArgumentException(where + " has a parameter `" + p[i].getSimpleName() + "` that the signature `" + sig + "` does not explain");
        }
        Class<?> r = m.getReturnType();
        int outs = sig.outs().size();
        boolean ok = outs == 0 ? r == void.class : outs == 1 ? Representation.produces(r, sig.outs().get(0)) : r == Object[].class;
        if (!ok) {
            throw new IllegalArgumentException(where + " returns " + r.getSimpleName() + " but `" + sig + "` answers "
                    + (outs == 0 ? "nothing (void)" : outs == 1 ? "a " + sig.outs().get(0) + ", held as " + Representation.of(sig.outs().get(0)).getSimpleName()
                    : outs + " values (Object[])"));
        }
        if (outs > 1 && intrinsic == Intrinsic.NONE) {
            throw new IllegalArgumentException(where + ": only an intrinsic answers several values");
        }
        if (provenance == WordSpec.Provenance.HOST) {
            if (intrinsic != Intrinsic.NONE) throw new IllegalArgumentException(where + ": intrinsics are Finch's own");
            long caps = sig.effects().stream().filter(c -> !c.equals(Capability.SESSION_EMIT)).count();
            if (caps > 1 || sig.effects().contains(Capability.SESSION_EMIT) || sig.yields().isPresent()) {
                throw new IllegalArgumentException(where + ": a host's word may require at most one capability (and cannot say or yield)");
            }
        }
        String problem = intrinsic.refuses(decl);
        if (problem != null) throw new IllegalArgumentException(where + ": intrinsic " + intrinsic + " " + problem);
        // A host's handle is made now, so that a method the public lookup cannot reach is refused at build; Finch's
        // own are made on first call (LibraryTest makes every one).
        MethodHandle boxed = provenance == WordSpec.Provenance.HOST ? boxed(m, ctx, depth, n, site, origin, where) : null;
        return new Impl(decl, spec, m, null, intrinsic, ctx, depth, site, origin, boxed);
    }

    /** The method as {@code (Ctx, int depth, Type.Fn site, Origin, Object[] inputs) Object}. */
    static MethodHandle boxed(Method m, boolean ctx, boolean depth, int n, boolean site, boolean origin, String where) {
        MethodHandle h;
        try {
            h = MethodHandles.publicLookup().unreflect(m);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(where + " is not accessible: " + e.getMessage(), e);
        }
        if (!ctx) h = MethodHandles.dropArguments(h, 0, Ctx.class);
        if (!depth) h = MethodHandles.dropArguments(h, 1, int.class);
        if (!site) h = MethodHandles.dropArguments(h, 2 + n, Type.Fn.class);
        if (!origin) h = MethodHandles.dropArguments(h, 3 + n, Origin.class);
        Class<?>[] flat = new Class<?>[4 + n];
        flat[0] = Ctx.class;
        flat[1] = int.class;
        for (int k = 0; k < n; k++) flat[2 + k] = Object.class;
        flat[2 + n] = Type.Fn.class;
        flat[3 + n] = Origin.class;
        h = h.asType(MethodType.methodType(Object.class, flat));
        int[] order = new int[4 + n];
        order[0] = 0;
        order[1] = 1;
        for (int k = 0; k < n; k++) order[2 + k] = 4 + k;
        order[2 + n] = 2;
        order[3 + n] = 3;
        Class<?>[] front = new Class<?>[4 + n];
        front[0] = Ctx.class;
        front[1] = int.class;
        front[2] = Type.Fn.class;
        front[3] = Origin.class;
        for (int k = 0; k < n; k++) front[4 + k] = Object.class;
        h = MethodHandles.permuteArguments(h, MethodType.methodType(Object.class, front), order);
        return h.asSpreader(Object[].class, n);
    }

    @Override public String toString() { return "Library(" + vocabulary.words().size() + " words)"; }
}
