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
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The words a Finch runs, read from their declarations ({@link Word} and {@link Overload} on the members that
 * implement them): the {@link Vocabulary} that the frontends and the verifier see, and the implementation of
 * every overload, by its stable id, that both VM tiers call. Immutable and thread-safe.
 *
 * <p>Reading declarations by reflection (a host's, {@link #with}) checks every one against its implementation and
 * refuses, with a message naming the member: a malformed signature or template, a method whose parameters or result
 * disagree with the signature, a word declared twice or not at all, a duplicate overload id, an intrinsic that cannot
 * emit its overload, a word typed by a dedicated rule without an implementation of it. Finch's own are read from the
 * build-time indexes of the engine and its word libraries ({@link #core()}); each index test reads them by
 * reflection with the same checks ({@link #reflected}) and requires the same words, so none of these reaches a user's run.
 */
public final class Library {
    private static volatile Library core;


    private final Vocabulary vocabulary;
    private final Map<String, Impl> impls;

    private Library(Vocabulary vocabulary, Map<String, Impl> impls) {
        this.vocabulary = vocabulary;
        this.impls = Map.copyOf(impls);
    }

    private static final Library EMPTY = new Library(Vocabulary.EMPTY, Map.of());

    /** Stack of the thread that builds {@link #core}: reading the declarations loads chains of classes, deep in native frames. */
    private static final long BUILDER_STACK_BYTES = 16L << 20;

    /**
     * Finch's own words (built once per class loader): the engine's ({@code EngineIndex}: the words the compiler types
     * and emits by a rule of its own) and those of every {@link WordLibrary} found as a service beside it (the standard
     * library, the hosts, workbooks, …), in the order of their names, each from the index of its declarations that its
     * build writes (by finch-word-index's annotation processor): no reflection over the declaring classes and no parsing
     * of signatures in a fresh JVM, and each implementing method is looked up when it is first compiled or called. An
     * index is trusted as it is: each library's index test builds the same words from the annotations by reflection,
     * with every check {@link #with} makes, and fails if the two disagree. Each library's extensions are registered
     * ({@link Extensions}) and the engine is made to read its module, so that compiled code can call its methods. The
     * first call builds it on a thread of its own with a large stack and waits for it, so that a caller on a small stack
     * (an embedder's 128 KiB thread) cannot overflow while the classes it needs load.
     *
     * @throws IllegalStateException when two libraries take the same name
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

    /** The word libraries {@link #core()} is built from, beside the engine's own words: those found, by name. */
    public static List<WordLibrary> libraries() {
        List<WordLibrary> out = new ArrayList<>();
        for (WordLibrary l : ServiceLoader.load(WordLibrary.class, Library.class.getClassLoader())) {
            for (WordLibrary before : out) {
                if (before.name().equals(l.name())) {
                    throw new IllegalStateException("two word libraries are named `" + l.name() + "`: " + before.getClass().getName() + " and " + l.getClass().getName());
                }
            }
            out.add(l);
        }
        out.sort(new ByName());
        return out;
    }

    /** Libraries by name. */
    private static final class ByName implements Comparator<WordLibrary> {
        @Override public int compare(WordLibrary a, WordLibrary b) { return a.name().compareTo(b.name()); }
    }

    private static Library buildCore() {
        CoreBuilder builder = new CoreBuilder();
        Thread t = new Thread(null, builder, "finch-library", BUILDER_STACK_BYTES);
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
        if (builder.failed instanceof RuntimeException r) throw r;
        if (builder.failed instanceof Error e) throw e;
        return builder.built;
    }

    /**
     * Builds the core library on the {@code finch-library} thread. A named class, not a lambda, like the comparators
     * below: this runs in a fresh JVM's first submission, where linking each lambda costs about 0.7 ms.
     */
    private static final class CoreBuilder implements Runnable {
        private Library built;
        private Throwable failed;

        @Override
        public void run() {
            try {
                List<Declaration> all = new ArrayList<>(EngineIndex.INSTANCE.declarations());
                for (WordLibrary l : libraries()) {
                    for (Object e : l.extensions()) Extensions.register(e);
                    Module m = l.index().getClass().getModule();
                    // Compiled code (a hidden class of this module) calls the library's methods directly.
                    if (m.isNamed()) Library.class.getModule().addReads(m);
                    all.addAll(l.index().declarations());
                }
                built = assemble(all, WordSpec.Provenance.CORE, EMPTY, false);
            } catch (RuntimeException | Error e) {
                failed = e;
            }
        }
    }

    /** The words of one index alone, as {@link #core()} reads them (trusting the index): what its index test checks. */
    public static Library indexed(WordIndex index) {
        return assemble(index.declarations(), WordSpec.Provenance.CORE, EMPTY, false);
    }

    /**
     * The words of one index's classes read from their annotations by reflection, with every check a host's words get:
     * what {@link #indexed} must agree with.
     */
    public static Library reflected(WordIndex index) {
        List<Class<?>> classes = new ArrayList<>();
        ClassLoader loader = index.getClass().getClassLoader();
        for (String name : index.classes()) {
            try {
                classes.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("the index names " + name + ", which is not there", e);
            }
        }
        return build(classes, WordSpec.Provenance.CORE, EMPTY);
    }

    /** The engine's own index (the words its compiler types by a rule of its own). */
    public static WordIndex engineIndex() { return EngineIndex.INSTANCE; }

    /** A word's overloads in declared order, then by id. */
    private record OverloadOrder(Declaration.WordValues word) implements Comparator<Declaration> {
        @Override
        public int compare(Declaration a, Declaration b) {
            int byOrder = Integer.compare(a.overload().order(), b.overload().order());
            return byOrder != 0 ? byOrder : id(a, word).compareTo(id(b, word));
        }
    }

    /** Words by category, then by name. */
    private static final class SpecOrder implements Comparator<WordSpec> {
        @Override
        public int compare(WordSpec a, WordSpec b) {
            int byCategory = a.category().compareTo(b.category());
            return byCategory != 0 ? byCategory : a.name().compareTo(b.name());
        }
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
                if (RequirementTemplate.mentionsArgument(c) || !CapabilitySpec.of(c).isOk()) {
                    throw new IllegalArgumentException(where + ": `" + c + "` is not a capability Finch knows");
                }
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
            all.put(w.overloadId(), new Impl(decl, spec, null, -1, null, null, Intrinsic.NONE, false, false, false, false, dataHandle(w.body())));
        }
        Vocabulary vocabulary;
        try {
            vocabulary = this.vocabulary.replacing(specs);
        } catch (IllegalArgumentException taken) {
            throw new IllegalArgumentException(taken.getMessage() + " (a host's words cannot reuse Finch's names or ids)", taken);
        }
        return new Library(vocabulary, all);
    }

    /** {@link #callData} as a handle, made when the first data word is installed (not in every fresh JVM's first {@link #core}). */
    private static final class DataCalls {
        static final MethodHandle CALL_DATA;

        static {
            try {
                CALL_DATA = MethodHandles.lookup().findStatic(Library.class, "callData", MethodType.methodType(Object.class,
                        DataWord.Body.class, Ctx.class, int.class, Type.Fn.class, Origin.class, Object[].class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** A data word's body as the boxed shape {@link Impl#invoke} calls. */
    private static MethodHandle dataHandle(DataWord.Body body) { return MethodHandles.insertArguments(DataCalls.CALL_DATA, 0, body); }

    @SuppressWarnings("unused") // called through DataCalls.CALL_DATA
    private static Object callData(DataWord.Body body, Ctx ctx, int depth, Type.Fn site, Origin origin, Object[] inputs) {
        dev.finch.vm.boundary.Watch watch = () -> Optional.ofNullable(ctx.stopNow()).map(RuntimeException::getMessage);
        try {
            return body.call(inputs, watch);
        } catch (dev.finch.vm.boundary.HostFailure f) {
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

    /** The words declared on {@code classes}, read by reflection and checked, after {@code base}'s. */
    private static Library build(List<Class<?>> classes, WordSpec.Provenance provenance, Library base) {
        List<Declaration> found = new ArrayList<>();
        for (Class<?> c : classes) {
            if (provenance == WordSpec.Provenance.HOST && !Modifier.isPublic(c.getModifiers())) {
                throw new IllegalArgumentException(c.getName() + " declares words but is not public");
            }
            List<Declaration> own = new ArrayList<>();
            for (Method m : c.getDeclaredMethods()) collect(own, new Declaration.Reflected(m), m);
            for (Field f : c.getDeclaredFields()) collect(own, new Declaration.ReflectedField(f), f);
            own.sort(Comparator.comparing(d -> d.site().name()));
            if (own.isEmpty() && provenance == WordSpec.Provenance.HOST) {
                throw new IllegalArgumentException(c.getName() + " declares no words (no @Word/@Overload members)");
            }
            found.addAll(own);
        }
        return assemble(found, provenance, base, true);
    }

    /**
     * The words of {@code found} after {@code base}'s: each word with its overloads in order, and the implementation of
     * each. With {@code check}, every declaration is checked against its member and refused with a message naming it;
     * without, the declarations are the index's, which each index test checks against the annotations.
     */
    private static Library assemble(List<Declaration> found, WordSpec.Provenance provenance, Library base, boolean check) {
        Map<String, Declaration> words = new LinkedHashMap<>();
        Map<String, List<Declaration>> overloads = new LinkedHashMap<>();
        for (Declaration d : found) {
            if (d.word() != null) {
                Declaration before = words.putIfAbsent(d.word().name(), d);
                if (before != null) {
                    throw new IllegalArgumentException("the word `" + d.word().name() + "` is declared twice: on " + before.site().where() + " and " + d.site().where());
                }
            }
        }
        for (Declaration d : found) {
            String where = d.site().where();
            if (d.overload() == null) throw new IllegalArgumentException(where + " declares a @Word without an @Overload");
            String name = !d.overload().word().isEmpty() ? d.overload().word() : d.word() == null ? "" : d.word().name();
            if (name.isEmpty()) throw new IllegalArgumentException(where + " has an @Overload without a @Word; name its word with word = \"…\"");
            if (d.word() != null && !d.overload().word().isEmpty() && !d.overload().word().equals(d.word().name())) {
                throw new IllegalArgumentException(where + " declares @Word " + d.word().name() + " but its @Overload names " + d.overload().word());
            }
            List<Declaration> members = overloads.get(name);
            if (members == null) {
                members = new ArrayList<>();
                overloads.put(name, members);
            }
            members.add(d);
        }
        for (String name : overloads.keySet()) {
            if (!words.containsKey(name)) throw new IllegalArgumentException("the overloads on " + overloads.get(name).get(0).site().where()
                    + " belong to the word `" + name + "`, which no @Word declares");
        }
        List<WordSpec> specs = new ArrayList<>();
        Map<String, Impl> impls = new LinkedHashMap<>(base.impls);
        for (var e : words.entrySet()) {
            Declaration head = e.getValue();
            List<Declaration> members = new ArrayList<>(overloads.getOrDefault(e.getKey(), List.of()));
            members.sort(new OverloadOrder(head.word()));
            List<dev.finch.ir.vocab.Overload> decls = new ArrayList<>();
            for (Declaration d : members) decls.add(declaration(d, head.word(), members.size(), check));
            WordSpec spec = new WordSpec(head.word().name(), head.word().category(), head.word().doc(), head.word().typing(), decls,
                    head.word().foldsLeft(), provenance, head.word().pauses(), head.word().aka());
            if (check) check(spec, head);
            specs.add(spec);
            for (int i = 0; i < members.size(); i++) impls.put(decls.get(i).id(), implementation(members.get(i), decls.get(i), spec, provenance));
        }
        specs.sort(new SpecOrder());
        Vocabulary vocabulary;
        try {
            vocabulary = base.vocabulary.extend(specs);
        } catch (IllegalArgumentException taken) {
            throw new IllegalArgumentException(taken.getMessage() + " (a host's words cannot reuse Finch's names or ids)", taken);
        }
        return new Library(vocabulary, impls);
    }

    /** The member's declaration, if it has {@link Word} or {@link Overload}: its signature and template parsed. */
    private static void collect(List<Declaration> out, Declaration.Site site, AnnotatedElement e) {
        Word w = e.getAnnotation(Word.class);
        Overload o = e.getAnnotation(Overload.class);
        if (w == null && o == null) return;
        Declaration.OverloadValues values = null;
        if (o != null) {
            Type.Fn sig;
            try {
                sig = TypeSyntax.parseSignature(o.sig());
            } catch (RuntimeException bad) {
                throw new IllegalArgumentException(site.where() + ": malformed signature \"" + o.sig() + "\": " + bad.getMessage(), bad);
            }
            Optional<RequirementTemplate> template = Optional.empty();
            if (!o.requires().isEmpty()) {
                template = RequirementTemplate.parse(o.requires());
                if (template.isEmpty()) throw new IllegalArgumentException(site.where() + ": malformed requirement template \"" + o.requires() + "\"");
            }
            values = new Declaration.OverloadValues(sig, o.id(), o.word(), o.order(), template, o.refines(), o.intrinsic());
        }
        out.add(new Declaration(site, w == null ? null : Declaration.WordValues.of(w), values));
    }

    private static String id(Declaration d, Declaration.WordValues word) { return d.overload().id().isEmpty() ? word.name() : d.overload().id(); }

    private static dev.finch.ir.vocab.Overload declaration(Declaration d, Declaration.WordValues word, int count, boolean check) {
        String id = id(d, word);
        String where = d.site().where();
        if (d.overload().id().isEmpty() && count > 1) {
            throw new IllegalArgumentException(where + ": the word `" + word.name() + "` has " + count + " overloads, so each needs its own id");
        }
        Type.Fn sig = d.overload().sig();
        Optional<RequirementTemplate> template = d.overload().requires();
        if (check) {
            for (Capability c : sig.effects()) {
                if (RequirementTemplate.mentionsArgument(c)) {
                    throw new IllegalArgumentException(where + ": `" + c + "` names an argument: a word's signature states the bound, and its "
                            + "@Overload(requires = …) the template");
                }
                if (!CapabilitySpec.of(c).isOk()) throw new IllegalArgumentException(where + ": `" + c + "` is not a capability Finch knows");
            }
            if (template.isPresent()) {
                String name = template.get().name();
                if (sig.effects().stream().noneMatch(c -> c.name().equals(name))) {
                    throw new IllegalArgumentException(where + ": the template " + template.get() + " has no bound: the signature names no " + name);
                }
                if (template.get().maxArgument() >= sig.ins().size()) {
                    throw new IllegalArgumentException(where + ": the template " + template.get() + " names an argument the word does not take");
                }
            }
            if (d.overload().refines() && (sig.ins().isEmpty() || sig.ins().get(0) != Type.STRING || sig.outs().size() != 1)) {
                throw new IllegalArgumentException(where + ": a refinement takes a string first and answers one value");
            }
        }
        return new dev.finch.ir.vocab.Overload(id, sig, template, d.overload().refines());
    }

    /** Word-level rules: a special word's implementation, a fold's shape. */
    private static void check(WordSpec spec, Declaration head) {
        if (spec.foldsLeft()) {
            for (var o : spec.overloads()) {
                Type.Fn f = o.signature();
                if (f.ins().size() != 2 || f.outs().size() != 1 || !f.ins().get(0).equals(f.outs().get(0))) {
                    throw new IllegalArgumentException(head.site().where() + ": `" + spec.name() + "` folds left, so each overload must be `t x -> t`");
                }
            }
        }
    }

    /**
     * The implementation of one overload: from the index as it says (a method found by name and descriptor when it is
     * first needed), or from a reflected member after checking it against the declaration.
     */
    private static Impl implementation(Declaration d, dev.finch.ir.vocab.Overload decl, WordSpec spec, WordSpec.Provenance provenance) {
        Declaration.Site site = d.site();
        if (site instanceof Declaration.IndexedMethod m) {
            return new Impl(decl, spec, new Impl.MethodRef(m), m.call(), null, null, d.overload().intrinsic(),
                    m.ctx(), m.depth(), m.site(), m.origin(), null);
        }
        if (site instanceof Declaration.IndexedConstant c) return new Impl(decl, spec, null, -1, c.owner(), c.name(), Intrinsic.NONE, false, false, false, false, null);
        if (site instanceof Declaration.ReflectedField f) return special(f.field(), site.where(), decl, spec, provenance);
        return method(((Declaration.Reflected) site).method(), site.where(), d.overload().intrinsic(), decl, spec, provenance);
    }

    private static Impl special(Field f, String where, dev.finch.ir.vocab.Overload decl, WordSpec spec, WordSpec.Provenance provenance) {
        if (!(SpecialWord.class.isAssignableFrom(f.getType())) || provenance == WordSpec.Provenance.HOST) {
            throw new IllegalArgumentException(where + ": only a static method implements a word");
        }
        SpecialWord special;
        try {
            special = (SpecialWord) f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(where + " is not accessible", e);
        }
        if (special.typing() != spec.typing()) {
            throw new IllegalArgumentException(where + ": implements " + special.typing() + " but the word is typed " + spec.typing());
        }
        return new Impl(decl, spec, null, -1, f.getDeclaringClass().getName(), special.name(), Intrinsic.NONE, false, false, false, false, null);
    }

    private static Impl method(Method m, String where, Intrinsic intrinsic, dev.finch.ir.vocab.Overload decl, WordSpec spec, WordSpec.Provenance provenance) {
        if (!Modifier.isStatic(m.getModifiers()) || !Modifier.isPublic(m.getModifiers())) {
            throw new IllegalArgumentException(where + " implements `" + spec.name() + "` but is not public static");
        }
        if (spec.special() && spec.typing().immediates().size() > 0) {
            throw new IllegalArgumentException(where + ": `" + spec.name() + "` takes immediates, so a special word implements it");
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
        int firstIn = i;
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
        boolean[] valueIns = new boolean[n];
        for (int k = 0; k < n; k++) valueIns[k] = p[firstIn + k] == dev.finch.vm.Value.class;
        if (provenance != WordSpec.Provenance.HOST && PublicValues.any(valueIns, r)) {
            throw new IllegalArgumentException(where + ": only a host's word takes or answers Value (Finch's own take the VM's representation)");
        }
        String problem = intrinsic.refuses(decl);
        if (problem != null) throw new IllegalArgumentException(where + ": intrinsic " + intrinsic + " " + problem);
        // A host's handle is made now, so that a method the public lookup cannot reach is refused at build; Finch's
        // own are made on first call (LibraryTest makes every one).
        MethodHandle boxed = null;
        if (provenance == WordSpec.Provenance.HOST) {
            try {
                boxed = boxed(MethodHandles.publicLookup().unreflect(m), ctx, depth, n, site, origin);
                if (PublicValues.any(valueIns, r)) {
                    boxed = PublicValues.adapting(boxed, valueIns, r == dev.finch.vm.Value.class);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalArgumentException(where + " is not accessible: " + e.getMessage(), e);
            }
        }
        return new Impl(decl, spec, new Impl.MethodRef(m), -1, null, null, intrinsic, ctx, depth, site, origin, boxed);
    }

    /** A word's method handle {@code h} as {@code (Ctx, int depth, Type.Fn site, Origin, Object[] inputs) Object}. */
    static MethodHandle boxed(MethodHandle direct, boolean ctx, boolean depth, int n, boolean site, boolean origin) {
        MethodHandle h = direct;
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
