package dev.finch;

import dev.finch.forth.CoForth;
import dev.finch.ir.Frontend;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.vm.Limits;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.host.FileHost;
import dev.finch.host.ProcessHost;
import dev.finch.vm.word.Library;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The entry point an embedder keeps, one per application: immutable, thread-safe, and shared by all of its
 * sessions.
 *
 * <h2>A tour of the pipeline</h2>
 * <pre>{@code
 * Finch finch = Finch.builder().maxSteps(10_000_000).timeout(Duration.ofSeconds(5)).build();
 * Session session = finch.newSession();                       // one per conversation
 * Outcome o = session.submit(Submission.of("(say \"hi\") (+ 1 2)", "turn-1")
 *                                      .withSink(chunk -> System.out.print(chunk)));
 * // o is Completed: output "hi", stack [{type: int, display: 3}], vm_revision 1
 * String json = FinchJson.write(o);                           // the D4 outcome object
 * }</pre>
 * A {@link Submission} carries program text and the host-attached source identity. {@link Session#submit} then:
 * <ol>
 *   <li><b>chooses the frontend</b> ({@link Language}): the stated language, else the contract's inference
 *       (first non-whitespace {@code (} → Lisp, otherwise Co-Forth). {@code finch-lisp} and {@code finch-forth}
 *       parse with ANTLR and <b>lower</b> to the one typed stack IR of {@code finch-ir}; Co-Forth's and Lisp's
 *       definitions land in one shared dictionary;</li>
 *   <li><b>verifies</b> the module ({@code finch-verifier}) against the session's dictionary and the types on its
 *       persistent stack: stack shapes, types, effects, yields; the inferred capability set is the permission
 *       preview that {@link Session#check} reports without running;</li>
 *   <li><b>runs</b> it on the {@link Vm} ({@code finch-vm}), which compiles the verified IR to JVM bytecode and
 *       enforces the limits set here (steps, deadline, output, memory, call depth). {@code say} chunks stream to
 *       the submission's sink as they execute;</li>
 *   <li><b>commits</b> only when the run completed: the new stack and dictionary become the session's state and its
 *       VM revision goes up by one. A failed or cancelled run commits nothing but keeps its streamed output in the
 *       {@link Outcome}; a suspended one ({@code yield}) waits for {@link Session#resume}.</li>
 * </ol>
 * Every failure a program can cause is a structured {@code Diagnostic} (phase, stable code, origin,
 * expected/found) inside the outcome, never an exception; {@link ErrorCatalogue} lists every code.
 *
 * <p>Effects leave a run only through the host boundary, after authorization: to the session's file and process
 * hosts ({@link SessionOptions} installs the roots and, optionally, hosts of the embedder's own; {@link Builder#fileHosts}
 * and {@link Builder#processHosts} make them per session), to the model and tool hosts of µNorman's {@code ask} and
 * {@code call} ({@link Builder#models}, {@link Builder#tools}), or, in deferred-host mode, back to the embedder.
 */
public final class Finch implements AutoCloseable {
    private final Vm vm;
    private final Limits limits;
    private final dev.finch.ir.limit.CompileLimits compileLimits;
    /** The frontends the builder named ({@link Builder#frontend}); Finch's own are made on first use ({@link #frontend}). */
    private final Map<Language, Frontend> frontends;
    private final dev.finch.norman.SourceLoader normanSources;
    /** This Finch's µNorman frontend (it holds {@link Builder#normanSources}), made by the first µNorman submission. */
    private volatile Frontend norman;
    private final AtomicLong sessions = new AtomicLong();
    private final java.util.function.Supplier<? extends dev.finch.host.ModelHost> models;
    private final java.util.function.Supplier<? extends dev.finch.host.ToolHost> tools;
    private final Function<? super SessionOptions, ? extends FileHost> fileHosts;
    private final Function<? super SessionOptions, ? extends ProcessHost> processHosts;
    private final Map<String, String> processEnvironment;
    private final McpServers mcp;

    private final Library library;
    /** The tag that makes this Finch's session ids unique across processes and restores. */
    private final String instance;
    private final byte[] imageKey;
    private final boolean unkeyedImages;
    private final boolean verifyRestoredHistory;
    private final ContinuationLedger ledger;
    /** Project and global grants and the memory trees: in the store when there is one, else in this Finch. */
    private final Remembering remembering;
    private final dev.finch.store.FinchStore store;
    /** Whether this Finch opened its store ({@link Builder#stateDirectory}) and closes it. */
    private final boolean ownsStore;
    private final String project;
    private volatile boolean closed;
    private final dev.finch.vm.engine.VmState emptyState;
    /**
     * The reachable sessions that hold something {@link #close} must close (connections to MCP servers); most
     * sessions hold nothing, and a weak registration of every one cost each fresh session more than its first run.
     */
    private final java.util.Set<Session> live = java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));
    /** The sessions running an operation now, so that {@link #close} can cancel what they run. */
    private final java.util.Set<Session> active = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile java.util.concurrent.ExecutorService async;
    /** The scheduler of child agents; null when the builder configured no agent profile. */
    private final dev.finch.agent.AgentScheduler agents;
    /**
     * The scheduler of the schedules programs make under the host's policies (in the store when there is one); null when
     * the builder gave a schedule host of its own ({@link Builder#scheduleHost}).
     */
    private final dev.finch.schedule.Scheduler scheduler;
    /** The builder's schedule host, which keeps and runs the schedules instead of {@link #scheduler}; null without one. */
    private final dev.finch.host.ScheduleHost scheduleHost;

    private Finch(Builder b, Library library) {
        this.vm = new Vm(b.tier.tiering, b.cpuWorkers);
        this.library = library;
        this.emptyState = dev.finch.vm.engine.VmState.empty(library);
        this.instance = b.instance != null ? b.instance : randomTag();
        this.imageKey = b.imageKey;
        this.unkeyedImages = b.unkeyedImages;
        this.verifyRestoredHistory = b.verifyRestoredHistory;
        this.ownsStore = b.store == null && b.stateDirectory != null;
        this.store = ownsStore ? openStateDirectory(b.stateDirectory) : b.store;
        this.project = b.project;
        this.ledger = b.ledger != null ? b.ledger : store != null ? store.claims().ledger() : ContinuationLedger.inMemory();
        this.remembering = store != null ? new Remembering.Stored(store) : new Remembering.Local();
        this.limits = b.limits;
        this.compileLimits = b.compileLimits;
        this.models = b.models;
        this.tools = b.tools;
        this.fileHosts = b.fileHosts;
        this.processHosts = b.processHosts;
        this.processEnvironment = b.processEnvironment;
        this.mcp = b.mcp;
        this.frontends = b.frontends.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(b.frontends));
        this.normanSources = b.normanSources;
        this.agents = b.agents == null ? null : new dev.finch.agent.AgentScheduler(this, b.agents);
        this.scheduler = b.scheduleHost != null ? null : new dev.finch.schedule.Scheduler(b.schedulePolicies,
                b.scheduleTimer != null ? b.scheduleTimer : dev.finch.schedule.ScheduleTimer.system(), store, new Sessions(this), b.scheduleSettings);
        this.scheduleHost = b.scheduleHost;
    }

    /**
     * How the scheduler opens a session of this Finch for a run: a named class, not {@code this::newSession} — the first
     * lambda a fresh JVM links costs it milliseconds, and every Finch makes one of these.
     */
    private record Sessions(Finch finch) implements java.util.function.Function<SessionOptions, Session> {
        @Override public Session apply(SessionOptions options) { return finch.newSession(options); }
    }

    /** This Finch's own scheduler; null when the builder gave a schedule host ({@link #scheduleHost()}). */
    dev.finch.schedule.Scheduler scheduler() { return scheduler; }

    /** The builder's schedule host, which keeps the schedules instead of this Finch's scheduler; null without one. */
    dev.finch.host.ScheduleHost scheduleHost() { return scheduleHost; }

    /**
     * The scheduler of child agents ({@code agent-spawn}, {@code agent-await}, …) and its context artifacts, when the
     * builder configured agent profiles ({@link Builder#agents}); empty otherwise (the agent words then fail with E-AGENT-001).
     */
    public java.util.Optional<dev.finch.agent.AgentScheduler> agents() { return java.util.Optional.ofNullable(agents); }

    /** The agent host of {@code session}'s runs, or null without a scheduler. */
    dev.finch.host.AgentHost agentHost(Session session) { return agents == null ? null : agents.hostFor(session); }

    /** A builder with the default limits. */
    public static Builder builder() { return new Builder(); }

    /** A Finch with the default limits. */
    public static Finch create() { return builder().build(); }

    /** A new, empty session with no workspace and no grants. */
    public Session newSession() { return newSession(SessionOptions.DEFAULT); }

    /**
     * A new, empty session with {@code options}. Its grants are {@code options}' and the {@code project} and
     * {@code global} grants this Finch remembers ({@link Builder#store}, {@link Builder#project}).
     */
    public Session newSession(SessionOptions options) { return new Session(this, newSessionId(), options, true); }

    /**
     * A new, empty session whose authority is exactly {@code options}' grants — no remembered {@code project} or
     * {@code global} grant joins them: a delegated session's (a child agent's ceiling is all it may hold).
     */
    public Session newDelegatedSession(SessionOptions options) { return new Session(this, newSessionId(), options, false); }

    /** Records a session that opened (new or restored) holding something to close, for {@link #close}. */
    void opened(Session session) { live.add(session); }

    /** Records that {@code session} started an operation (a submission, call or resume), for {@link #close}. */
    void entered(Session session) { active.add(session); }

    /** Records that {@code session}'s operation ended. */
    void left(Session session) { active.remove(session); }

    /**
     * A session id no other session has: {@code s<n>-<instance>}, where the instance tag is random per Finch unless
     * {@link Builder#instanceId} fixes it. Execution ids are {@code <session id>-e<n>}, so they are unique too — a
     * restored session gets a new id of the restoring Finch, and only its suspended execution keeps the id it had.
     */
    String newSessionId() { return "s" + sessions.incrementAndGet() + "-" + instance; }

    /** The limits every run of every session gets. */
    public Limits limits() { return limits; }

    /** The bounds on compiling each submission (parse, expand, lower, verify), all under the run's deadline. */
    public dev.finch.ir.limit.CompileLimits compileLimits() { return compileLimits; }

    /**
     * The words every session of this Finch may call: Finch's own and those installed with
     * {@link Builder#words}, as data (what the frontends and the verifier see, and discovery reports).
     */
    public Vocabulary vocabulary() { return library.vocabulary(); }

    Library library() { return library; }

    /**
     * The state every new session starts from, shared (a state is immutable): its environment — the vocabulary and
     * an empty dictionary, what a submission is checked against — is then built once per Finch, not once per session.
     */
    dev.finch.vm.engine.VmState emptyState() { return emptyState; }

    Vm vm() { return vm; }

    /** A new model host for one run (a fresh world: pool, deadline, clock), or null when none is installed. */
    dev.finch.host.ModelHost newModelHost() { return models == null ? null : models.get(); }

    /** A new tool host for one session, or null when none is installed. */
    dev.finch.host.ToolHost newToolHost() { return tools == null ? null : tools.get(); }

    /** A new session's MCP connections, or null when no MCP servers are configured. */
    McpServers.Connection connectMcp(Runnable toolsChanged) {
        return mcp == null ? null : java.util.Objects.requireNonNull(mcp.connect(toolsChanged), "McpServers.connect answered null");
    }

    /** The file host of a session opened with {@code options} (see {@link SessionOptions}), or null when it has none. */
    FileHost fileHost(SessionOptions options) { return SessionHosts.files(options, fileHosts); }

    /** The process host of a session opened with {@code options}. */
    ProcessHost processHost(SessionOptions options) { return SessionHosts.processes(options, processHosts, limits.timeout(), processEnvironment); }

    /**
     * The frontend of {@code language}: the builder's, else Finch's own, made when a submission first needs it — so a
     * Co-Forth run loads neither the Lisp nor the µNorman frontend (nor their lexers and parsers). Co-Forth's and
     * Lisp's hold nothing of a Finch and are shared by all ({@link OwnFrontends}); µNorman's holds this Finch's source
     * loader.
     */
    Optional<Frontend> frontend(Language language) {
        Frontend given = frontends.get(language);
        if (given != null) return Optional.of(given);
        return Optional.of(switch (language) {
            case FORTH -> OwnFrontends.Forth.FRONTEND;
            case LISP -> OwnFrontends.Lisp.FRONTEND;
            case NORMAN -> normanFrontend();
        });
    }

    private Frontend normanFrontend() {
        Frontend n = norman;
        if (n == null) {
            synchronized (this) {
                n = norman;
                if (n == null) norman = n = new dev.finch.norman.Norman(normanSources != null ? normanSources : dev.finch.norman.SourceLoader.none());
            }
        }
        return n;
    }

    /** Finch's stateless frontends, one of each per class loader, each loaded only when its language is first used. */
    private static final class OwnFrontends {
        private static final class Forth { static final Frontend FRONTEND = new CoForth(); }
        private static final class Lisp { static final Frontend FRONTEND = new dev.finch.lisp.Lisp(); }
    }

    /** The key images are authenticated with, or null. */
    byte[] imageKey() { return imageKey; }

    /** Whether images without a key's authentication are accepted. */
    boolean acceptsUnkeyedImages() { return unkeyedImages; }

    /** The definitions this Finch rebuilt from images, by content (shared by the sessions that restore them). */
    private final RebuildCache rebuilt = new RebuildCache();

    RebuildCache rebuilt() { return rebuilt; }

    /** Whether a restored image's definitions are all verified again at restore, whatever build wrote it. */
    boolean verifiesRestoredHistory() { return verifyRestoredHistory; }

    ContinuationLedger ledger() { return ledger; }

    Remembering remembering() { return remembering; }

    /** The embedded store of {@code dir}, through the {@link dev.finch.store.StoreFactory} service (finch-store). */
    private static dev.finch.store.FinchStore openStateDirectory(java.nio.file.Path dir) {
        for (dev.finch.store.StoreFactory f : java.util.ServiceLoader.load(dev.finch.store.StoreFactory.class, Finch.class.getClassLoader())) {
            return f.embedded(dir);
        }
        throw new IllegalStateException("a state directory needs the embedded store: add dev.finch:finch-store to the application");
    }

    /**
     * The store this Finch keeps what outlives a process in ({@link Builder#store}): continue-once claims, remembered
     * grants, memory. Empty when it keeps them in memory only.
     */
    public java.util.Optional<dev.finch.store.FinchStore> store() { return java.util.Optional.ofNullable(store); }

    /** The project its sessions belong to ({@link Builder#project}): whose {@code project} grants and memory they have. */
    public java.util.Optional<String> project() { return java.util.Optional.ofNullable(project); }

    /**
     * Restores a session saved with {@link Session#save} — in this process or another — with its suspended execution
     * ready to resume, approve, deny or answer, under {@code options}: the restoring host's authority. The image's own
     * workspace, roots and grants are never used — its paths are root-relative and resolve under the roots
     * {@code options} install, and the suspended run holds exactly {@code options}' grants (an approval it had been
     * given for this run only must be given again). Nothing that ran before the suspension runs again, and the pause is
     * continued at most once however often the image is restored ({@link ContinuationLedger}).
     *
     * @throws SessionImage.ImageException when the image is not authenticated by this Finch's key
     *         ({@link Builder#imageKey}; an unkeyed image only with {@link Builder#acceptUnkeyedImages}), is truncated,
     *         edited, from another format, saved under another vocabulary, or its program no longer verifies the same way
     */
    public Session restore(String image, SessionOptions options) { return SessionImage.restore(this, image, options, List.of()); }

    /**
     * As {@link #restore(String, SessionOptions)}, for a session that had installed words of its own
     * ({@link Session#installWords}): {@code sessionWords} are installed into the restored session first, so its
     * vocabulary is the one the image was saved under.
     */
    public Session restore(String image, SessionOptions options, List<Class<?>> sessionWords) {
        return SessionImage.restore(this, image, options, sessionWords);
    }

    /** As {@link #restore(String, SessionOptions)} with no workspace, roots or grants: every effect asks again. */
    public Session restore(String image) { return restore(image, SessionOptions.DEFAULT); }

    /**
     * Submits on this Finch's own async threads; see {@link Session#submitAsync(Submission)}. Fails the future with
     * {@link IllegalStateException} once this Finch is closed.
     */
    java.util.concurrent.Executor asyncExecutor() {
        java.util.concurrent.ExecutorService e = async;
        if (e == null) {
            synchronized (this) {
                if (closed) throw new IllegalStateException("this Finch is closed");
                e = async;
                if (e == null) {
                    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
                    async = e = java.util.concurrent.Executors.newCachedThreadPool(r -> {
                        Thread t = new Thread(r, "finch-async-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
                }
            }
        }
        return e;
    }

    /** True once {@link #close} was called. */
    public boolean isClosed() { return closed; }

    /**
     * Stops this Finch: a run in progress is cancelled at its next step (interrupting a process or a host call it waits
     * on, whose subprocess is destroyed), its worker and async threads end, and every later submission, call or resume
     * answers a failed outcome ({@code E-SESSION-009}) instead of running; every session's MCP servers are stopped
     * ({@link Session#close}). Sessions' tool hosts are the embedder's to
     * close. Idempotent.
     */
    @Override public void close() {
        java.util.concurrent.ExecutorService e;
        synchronized (this) {
            if (closed) return;
            closed = true;
            e = async;
        }
        List<Session> holding;
        synchronized (live) {
            holding = List.copyOf(live);
        }
        for (Session s : List.copyOf(active)) s.runningExecution().ifPresent(id -> s.cancel(id));
        for (Session s : holding) s.runningExecution().ifPresent(id -> s.cancel(id));
        for (Session s : holding) s.close();
        if (agents != null) agents.close();
        if (scheduler != null) scheduler.close();
        vm.close();
        if (ownsStore) store.close();
        if (e != null) e.shutdownNow();
    }

    /**
     * One generator for every Finch of the process, seeded from the process id and both clocks. The tag only has to
     * differ between processes (and between the Finches of one), not be unguessable: a {@code SecureRandom} cost
     * ~30 ms of a fresh JVM's first Finch (its provider list and entropy source) for the same six letters. The
     * generator is SplitMix64 written out (a {@code SplittableRandom} is the same arithmetic behind six classes the
     * JDK's archive does not hold).
     */
    private static final class Tags {
        private static long state = pid() * 0x9E3779B97F4A7C15L ^ System.nanoTime() ^ Long.rotateLeft(System.currentTimeMillis(), 32);

        /** The next 64 bits of the sequence. */
        static synchronized long next() {
            long z = state += 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /**
         * This process's id: read from {@code /proc/self} where there is one (~1 ms), else asked of
         * {@link ProcessHandle}, whose first use costs a fresh JVM 10–20 ms (it starts the process-handle machinery).
         */
        private static long pid() {
            try {
                return Long.parseLong(java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self")).toString());
            } catch (java.io.IOException | RuntimeException noProc) {
                return ProcessHandle.current().pid();
            }
        }
    }

    private static String randomTag() {
        String alphabet = "abcdfghjkmnpqrstvwxyz23456789";
        StringBuilder b = new StringBuilder();
        long bits = Tags.next() >>> 1; // non-negative: six base-29 digits use 30 of its 63 bits
        for (int i = 0; i < 6; i++) {
            b.append(alphabet.charAt((int) (bits % alphabet.length())));
            bits /= alphabet.length();
        }
        return b.toString();
    }

    /** Which VM tier runs the functions of every submission. */
    public enum Tier {
        /** Chosen per function: a one-shot top-level program without loops is interpreted, everything else compiled. */
        AUTO(ModuleCompiler.Tiering.AUTO),
        /** Everything interpreted from the verified IR (for differential testing). */
        INTERPRETED(ModuleCompiler.Tiering.INTERPRET_ALL),
        /** Everything compiled to JVM bytecode (for differential testing). */
        COMPILED(ModuleCompiler.Tiering.COMPILE_ALL),
        /**
         * Everything compiled, each word in a generated class of its own, so that every call between words crosses
         * classes as in a submission too large for one (for differential testing).
         */
        COMPILED_APART(ModuleCompiler.Tiering.COMPILE_APART);

        final ModuleCompiler.Tiering tiering;

        Tier(ModuleCompiler.Tiering tiering) { this.tiering = tiering; }
    }

    /** Sets the limits of every run; each has a safe default. */
    public static final class Builder {
        private Limits limits = Limits.DEFAULT;
        private dev.finch.ir.limit.CompileLimits compileLimits = dev.finch.ir.limit.CompileLimits.DEFAULT;
        private java.util.function.Supplier<? extends dev.finch.host.ModelHost> models;
        private java.util.function.Supplier<? extends dev.finch.host.ToolHost> tools;
        private Function<? super SessionOptions, ? extends FileHost> fileHosts;
        private Function<? super SessionOptions, ? extends ProcessHost> processHosts;
        private Map<String, String> processEnvironment = Map.of();
        private McpServers mcp;
        private final List<Class<?>> words = new java.util.ArrayList<>();
        private Tier tier = Tier.AUTO;
        private int cpuWorkers = Runtime.getRuntime().availableProcessors();
        private dev.finch.agent.AgentOptions agents;
        private final List<dev.finch.schedule.SchedulePolicy> schedulePolicies = new java.util.ArrayList<>();
        private dev.finch.schedule.ScheduleTimer scheduleTimer;
        private dev.finch.host.ScheduleHost scheduleHost;
        private dev.finch.schedule.Scheduler.Settings scheduleSettings = dev.finch.schedule.Scheduler.Settings.DEFAULT;
        private String instance;
        private byte[] imageKey;
        private boolean unkeyedImages;
        private boolean verifyRestoredHistory;
        private ContinuationLedger ledger;
        private dev.finch.store.FinchStore store;
        private java.nio.file.Path stateDirectory;
        private String project;
        /** Null for {@code SourceLoader.none()}, made with the µNorman frontend (a Finch that runs none loads no loader). */
        private dev.finch.norman.SourceLoader normanSources;
        private final Map<Language, Frontend> frontends = new EnumMap<>(Language.class);

        private Builder() { }

        /**
         * Fixes the instance tag of this Finch's session ids ({@code s<n>-<tag>}); the default is random, so ids from
         * different processes never collide. Give each process its own (a node name, a pod id): two Finches with one tag
         * make the same ids. Letters, digits, {@code .} and {@code _}, at most 40.
         */
        public Builder instanceId(String tag) {
            if (tag == null || !tag.matches("[A-Za-z0-9._]{1,40}")) throw new IllegalArgumentException("instanceId must be 1..40 letters, digits, '.' or '_'");
            this.instance = tag;
            return this;
        }

        /**
         * The secret session images are authenticated with (HMAC-SHA-256, at least 32 bytes): {@link Session#save}
         * signs with it and {@link Finch#restore} refuses an image it did not sign — an edited workspace, grant or
         * continuation, or an image of another key. Keep it where the host keeps its other secrets; every Finch that
         * restores a session's images needs the same key.
         */
        public Builder imageKey(byte[] key) {
            if (key == null || key.length < 32) throw new IllegalArgumentException("an image key has at least 32 bytes");
            this.imageKey = key.clone();
            return this;
        }

        /**
         * Accepts images no key signed (their checksum only detects accidents: anyone can re-hash an edited image).
         * Only for images the host produced and stored where nobody else can write; never for images that crossed a
         * trust boundary. Off by default.
         */
        public Builder acceptUnkeyedImages() {
            this.unkeyedImages = true;
            return this;
        }

        /**
         * Verifies every definition of a restored image again at {@link Finch#restore}, as for an image another build of
         * Finch wrote. By default an image this build wrote restores in the time it takes to read (its signature already
         * proves what it holds) and each definition is rebuilt when first needed; this trades that for finding, at
         * restore, any definition that would not rebuild. Off by default.
         */
        public Builder verifyRestoredHistory() {
            this.verifyRestoredHistory = true;
            return this;
        }

        /**
         * Where a µNorman submission's {@code (use "file")} finds its files. The default is
         * {@code SourceLoader.none()}: a submission — typically a model's — cannot read the host's files by naming them
         * in a {@code use}, which no grant or approval would see. Install {@code SourceLoader.under(dir)} for a
         * directory of the host's own µNorman libraries, or {@code SourceLoader.inMemory(files)}.
         */
        public Builder normanSources(dev.finch.norman.SourceLoader sources) {
            this.normanSources = java.util.Objects.requireNonNull(sources, "sources");
            return this;
        }

        /**
         * Lowers {@code language}'s submissions with {@code frontend} instead of Finch's own; the session verifies and
         * runs what it lowers like any submission. For a host that lowers more than a program's definitions: the
         * µNorman test harness ({@code finch-norman-test}) lowers a file together with its unit tests, each test a word
         * it then {@link Session#call}s. The frontend must name the language it stands for ({@link Frontend#language}).
         *
         * @throws IllegalArgumentException when {@code frontend} names another language
         */
        public Builder frontend(Language language, Frontend frontend) {
            java.util.Objects.requireNonNull(language, "language");
            java.util.Objects.requireNonNull(frontend, "frontend");
            if (!language.spelling().equals(frontend.language())) {
                throw new IllegalArgumentException("a frontend of " + frontend.language() + " cannot lower " + language.spelling());
            }
            frontends.put(language, frontend);
            return this;
        }

        /**
         * Keeps what should outlive this process in {@code store} (module finch-store: {@code FinchStores.embedded(dir)},
         * SQLite in a state directory, or {@code FinchStores.postgres(…)} for many processes): continue-once claims (so
         * two processes restoring one image never both continue it, unless {@link #continuations} names another
         * ledger), {@code project} and {@code global} grants and their revocations, and the memory trees. The store
         * stays the caller's: closing the Finch does not close it. Without a store they live in this Finch only.
         */
        public Builder store(dev.finch.store.FinchStore store) {
            this.store = java.util.Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Keeps what should outlive this process in the embedded store of {@code dir} (SQLite, {@code dir/finch.db},
         * created if absent), as {@link #store} does; this Finch opens it when built and closes it when closed. Needs
         * {@code dev.finch:finch-store} on the class or module path ({@link IllegalStateException} at {@link #build}
         * otherwise; a directory that cannot be used is a {@link dev.finch.store.StoreException}).
         */
        public Builder stateDirectory(java.nio.file.Path dir) {
            this.stateDirectory = java.util.Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * The project this Finch's sessions belong to: {@code project}-scoped grants are remembered for it and its
         * {@code project} memory tree is theirs (1 to 64 of {@code A-Z a-z 0-9 _ . -}; the CLI derives one from the
         * workspace). Without a project, a {@code project} approval lasts the session and the project tree is refused.
         */
        public Builder project(String projectId) {
            java.util.Objects.requireNonNull(projectId, "projectId");
            if (!projectId.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new IllegalArgumentException("a project id is 1 to 64 of A-Z a-z 0-9 _ . -, not \"" + projectId + "\"");
            }
            this.project = projectId;
            return this;
        }

        /**
         * Defines a schedule policy: programs may schedule work under it by name ({@code schedule-create}, needing
         * {@code schedule.create(policy=NAME)}), and it says what each scheduled run may do (its session's grants), how
         * many runs and how long a schedule lasts, what happens to runs missed while no Finch ran, and who receives each
         * run's outcome. A program naming a policy not defined here is refused ({@code E-SCHEDULE-002}). With a store
         * ({@link #store}, {@link #stateDirectory}), schedules are kept there and armed again by the next Finch built on it.
         */
        public Builder schedulePolicy(dev.finch.schedule.SchedulePolicy policy) {
            java.util.Objects.requireNonNull(policy, "policy");
            for (var p : schedulePolicies) {
                if (p.name().equals(policy.name())) throw new IllegalArgumentException("a schedule policy named " + policy.name() + " is already defined");
            }
            schedulePolicies.add(policy);
            return this;
        }

        /**
         * The clock and alarm of this Finch's scheduler; the default is the system clock with one daemon thread. A
         * {@link dev.finch.schedule.ManualScheduleTimer} lets a test move time by hand. The Finch closes it.
         */
        public Builder scheduleTimer(dev.finch.schedule.ScheduleTimer timer) {
            this.scheduleTimer = java.util.Objects.requireNonNull(timer, "timer");
            return this;
        }

        /**
         * Hands the schedule words ({@code schedule-create}, {@code schedule-list}, {@code schedule-cancel}) to
         * {@code host} instead of this Finch's own scheduler: schedules that live elsewhere, such as finch-temporal's
         * {@code TemporalSchedules} (Temporal Schedules, run by whichever worker of a cluster is free). The host then
         * holds the policies; a builder that also defines a {@link #schedulePolicy} or a {@link #scheduleTimer} fails
         * at {@link #build}, since this Finch would use neither.
         */
        public Builder scheduleHost(dev.finch.host.ScheduleHost host) {
            this.scheduleHost = java.util.Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * This Finch keeps the schedules its programs make and runs none: they wait in its store ({@link #store},
         * {@link #stateDirectory}) for another process on it that runs them ({@code finch schedules run}, or a Finch
         * built with {@link #scheduleRefresh}). What a short-lived process (a command line's run) wants: its schedules
         * neither run inside it nor count as missed when it starts.
         */
        public Builder keepSchedulesOnly() {
            scheduleSettings = new dev.finch.schedule.Scheduler.Settings(false, scheduleSettings.refresh());
            return this;
        }

        /**
         * Reads the store again every {@code every} for schedules other processes kept there since this Finch was built,
         * and arms them (one already due runs at once); without it, a Finch arms what its store keeps when it is built
         * and what its own programs schedule. For a process that runs the schedules of others ({@code finch schedules run}).
         */
        public Builder scheduleRefresh(java.time.Duration every) {
            java.util.Objects.requireNonNull(every, "every");
            scheduleSettings = new dev.finch.schedule.Scheduler.Settings(scheduleSettings.runs(), java.util.Optional.of(every));
            return this;
        }

        /** Where continuing a saved suspension at most once is enforced; the default holds for this Finch only (or its store's). */
        public Builder continuations(ContinuationLedger ledger) {
            this.ledger = java.util.Objects.requireNonNull(ledger, "ledger");
            return this;
        }

        /**
         * Installs the words declared on {@code classes} in every session: public static methods annotated with
         * {@link dev.finch.vm.declare.Word} and {@link dev.finch.vm.declare.Overload}, callable from Lisp and Co-Forth (and from
         * µNorman where it can spell their types) and listed by discovery. A word whose signature names a capability passes the host boundary
         * like Finch's own host words (approval, journal, deferred mode) before its method runs.
         *
         * @throws IllegalArgumentException at {@link #build} when a declaration is malformed, disagrees with its method,
         *         or takes a name or overload id already taken
         */
        public Builder words(Class<?>... classes) {
            for (Class<?> c : classes) words.add(java.util.Objects.requireNonNull(c, "word class"));
            return this;
        }

        /**
         * Runs child agents ({@code agent-spawn}, {@code agent-spawn-with}, {@code agent-await}, …) with these provider
         * profiles, budget bounds and concurrency (docs/agents.md). Without it the agent words fail with E-AGENT-001.
         */
        public Builder agents(dev.finch.agent.AgentOptions options) {
            this.agents = java.util.Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * How many CPU tasks ({@code defer-cpu}, Lisp {@code (defer :cpu …)}) compute at once, for all sessions
         * together; more wait in a queue. At least 1; the default is the number of available processors.
         */
        public Builder cpuWorkers(int workers) {
            if (workers < 1) throw new IllegalArgumentException("cpuWorkers must be at least 1, not " + workers);
            this.cpuWorkers = workers;
            return this;
        }

        /** Forces the VM tier (differential testing); the default chooses per function. */
        public Builder tier(Tier tier) {
            this.tier = java.util.Objects.requireNonNull(tier, "tier");
            return this;
        }

        /**
         * Where µNorman's {@code ask} goes once a grant or an approval allows {@code model.ask(NAME)}: {@code perRun}
         * makes the model host of each run — typically a {@code dev.finch.norman.harness.ModelWorld}: the models the
         * host serves with its own prices and ceilings, and a fresh budget pool and deadline per run over one provider
         * (an {@code AgentModelProvider} over {@code AgentProviders.anthropic(…)}, say):
         * {@code models(ModelWorld.over(provider).model("claude", HostModel.perMillionTokens(new BigDecimal("3"),
         * new BigDecimal("15"), 8192)).budget(new BigDecimal("0.05")).timeLimit(Duration.ofMinutes(2)).build())}.
         * Without one, an ask stops its run with {@code E-HOST-013}.
         */
        public Builder models(java.util.function.Supplier<? extends dev.finch.host.ModelHost> perRun) {
            this.models = java.util.Objects.requireNonNull(perRun, "perRun");
            return this;
        }

        /**
         * Where µNorman's {@code call} goes once {@code tool.call(TOOL,OP)} is allowed: {@code perSession} makes the tool
         * host of each session when it opens (a restored one too), typically
         * {@code () -> Tools.of(Map.of("web", httpTool, "py", new PythonKernel()))} from
         * {@code dev.finch.norman.providers}. One per session, because tools keep state — a kernel's variables must
         * not pass from one session's runs to another's; the embedder closes what it made when the session ends.
         * Without one, a call stops its run with {@code E-HOST-013}.
         */
        public Builder tools(java.util.function.Supplier<? extends dev.finch.host.ToolHost> perSession) {
            this.tools = java.util.Objects.requireNonNull(perSession, "perSession");
            return this;
        }

        /**
         * Where the file words of every session go once authorized, unless the session's own options name a file host
         * ({@link SessionOptions#withFileHost}): {@code perSession} makes the file host of each session when it opens
         * (a restored one too, which is why a host of your own belongs here rather than only on the options), from
         * that session's options — their roots, typically. For example, every session's files audited:
         * {@code fileHosts(options -> new AuditedFiles(new LocalFileHost(options.roots())))}. The host reports the
         * roots it serves ({@link FileHost#installed}); a word over any other root fails with {@code E-HOST-002}.
         * Without a factory, a session gets a {@link dev.finch.host.LocalFileHost} over its installed roots.
         * A host that throws, or answers null or more than was asked, fails that operation with a {@code host}
         * diagnostic ({@code E-HOST-005}, {@code E-HOST-006}), never the session.
         */
        public Builder fileHosts(Function<? super SessionOptions, ? extends FileHost> perSession) {
            this.fileHosts = java.util.Objects.requireNonNull(perSession, "perSession");
            return this;
        }

        /**
         * Where {@code process-run} goes once authorized, unless the session's options name a process host
         * ({@link SessionOptions#withProcessHost}): {@code perSession} makes each session's process host when it opens
         * (a restored one too), from its options. Without one, a session gets a
         * {@link dev.finch.host.LocalProcessHost} working in its workspace, killed (with everything it started) at
         * the run's timeout, deadline or cancellation, with 8 MiB per captured stream and only the allowlisted
         * environment plus {@link #processEnvironment}. A host that throws or answers null fails the call with {@code E-HOST-010}.
         */
        public Builder processHosts(Function<? super SessionOptions, ? extends ProcessHost> perSession) {
            this.processHosts = java.util.Objects.requireNonNull(perSession, "perSession");
            return this;
        }

        /**
         * The MCP servers every session reaches: each session connects when it opens (starting stdio servers of its
         * own), installs a word {@code mcp.<server>.<tool>} for each tool with an admissible schema — raising its
         * manifest generation — and stops them when it or this Finch closes. {@code mcp-call} and those words go there
         * once {@code mcp.call(SERVER,TOOL)} is granted or approved: configuring a server grants nothing. Finch's
         * adapter is {@code dev.finch.mcp.McpClients} in {@code finch-mcp} (docs/mcp.md). Without one, {@code mcp-call}
         * fails with {@code E-HOST-024}.
         */
        public Builder mcp(McpServers servers) {
            this.mcp = java.util.Objects.requireNonNull(servers, "servers");
            return this;
        }

        /**
         * Environment variables every child of the local process host gets, over (or beside) the allowlist Finch sets
         * itself — {@code PATH}, {@code LANG}, {@code LC_ALL}, and {@code HOME}/{@code TMPDIR} in a private scratch
         * directory per call ({@link dev.finch.host.LocalProcessHost}). Nothing of the JVM's own environment reaches
         * a child otherwise, so name here exactly what programs' processes may see (never a secret they should not).
         * Replaces what an earlier call gave. Only the local host uses it; a host of your own
         * ({@link #processHosts}) decides its children's environment itself. A malformed name or a value with NUL is an
         * {@code IllegalArgumentException}.
         */
        public Builder processEnvironment(Map<String, String> variables) {
            this.processEnvironment = dev.finch.host.LocalProcessHost.checkedEnvironment(variables);
            return this;
        }

        /**
         * The bounds on compiling one submission — source characters, tokens, nesting, macro expansion, type size and
         * checking work ({@link dev.finch.ir.limit.CompileLimits#DEFAULT} by default). Compiling counts against the
         * run's deadline and stops at its cancellation too; crossing a bound is an {@code E-LIMIT-01x} diagnostic.
         */
        public Builder compileLimits(dev.finch.ir.limit.CompileLimits compile) {
            this.compileLimits = java.util.Objects.requireNonNull(compile, "compile");
            return this;
        }

        /** Steps (calls and loop back-edges) one run may take before it fails. */
        public Builder maxSteps(long steps) { limits = limits.withMaxSteps(positive(steps, "maxSteps")); return this; }

        /** Wall-clock time one run may take: a submission (compiling and running it), or one resume of a paused execution. */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive");
            limits = limits.withTimeout(timeout);
            return this;
        }

        /** UTF-8 bytes of {@code say} output one run may produce. */
        public Builder maxOutputBytes(long bytes) { limits = limits.withMaxOutputBytes(positive(bytes, "maxOutputBytes")); return this; }

        /**
         * Running time one execution may take in all, summed over its start and every resume (default 10 min; time
         * spent paused does not count): a program that pauses just before each run's timeout still ends, with
         * {@code E-LIMIT-007}.
         */
        public Builder maxExecutionTime(Duration total) {
            if (total == null || total.isNegative() || total.isZero()) throw new IllegalArgumentException("maxExecutionTime must be positive");
            limits = limits.withMaxExecutionTime(total);
            return this;
        }

        /**
         * Bytes of values one run may build: the logical size of each value, a shared part counted once per use (a
         * list holding one list twice is twice its size), so a value doubled thirty times is refused when built
         * ({@code E-LIMIT-005}).
         */
        public Builder maxMemoryBytes(long bytes) { limits = limits.withMaxMemoryBytes(positive(bytes, "maxMemoryBytes")); return this; }

        /** Nested word calls one run may make. */
        public Builder maxDepth(int depth) { limits = limits.withMaxDepth((int) positive(depth, "maxDepth")); return this; }

        /** The configured Finch. */
        public Finch build() {
            if (scheduleHost != null && (!schedulePolicies.isEmpty() || scheduleTimer != null || !scheduleSettings.equals(dev.finch.schedule.Scheduler.Settings.DEFAULT))) {
                throw new IllegalStateException("a Finch with a schedule host has no scheduler of its own: define the schedule policies on the host");
            }
            Finch f = new Finch(this, Library.core().with(words));
            try {
                if (f.scheduler != null) f.scheduler.start();
            } catch (RuntimeException e) {
                f.close();
                throw e;
            }
            return f;
        }

        private static long positive(long v, String what) {
            if (v <= 0) throw new IllegalArgumentException(what + " must be positive, was " + v);
            return v;
        }
    }
}
