package dev.finch;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.print.CoForthPrinter;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Suspension;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmState;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.host.ModelHost;
import dev.finch.host.ProcessHost;
import dev.finch.host.ToolHost;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One conversation's VM: the persistent typed stack and the dictionary shared by every frontend, a VM revision
 * (0 at first, +1 per committed run) and a manifest generation (1 at first; it changes when the host installs
 * new words). Runs are transactions: a run works on a snapshot and only a completed run commits.
 *
 * <p>A session runs one submission at a time. A second thread that enters while one runs gets a deterministic
 * {@code E-SESSION-003} outcome instead of waiting or racing; {@link #cancel} is the one operation meant for
 * another thread. A suspended run whose session moved on (another submission committed) is not continued: an
 * approval, a result or a resume of it is {@link Outcome.Refused} ({@code E-SESSION-001}) before anything is
 * dispatched, and it still waits (cancel it, or deny its request).
 *
 * <p>Any thread may submit, call or resume: one with little stack (an embedder's 128 KiB pool thread, say) has the
 * whole operation done on one of the VM's big-stack workers while it waits; a short program from a thread with room
 * runs on that thread itself (docs/architecture.md, Worker threads).
 *
 * <p>No method throws for anything a program contains or does. API misuse — {@code null} where an argument is needed
 * (an execution id, a submission, a scope) — is an {@link IllegalArgumentException} naming the argument.
 */
public final class Session {
    private final Finch finch;
    private final String id;
    private final SessionOptions options;
    /**
     * Who holds the session: nobody ({@link #FREE}), one operation ({@link #TAKEN}: a submission, a resume, a call, an
     * install), or a reinstall of MCP words that a server's {@code tools/list_changed} started on the SDK's thread
     * ({@link #INSTALLING}), which an arriving operation waits out. One variable, so no operation can see the reinstall
     * ended before the session is free again.
     */
    private final AtomicInteger holder = new AtomicInteger(FREE);
    private static final int FREE = 0;
    private static final int TAKEN = 1;
    private static final int INSTALLING = 2;
    private final AtomicLong executions = new AtomicLong();
    private final ConcurrentHashMap<String, CancelToken> running = new ConcurrentHashMap<>();
    /** The committed state and its transaction. */
    private final SessionState state;
    /** The grants in force, the ids given, the revocations. */
    private final SessionGrants grants;
    /** The memory trees this session's runs read, and where a committing run's staged writes go (its session tree survives an image). */
    private volatile SessionMemory memory;
    /** The executions not yet committed: running, suspended, saved; their continue-once claims. */
    private final Suspensions suspensions = new Suspensions();
    private final FileHost files;
    private final ProcessHost processes;
    /** This session's tool host (µNorman's call), made when it opened; null when Finch has none. */
    private final dev.finch.host.ToolHost tools;
    /** The committed submissions the dictionary was built from, as images need them ({@link SessionImage}). */
    private final SessionHistory history;
    /** The calls prepared on the current state ({@link #call}); used only while the session is busy with a call. */
    private final CallPlans callPlans = new CallPlans();
    /** Lowering and verifying a submission against the committed state. */
    private final Compilation compilation;
    /** This session's MCP words, installed when it opened; null when its Finch configures no MCP servers. */
    private final McpWords mcp;

    /** With {@code remembered}, the Finch's remembered project and global grants join {@code options}' (not for a delegated session). */
    Session(Finch finch, String id, SessionOptions options, boolean remembered) {
        this.finch = finch;
        this.id = id;
        this.options = options;
        this.state = new SessionState(finch.emptyState());
        this.compilation = new Compilation(finch);
        this.history = new SessionHistory(finch, this);
        this.grants = new SessionGrants(options.grants(), finch.remembering(), finch.project().orElse(null), remembered);
        this.memory = new SessionMemory(finch.remembering(), id, finch.project().orElse(null));
        this.files = finch.fileHost(options);
        this.tools = finch.newToolHost();
        this.processes = finch.processHost(options);
        McpServers.Connection connection = finch.connectMcp(new McpToolsChanged(this));
        this.mcp = connection == null ? null : new McpWords(connection);
        if (mcp != null) {
            mcp.install(state);
            finch.opened(this);
        }
    }

    /** The grants in force for new runs (session scope and wider). */
    public GrantSet grants() { return grants.current(); }

    /**
     * Revokes a grant by id: new runs do not have it, and a run that holds it — running, or paused at a yield or for an
     * approval — loses it at its next capability boundary (the request then pauses for approval like any missing one)
     * and can no longer list it or delegate it to a child agent. True when the id names a grant this session made (when
     * it opened, or by an approval) that was not revoked before.
     */
    public boolean revoke(String grantId) {
        return grants.revoke(arg(grantId, "grantId"));
    }

    private HostConfig host(Submission s, SessionSchedules schedules) {
        HostConfig h = hostConfig(schedules);
        for (var o : s.observers()) h = h.withObserver(o);
        return h;
    }

    /** This session's id, unique within its {@link Finch}; execution ids start with it. */
    public String id() { return id; }

    /** The roots, grants, mode and bindings the host opened this session with. */
    public SessionOptions options() { return options; }

    /** The number of committed runs so far. */
    public long vmRevision() { return state.current().revision(); }

    /** The manifest generation submissions are checked against; it goes up each time words are installed. */
    public long manifestGeneration() { return state.current().generation(); }

    /** The words this session's submissions may call: its Finch's, and those installed with {@link #installWords}. */
    public dev.finch.ir.vocab.Vocabulary vocabulary() { return state.current().state().library().vocabulary(); }

    /**
     * Installs the words declared on {@code classes} (see {@link Finch.Builder#words}) into this session only. The
     * manifest generation goes up by one, so a submission composed against the previous vocabulary and stating its
     * generation is refused ({@code E-SESSION-002}) rather than run against words it did not see; the VM revision, the
     * stack and the dictionary are unchanged. Answers the new generation.
     *
     * @throws IllegalArgumentException when a declaration is malformed or takes a name or id already taken
     * @throws IllegalStateException when a submission is running in this session
     */
    public long installWords(List<Class<?>> classes) {
        arg(classes, "classes").forEach(c -> arg(c, "a word class"));
        if (!enter()) throw new IllegalStateException("session " + id + " is running a submission");
        try {
            return state.installWords(library -> library.with(classes));
        } finally {
            leave();
        }
    }

    /*
     * McpToolsChanged and Nothing (and Compilation's NotCancelled) are named classes, not lambdas, and the submit and
     * call paths below use loops, not streams: a fresh JVM's first submission makes them, where linking each lambda
     * costs ~0.7 ms.
     */

    /** Tells the session that its MCP servers' tools changed. */
    private record McpToolsChanged(Session session) implements Runnable {
        @Override
        public void run() { session.mcpToolsChanged(); }
    }

    /** Does nothing: a continuation that accepts nothing more. */
    private static final class Nothing implements Runnable {
        @Override
        public void run() { }
    }

    /** A server announced {@code tools/list_changed}: reinstall now if the session is idle, else before the next submission. */
    private void mcpToolsChanged() {
        if (mcp == null) return;
        mcp.markStale();
        if (!holder.compareAndSet(FREE, INSTALLING)) return;
        try {
            mcp.install(state);
        } catch (RuntimeException e) {
            mcp.markStale();
        } finally {
            holder.set(FREE);
        }
    }

    /**
     * Takes the session for one operation (one at a time); a reinstall of MCP words in progress is waited out (it
     * takes a moment) rather than answered as busy.
     */
    private boolean enter() {
        if (!take()) return false;
        finch.entered(this);
        return true;
    }

    private boolean take() {
        if (holder.compareAndSet(FREE, TAKEN)) return true;
        long end = System.nanoTime() + 2_000_000_000L;
        while (true) {
            if (holder.compareAndSet(FREE, TAKEN)) return true;
            int h = holder.get();
            if (h == TAKEN || System.nanoTime() - end >= 0) return false;
            if (h == INSTALLING) Thread.onSpinWait();
        }
    }

    /**
     * Gives the session back after one operation; a server's tools that changed meanwhile (a {@code tools/list_changed}
     * that arrived while it was busy — often during the very call that changed them) are reinstalled at once, not left
     * for the next submission.
     */
    private void leave() {
        finch.left(this);
        holder.set(FREE);
        if (mcp != null && mcp.stale()) mcpToolsChanged();
    }

    /** Reinstalls the MCP words if a server's tools changed while this session was busy (called holding the session). */
    private void refreshMcp() {
        if (mcp != null && mcp.stale()) mcp.install(state);
    }

    /**
     * Closes this session's connections to MCP servers (stopping the server processes it started). The session's
     * state stays readable; a later MCP call fails with {@code E-HOST-025}. Idempotent; {@link Finch#close} closes every
     * session's.
     */
    public void close() {
        if (mcp != null) mcp.connection().close();
    }

    /**
     * A name a host may give a constant: what both Lisp and Co-Forth read as one name. In a holder class, compiled when
     * a constant is first defined, not when a fresh JVM's first session is made.
     */
    private static final class ConstantName {
        static final java.util.regex.Pattern PATTERN = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_?!*+<>=/.-]{0,255}");
    }

    /** Whether {@code name} is a name {@link #define} accepts (both languages read it as one name). */
    public static boolean isConstantName(String name) { return name != null && ConstantName.PATTERN.matcher(name).matches(); }

    /**
     * Defines (or gives a new value to) the session constant {@code name}: later submissions in every language read it
     * by name, as if a program had said {@code value constant name}. The VM revision goes up by one; the constant is
     * saved with the session's images like any other. This is how a host hands a program its inputs by name (the JSR-223
     * engine's bindings use it).
     *
     * @return the new VM revision
     * @throws IllegalArgumentException when {@code name} is not a name both languages read, names a word or a definition,
     *                                  or names a constant of another type (definitions were verified against its type)
     * @throws IllegalStateException when a submission is running in this session
     */
    public long define(String name, dev.finch.vm.Value value) {
        arg(name, "name");
        arg(value, "value");
        if (!isConstantName(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a constant name (a letter or _, then letters, digits and _?!*+<>=/.-, at most 256)");
        }
        if (!enter()) throw new IllegalStateException("session " + id + " is running a submission");
        try {
            VmState now = state.current().state();
            if (now.library().vocabulary().word(name).isPresent() || now.words().containsKey(name)) {
                throw new IllegalArgumentException("'" + name + "' names a word of this session; a constant needs a name of its own");
            }
            TypedValue typed = TypedValue.of(value);
            TypedValue old = now.constants().get(name);
            if (old != null && !old.type().equals(typed.type())) {
                throw new IllegalArgumentException("constant '" + name + "' is a " + old.type() + "; it cannot become a " + typed.type()
                        + " (definitions were verified against its type)");
            }
            java.util.Map<String, TypedValue> constants = new java.util.LinkedHashMap<>(now.constants());
            constants.put(name, typed);
            return state.commitHostChange(at -> new VmState(at.library(), at.stack(), at.words(), constants));
        } finally {
            leave();
        }
    }

    /** The committed persistent stack, bottom to top. */
    public List<StackEntry> stack() { return StackDisplay.entries(state.current().state()); }

    /**
     * The signatures of the persisted definitions, by name, in the compact spelling — the program's own, never the words
     * a frontend made for itself ({@link WordDef#isInternal}).
     */
    public java.util.SortedMap<String, String> definitions() {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        state.current().state().words().forEach((n, w) -> {
            if (!WordDef.isInternal(n)) out.put(n, w.signature().toString());
        });
        return out;
    }

    /** The id of the execution running right now, if any (to {@link #cancel} it from another thread). */
    public Optional<String> runningExecution() { return running.keySet().stream().findFirst(); }

    /** The ids of the executions suspended and waiting for {@link #resume}. */
    public java.util.Set<String> suspendedExecutions() { return java.util.Set.copyOf(suspensions.ids()); }

    /** Lowers, verifies and runs {@code submission}; never throws for anything a program can contain. */
    public Outcome submit(Submission submission) { return submit(submission, SESSION_HOSTS); }

    /** The session's own hosts, unchanged. A class, not {@code UnaryOperator.identity()}: a fresh JVM's first submission links no lambda. */
    private static final java.util.function.UnaryOperator<HostConfig> SESSION_HOSTS = new OwnHosts();

    private static final class OwnHosts implements java.util.function.UnaryOperator<HostConfig> {
        @Override
        public HostConfig apply(HostConfig h) { return h; }
    }

    /**
     * As {@link #submit(Submission)}, its run's µNorman {@code ask} going to {@code models} and {@code call} to
     * {@code tools} instead of the ones this session's {@link Finch} makes ({@link Finch.Builder#models},
     * {@link Finch.Builder#tools}); everything else — grants, limits, the host boundary, the transaction — is the
     * session's. For a host that gives each run a world of its own: the µNorman test harness runs each test against
     * the scripted models and tools of its file. Either may be null: that run has no such host ({@code E-HOST-013}).
     */
    public Outcome submit(Submission submission, dev.finch.host.ModelHost models, dev.finch.host.ToolHost tools) {
        return submit(submission, h -> h.with(ModelHost.class, models).with(ToolHost.class, tools));
    }

    /**
     * As {@link #submit(Submission, dev.finch.host.ModelHost, dev.finch.host.ToolHost)}, the run's memory trees
     * {@code memory}'s instead of this session's: what its memory words read, and where its staged writes are applied
     * when it commits (a failed run writes nothing there either). For a world of its own with its own memory: the
     * µNorman test harness gives each test an empty one. A paused run saved in an image and continued by a restored
     * session runs with that session's memory, as every restored run does with its session's bindings.
     */
    public Outcome submit(Submission submission, dev.finch.host.ModelHost models, dev.finch.host.ToolHost tools, dev.finch.host.MemoryHost memory) {
        arg(memory, "memory");
        return submit(submission, h -> h.with(ModelHost.class, models).with(ToolHost.class, tools).with(dev.finch.host.MemoryHost.class, memory));
    }

    private Outcome submit(Submission submission, java.util.function.UnaryOperator<HostConfig> hosts) {
        arg(submission, "submission");
        if (!dev.finch.vm.engine.CallerThread.roomy()) return finch.vm().onWorker(() -> submit(submission, hosts));
        String executionId = nextExecutionId();
        String language = submission.resolvedLanguage().spelling();
        if (finch.isClosed()) return failed(executionId, submission.sourceId(), language, "", List.of(), closedDiagnostic(submission.sourceId()));
        if (!enter()) {
            return failed(executionId, submission.sourceId(), language, "", List.of(), busyDiagnostic(submission.sourceId()));
        }
        try {
            refreshMcp();
            return run(executionId, submission, language, hosts);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            // A defect of ours, never the program's: report it as a diagnostic, commit nothing.
            running.remove(executionId);
            return failed(executionId, submission.sourceId(), language, "", List.of(), internal(submission.sourceId(), e));
        } finally {
            leave();
        }
    }

    /**
     * Calls {@code word} — a definition of this session (from any language), a constant of it (no arguments: the
     * outcome's one value is the constant's), or a word of its vocabulary — with
     * {@code args} as its inputs, bottom to top as its signature lists them, without any source text: the word's
     * signature is checked against the arguments' types (a generic word is instantiated by them), and the call runs
     * under the same limits, host boundary (grants, approvals, deferred mode) and transaction as a submission. The
     * outcome's {@link Outcome#values()} are the word's outputs; the session's own stack, dictionary and revision
     * are not touched. A call that pauses at the host boundary is approved, denied, answered or saved like a
     * submission. Never throws for anything the arguments or the word can do; an unknown word or a wrong number of
     * arguments is {@code E-SESSION-007}, a wrong type the verifier's diagnostic.
     */
    public Outcome call(String word, dev.finch.vm.Value... args) { return call(word, java.util.Arrays.asList(arg(args, "args")), OutputSink.NONE); }

    /** As {@link #call(String, dev.finch.vm.Value...)}, streaming the word's {@code say} chunks to {@code sink}. */
    public Outcome call(String word, List<dev.finch.vm.Value> args, OutputSink sink) {
        return call(word, args, sink, SESSION_HOSTS);
    }

    /**
     * As {@link #call(String, List, OutputSink)}, the call's µNorman {@code ask} going to {@code models} and {@code call}
     * to {@code tools} instead of the ones this session's {@link Finch} makes, as {@link #submit(Submission,
     * dev.finch.host.ModelHost, dev.finch.host.ToolHost)} does for a submission. Either may be null.
     */
    public Outcome call(String word, List<dev.finch.vm.Value> args, OutputSink sink, dev.finch.host.ModelHost models,
                        dev.finch.host.ToolHost tools) {
        return call(word, args, sink, h -> h.with(ModelHost.class, models).with(ToolHost.class, tools));
    }

    /**
     * As {@link #call(String, List, OutputSink, dev.finch.host.ModelHost, dev.finch.host.ToolHost)}, the call's memory
     * trees {@code memory}'s instead of this session's, as {@link #submit(Submission, dev.finch.host.ModelHost,
     * dev.finch.host.ToolHost, dev.finch.host.MemoryHost)} does for a submission.
     */
    public Outcome call(String word, List<dev.finch.vm.Value> args, OutputSink sink, dev.finch.host.ModelHost models,
                        dev.finch.host.ToolHost tools, dev.finch.host.MemoryHost memory) {
        arg(memory, "memory");
        return call(word, args, sink, h -> h.with(ModelHost.class, models).with(ToolHost.class, tools).with(dev.finch.host.MemoryHost.class, memory));
    }

    private Outcome call(String word, List<dev.finch.vm.Value> args, OutputSink sink, java.util.function.UnaryOperator<HostConfig> hosts) {
        arg(word, "word");
        for (dev.finch.vm.Value v : arg(args, "args")) arg(v, "an argument");
        if (!dev.finch.vm.engine.CallerThread.roomy()) return finch.vm().onWorker(() -> call(word, args, sink, hosts));
        List<dev.finch.vm.Value> arguments = List.copyOf(args);
        String executionId = nextExecutionId();
        String sourceId = "call:" + word;
        if (finch.isClosed()) return failed(executionId, sourceId, null, "", List.of(), closedDiagnostic(sourceId));
        if (!enter()) return failed(executionId, sourceId, null, "", List.of(), busyDiagnostic(sourceId));
        try {
            return runCall(executionId, word, sourceId, arguments, sink == null ? OutputSink.NONE : sink, hosts);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            running.remove(executionId);
            suspensions.ended(executionId);
            return failed(executionId, sourceId, null, "", List.of(), internal(sourceId, e));
        } finally {
            leave();
        }
    }

    private Outcome runCall(String executionId, String word, String sourceId, List<dev.finch.vm.Value> args, OutputSink out,
                            java.util.function.UnaryOperator<HostConfig> hosts) {
        SessionState.Snapshot base = state.current();
        List<TypedValue> inputs = new ArrayList<>(args.size());
        List<dev.finch.ir.type.Type> inputTypes = new ArrayList<>(args.size());
        for (dev.finch.vm.Value v : args) {
            TypedValue input = TypedValue.of(v);
            inputs.add(input);
            inputTypes.add(input.type());
        }
        CallPlans.Plan plan = callPlans.get(base.state(), word, inputTypes);
        if (plan == null) {
            Origin at = Origin.of(sourceId, 1, 1);
            Optional<Diagnostic> refused = callable(base.state(), word, args.size(), at);
            if (refused.isPresent()) return failed(executionId, sourceId, null, "", List.of(), refused.get());
            Environment env = base.state().environment().withStack(List.copyOf(inputTypes))
                    .withBudget(compilation.budget(deadline(), Compilation.NOT_CANCELLED));
            Module module = new Module(sourceId, Language.FORTH.spelling(), List.of(),
                    dev.finch.ir.instr.Block.of(new dev.finch.ir.instr.Instr.Call(word, List.of(), at)));
            Verification v = Verifier.verify(module, env);
            if (v.module().isEmpty() || !v.diagnostics().isEmpty()) {
                return failed(executionId, sourceId, null, "", List.of(), Compilation.nonEmpty(v.diagnostics(), sourceId, "the verifier produced no module"));
            }
            CheckedModule checked = v.module().get();
            plan = new CallPlans.Plan(finch.vm().prepare(checked, base.state()), Compilation.capabilities(checked),
                    new SessionHistory.Submitted(CoForthPrinter.print(module), Language.FORTH.spelling(), sourceId, env, true, checked));
            callPlans.put(base.state(), word, inputTypes, plan);
        }
        HostConfig host = hosts.apply(hostConfig());
        suspensions.started(executionId, plan.entry(), ownMemory(host));
        OutputSink sink = guarded(out);
        CancelToken token = new CancelToken();
        running.put(executionId, token);
        RunResult r;
        try {
            r = finch.vm().run(executionId, plan.program(), inputs, finch.limits(), sink, token, host);
        } finally {
            running.remove(executionId);
        }
        return settle(executionId, sourceId, null, plan.inferred(), base.revision(), sink, r);
    }

    /** Why {@code word} cannot be called with {@code arity} arguments, if it cannot. */
    private static Optional<Diagnostic> callable(VmState state, String word, int arity, Origin at) {
        var defined = state.words().get(word);
        if (defined != null) {
            int ins = defined.signature().ins().size();
            return ins == arity ? Optional.empty() : Optional.of(SessionCode.CALL.at(at,
                    "`" + word + "` takes " + ins + " argument" + (ins == 1 ? "" : "s") + ", " + arity + " given", Integer.toString(ins), Integer.toString(arity)));
        }
        if (state.constants().containsKey(word)) {
            return arity == 0 ? Optional.empty() : Optional.of(SessionCode.CALL.at(at,
                    "`" + word + "` is a constant: it takes no arguments, " + arity + " given", "0", Integer.toString(arity)));
        }
        var spec = state.library().vocabulary().word(word);
        if (spec.isEmpty()) {
            return Optional.of(SessionCode.CALL.at(at, "no definition or word named `" + word + "` in this session"));
        }
        if (spec.get().typing() != dev.finch.ir.vocab.Typing.ORDINARY) {
            return Optional.of(SessionCode.CALL.at(at, "`" + word + "` takes its type or tag in the program text; call it from a submission"));
        }
        boolean takesArity = false;
        for (var o : spec.get().overloads()) takesArity |= o.signature().ins().size() == arity;
        if (!takesArity) {
            String counts = spec.get().overloads().stream().map(o -> Integer.toString(o.signature().ins().size())).distinct()
                    .collect(java.util.stream.Collectors.joining(" or "));
            return Optional.of(SessionCode.CALL.at(at, "`" + word + "` takes " + counts + " arguments, " + arity + " given", counts, Integer.toString(arity)));
        }
        return Optional.empty();
    }

    /**
     * Refuses API misuse — a null where a value is needed — as the {@link IllegalArgumentException} every public method
     * documents; nothing a program does reaches this.
     */
    private static <T> T arg(T value, String name) {
        if (value == null) throw new IllegalArgumentException(name + " is null");
        return value;
    }

    private String nextExecutionId() { return id + "-e" + executions.incrementAndGet(); }

    /**
     * {@link #submit} on another thread — this Finch's async threads — so the caller does not wait: the future completes
     * with the outcome (it never completes exceptionally for anything a program does). Cancelling the future cancels the
     * execution if it is running (it stops at its next step and commits nothing). Submissions to one session still run
     * one at a time: a second one while the first runs answers {@code E-SESSION-003}, so chain them
     * ({@code thenCompose}) rather than firing them together.
     */
    public java.util.concurrent.CompletableFuture<Outcome> submitAsync(Submission submission) {
        arg(submission, "submission");
        java.util.concurrent.Executor executor;
        try {
            executor = finch.asyncExecutor();
        } catch (IllegalStateException closed) {
            return java.util.concurrent.CompletableFuture.completedFuture(
                    failed(nextExecutionId(), submission.sourceId(), submission.resolvedLanguage().spelling(), "", List.of(), closedDiagnostic(submission.sourceId())));
        }
        java.util.concurrent.CompletableFuture<Outcome> future = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.atomic.AtomicReference<Thread> worker = new java.util.concurrent.atomic.AtomicReference<>();
        future.whenComplete((o, t) -> {
            if (future.isCancelled() && worker.get() != null) runningExecution().ifPresent(this::cancel);
        });
        try {
            executor.execute(() -> {
                worker.set(Thread.currentThread());
                if (!future.isDone()) future.complete(submit(submission));
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            future.complete(failed(nextExecutionId(), submission.sourceId(), submission.resolvedLanguage().spelling(), "", List.of(), closedDiagnostic(submission.sourceId())));
        }
        return future;
    }

    /**
     * The durable image of this session with one suspended execution: committed submissions (to rebuild the
     * dictionary), the stack and constants, and the execution's continuation. {@link Finch#restore} resumes it in
     * any process; nothing that ran before the suspension runs again.
     */
    public String save(String executionId) {
        arg(executionId, "executionId");
        String image = SessionImage.save(this, executionId);
        suspensions.saved(executionId);
        return image;
    }

    /**
     * The durable image of this session between submissions: its committed submissions (to rebuild the dictionary),
     * stack and constants, with no suspended execution. {@link Finch#restore} opens it as a session that has just
     * committed them, in any process; a suspended execution this session holds is not in the image (save it with
     * {@link #save(String)}). Throws {@link SessionImage.ImageException} when the stack or constants hold a value that
     * lives only in this process.
     */
    public String save() { return SessionImage.save(this, null); }

    /** The number of the pause execution {@code executionId} is at (1 for its first). */
    long pause(String executionId) { return suspensions.pause(executionId); }

    // ---- package-private access for SessionImage ----

    SessionHistory history() { return history; }

    Optional<SessionHistory.Submitted> inFlight(String executionId) { return suspensions.inFlight(executionId); }

    Optional<Suspension> suspension(String executionId) { return suspensions.paused(executionId).map(Suspensions.Paused::suspension); }

    Optional<Long> baseRevision(String executionId) { return suspensions.paused(executionId).map(Suspensions.Paused::baseRevision); }

    VmState committedState() { return state.current().state(); }

    Finch finch() { return finch; }

    /** Whose session memory tree this session reads and writes: its own id, or the saved session's it was restored from. */
    String memoryOwner() { return memory.sessionId(); }

    /** Restoring: the session memory tree is the saved session's (set before any run). */
    void memoryOwner(String owner) {
        memory = new SessionMemory(finch.remembering(), owner, finch.project().orElse(null));
        sessionHosts = null;
    }

    /** The memory host of a run's {@code host} when it is not this session's own (null when it is). */
    private dev.finch.host.MemoryHost ownMemory(HostConfig host) {
        dev.finch.host.MemoryHost m = host.binding(dev.finch.host.MemoryHost.class);
        return m == memory ? null : m;
    }

    /** The session's bindings that every run shares (made when first needed): its files, processes, tools, editor, desktop and MCP servers. */
    private volatile HostConfig sessionHosts;

    /** The host of a new run: the session's grants and bindings, a fresh model host and the session's agent host. */
    HostConfig hostConfig() { return hostConfig(null); }

    /**
     * The same, with {@code schedules} (when not null) as the run's own schedule host — the bindings copied once more
     * for the run, not twice.
     */
    HostConfig hostConfig(SessionSchedules schedules) {
        HostConfig base = sessionHosts;
        if (base == null) {
            // One copy of the bindings, not one per family: a new session per submission pays this each time.
            Map<Class<?>, Object> hosts = new IdentityHashMap<>();
            hosts.put(FileHost.class, files);
            hosts.put(ProcessHost.class, processes);
            hosts.put(dev.finch.host.ToolHost.class, tools);
            hosts.put(dev.finch.host.EditorHost.class, options.editorHost().orElse(null));
            hosts.put(dev.finch.automation.AutomationHost.class, options.automationHost().orElse(null));
            hosts.put(dev.finch.net.NetHost.class, options.netHost().orElse(null));
            hosts.put(dev.finch.host.McpHost.class, mcp == null ? null : mcp.connection());
            hosts.put(dev.finch.host.MemoryHost.class, memory);
            hosts.put(dev.finch.host.ScheduleHost.class, new SessionSchedules(this, null, null));
            base = HostConfig.of(GrantSet.EMPTY, options.deferred(), grants.revocations(), hosts);
            // With a store, every effect's intent is journaled there before it is performed, and its receipt after.
            if (finch.store().isPresent()) base = base.withObserver(new StoreJournal(finch.store().get().journal()));
            sessionHosts = base;
        }
        Map<Class<?>, Object> perRun = new IdentityHashMap<>(4);
        perRun.put(dev.finch.host.ModelHost.class, finch.newModelHost());
        perRun.put(dev.finch.host.AgentHost.class, finch.agentHost(this));
        if (schedules != null) perRun.put(dev.finch.host.ScheduleHost.class, schedules);
        return base.withAll(grants.current(), perRun);
    }

    /** Installs a restored state, as it was when the image was saved (its history is already read). */
    void install(VmState restored, long revision, long generation) { state.restore(restored, revision, generation); }

    /** Installs a restored suspended execution at its {@code pause}-th pause; it claims that pause before it continues. */
    void installSuspended(String executionId, Suspension suspension, SessionHistory.Submitted entry, List<String> inferred, long baseRevision, long pause) {
        suspensions.restored(executionId, new Suspensions.Paused(suspension, entry.sourceId(), entry.call() ? null : entry.language(), inferred,
                baseRevision, "", OutputSink.NONE), entry, pause);
    }

    /**
     * Continues an execution suspended at a {@code yield} once ({@code yield} receives unit); the outcome's output is
     * all of its say text. An execution waiting at the host boundary, or one whose session moved on since it was
     * suspended, is not continued: the outcome is {@link Outcome.Refused} and the execution still waits.
     */
    public Outcome resume(String executionId) { return continueWith(arg(executionId, "executionId"), null, NOTHING); }

    /**
     * Continues {@code outcome} while it waits for a CPU task ({@link Outcome#waitingTask}): waits until the task is
     * done (a task is bounded by its run's step limit and deadline), resumes, and answers the first outcome that
     * does not wait for a task — what the CLI and the REPL do. Any other outcome (a refused resume too: the execution
     * still waits, for a reason a resume does not cure) is answered as it is. If the calling thread is interrupted, it
     * answers the still-suspended outcome (its interrupt flag set).
     */
    public Outcome awaitTasks(Outcome outcome) {
        arg(outcome, "outcome");
        Outcome o = outcome;
        while (o instanceof Outcome.Suspended && o.waitingTask().isPresent()) {
            try {
                o.waitingTask().get().done().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return o;
            } catch (java.util.concurrent.ExecutionException e) {
                // The future only completes normally; resume anyway, the join reports the task's end.
            }
            o = resume(o.executionId());
        }
        return o;
    }

    /**
     * Approves the capability request a suspended execution waits for, with a scope: {@code ONCE} covers this one
     * request, {@code TASK} the rest of this execution, {@code SESSION} (and wider) every later run of this session
     * too. The execution then resumes exactly where it stopped; nothing before it is repeated. An approval the
     * execution cannot take (it waits for a result or at a yield; the session moved on since the suspension) is
     * {@link Outcome.Refused}: nothing is dispatched and no grant is added.
     */
    public Outcome approve(String executionId, Scope scope) {
        arg(executionId, "executionId");
        arg(scope, "scope");
        Suspensions.Paused p = suspensions.paused(executionId).orElse(null);
        if (p == null) return unknown(executionId);
        Optional<EffectRequest> req = p.suspension().pendingRequest();
        if (req.isEmpty()) return refused(executionId, p, notAtBoundary(executionId, "approved"));
        SessionGrants.Approval approval = grants.approval(req.get(), scope);
        if (approval instanceof SessionGrants.Approval.Refused no) return refused(executionId, p, no.why());
        Grant grant = ((SessionGrants.Approval.Granted) approval).grant();
        return continueWith(executionId, new HostResponse.Approved(req.get().sequence(), grant), () -> grants.accepted(grant));
    }

    /**
     * Denies the request a suspended execution waits for: the execution fails (E-HOST-001), nothing is dispatched.
     * A denial of an execution paused at a yield is {@link Outcome.Refused}.
     */
    public Outcome deny(String executionId, String reason) {
        arg(executionId, "executionId");
        Suspensions.Paused p = suspensions.paused(executionId).orElse(null);
        if (p == null) return unknown(executionId);
        Optional<EffectRequest> req = p.suspension().pendingRequest();
        if (req.isEmpty()) return refused(executionId, p, notAtBoundary(executionId, "denied"));
        return continueWith(executionId, new HostResponse.Denied(req.get().sequence(), reason), NOTHING);
    }

    /**
     * Deferred-host mode: answers the awaited request with the contract's {@code VmResume} response (a result, a
     * denial or a cancellation) for that exact sequence. A result is checked against the request's expected row
     * before anything moves. An answer for another sequence, of the wrong kind or type, or for a run whose session
     * moved on is {@link Outcome.Refused}: nothing is dispatched and the execution keeps waiting for the right answer.
     */
    public Outcome respond(String executionId, HostResponse response) {
        return continueWith(arg(executionId, "executionId"), arg(response, "response"), NOTHING);
    }

    /**
     * Answers a suspended execution with a {@link VmResume}: its result values are decoded against the pending
     * request's expected row ({@code E-HOST-014} when they do not fit), then taken as {@link #respond(String,
     * HostResponse)} takes a response.
     */
    public Outcome respond(VmResume resume) {
        arg(resume, "resume");
        Suspensions.Paused p = suspensions.paused(resume.executionId()).orElse(null);
        if (p == null) return unknown(resume.executionId());
        Optional<EffectRequest> pending = p.suspension().pendingRequest();
        HostResponse response;
        if (pending.isPresent() && pending.get().sequence() == resume.sequence()) {
            var decoded = resume.toHostResponse(pending.get());
            if (!decoded.isOk()) return refused(resume.executionId(), p, decoded.refusal().orElseThrow());
            response = decoded.value();
        } else {
            // Not the pending sequence: refused below (E-HOST-012). No value was decoded, and none would be taken: even if
            // the pending request moved on to this sequence meanwhile, an absent value never fits a row (E-HOST-014).
            response = new HostResponse.Result(resume.sequence(), null);
        }
        return continueWith(resume.executionId(), response, NOTHING);
    }

    /**
     * Answers a suspended execution with a {@code VmResume} as JSON text from a remote host ({@link VmResume#fromJson}).
     * Never throws: text that is not a strict VmResume is {@code E-HOST-018} — {@link Outcome.Refused} when it names a
     * suspended execution readably (which then still waits), else {@link Outcome.Failed}.
     */
    public Outcome respond(String json) {
        VmResume.Parsed parsed = VmResume.parse(json);
        if (parsed.resume().isOk()) return respond(parsed.resume().value());
        Diagnostic why = parsed.resume().refusal().orElseThrow();
        String executionId = parsed.executionId().orElse("");
        Suspensions.Paused p = executionId.isEmpty() ? null : suspensions.paused(executionId).orElse(null);
        if (p != null) return refused(executionId, p, why);
        return failed(executionId, "<session>", null, "", List.of(), at(why, "<session>"));
    }

    /** The request a suspended execution waits for, if it waits at the host boundary. */
    public Optional<EffectRequest> pendingRequest(String executionId) {
        arg(executionId, "executionId");
        Suspensions.Paused p = suspensions.paused(executionId).orElse(null);
        return p == null ? Optional.empty() : p.suspension().pendingRequest();
    }

    private static final Runnable NOTHING = new Nothing();

    private Outcome unknown(String executionId) {
        return failed(executionId, "<session>", null, "", List.of(), SessionCode.UNKNOWN_EXECUTION.at(
                Origin.of("<session>", 0, 0), "no suspended execution " + executionId + " in session " + id));
    }

    private static Diagnostic notAtBoundary(String executionId, String what) {
        return dev.finch.vm.boundary.HostCode.STALE_RESUME.at(Origin.UNKNOWN, "execution " + executionId
                + " is paused at a yield or a task-join, not at the host boundary, so it cannot be " + what + "; resume it instead");
    }

    /**
     * Why {@code response} (null: a plain resume) cannot continue {@code p} now, if it cannot. First the session: a
     * run that continues after another submission committed could never commit, so it is not continued at all — no
     * effect is dispatched for nothing (a denial or cancellation, which only end it, still may). Then the answer
     * itself: sequence, kind and result type ({@link Suspension#refusal}).
     */
    private Optional<Diagnostic> refusal(String executionId, Suspensions.Paused p, HostResponse response) {
        boolean continues = response == null || response instanceof HostResponse.Approved || response instanceof HostResponse.Result;
        long now = state.current().revision();
        // A call commits nothing, so a session that moved on does not make it stale.
        boolean call = suspensions.isCall(executionId);
        if (continues && !call && p.baseRevision() != now) {
            return Optional.of(SessionCode.STALE_REVISION.at(Origin.of(p.sourceId(), 0, 0), "the session moved on (to revision " + now
                    + ") since this execution was suspended at revision " + p.baseRevision() + ", so it could never commit; it was not "
                    + "continued and nothing was dispatched (cancel it, or deny its request)", Long.toString(p.baseRevision()), Long.toString(now)));
        }
        return p.suspension().refusal(response).map(d -> at(d, p.sourceId()));
    }

    /** {@code d}, placed at the source identity when it has no origin of its own. */
    private static Diagnostic at(Diagnostic d, String sourceId) {
        if (!d.origin().equals(Origin.UNKNOWN)) return d;
        return new Diagnostic(d.phase(), d.code(), d.message(), Origin.of(sourceId, 0, 0), d.expected(), d.found());
    }

    /** The answer was refused: the execution is still suspended, waiting as before. */
    private Outcome refused(String executionId, Suspensions.Paused p, Diagnostic why) {
        Suspensions.Waiting w = Suspensions.Waiting.of(p.suspension());
        return Outcome.withLog(new Outcome.Refused(fields(executionId, p.sourceId(), p.language(), p.output(), state.current(), p.inferred(), w.required(),
                List.of(at(why, p.sourceId()))), w.yielded(), w.request(), w.task()), p.log());
    }

    /**
     * Continues {@code executionId} with {@code response} (null: a plain resume) unless {@link #refusal} refuses it;
     * {@code accepted} runs once the answer is taken, before the run continues.
     */
    private Outcome continueWith(String executionId, HostResponse response, Runnable accepted) {
        if (!dev.finch.vm.engine.CallerThread.roomy()) return finch.vm().onWorker(() -> continueWith(executionId, response, accepted));
        Suspensions.Paused p = suspensions.paused(executionId).orElse(null);
        String sourceId = p == null ? "<session>" : p.sourceId();
        String language = p == null ? null : p.language();
        if (finch.isClosed()) return failed(executionId, sourceId, language, "", List.of(), closedDiagnostic(sourceId));
        if (!enter()) {
            return failed(executionId, sourceId, language, "", List.of(), busyDiagnostic(sourceId));
        }
        try {
            if (p == null) return unknown(executionId);
            // Refused here, before the continuation is taken: it keeps waiting for the right answer.
            Optional<Diagnostic> why = refusal(executionId, p, response);
            if (why.isPresent()) return refused(executionId, p, why.get());
            if (!suspensions.take(executionId, p)) return unknown(executionId);
            if (!suspensions.claim(executionId, finch.ledger())) {
                // Another copy of this pause's image continued (or cancelled) it first: this copy is discarded, unrun.
                return failed(executionId, p.sourceId(), p.language(), p.output(), p.inferred(), SessionCode.ALREADY_CONTINUED.at(
                        Origin.of(p.sourceId(), 0, 0), "execution " + executionId + " was already continued or cancelled from another copy of its image; "
                                + "this copy is discarded and nothing was dispatched"));
            }
            accepted.run();
            CancelToken token = new CancelToken();
            running.put(executionId, token);
            RunResult r;
            try {
                r = response == null ? finch.vm().resume(p.suspension(), finch.limits(), p.sink(), token)
                        : finch.vm().resume(p.suspension(), response, finch.limits(), p.sink(), token);
            } finally {
                running.remove(executionId);
            }
            return settle(executionId, p.sourceId(), p.language(), p.inferred(), p.baseRevision(), p.sink(), r);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            running.remove(executionId);
            return failed(executionId, sourceId, language, p == null ? "" : p.output(), List.of(), internal(sourceId, e));
        } finally {
            leave();
        }
    }

    /**
     * Cancels a running execution (it stops at its next call or loop back-edge and commits nothing) or drops a
     * suspended one. Safe from any thread. False when no such execution is running or suspended.
     */
    public boolean cancel(String executionId) {
        arg(executionId, "executionId");
        CancelToken token = running.get(executionId);
        if (token != null) {
            token.cancel("cancelled by the host");
            return true;
        }
        return suspensions.drop(executionId, finch.ledger());
    }

    /** Parses, lowers and verifies {@code submission} against the committed state, without running it. */
    public CheckResult check(Submission submission) {
        arg(submission, "submission");
        String language = submission.resolvedLanguage().spelling();
        try {
            Environment at = state.current().state().environment();
            long deadline = deadline();
            Compilation.Prepared prep = compilation.prepare(submission, at, deadline, Compilation.NOT_CANCELLED);
            if (prep.module() == null) {
                return new CheckResult(CheckResult.Status.FAILED, language, List.of(), List.of(), prep.diagnostics(), Optional.empty());
            }
            CheckedModule m = prep.module();
            List<CheckResult.Definition> defs = new ArrayList<>();
            for (CheckedWord w : m.words()) defs.add(new CheckResult.Definition(w.name(), w.signature().toString()));
            return new CheckResult(CheckResult.Status.OK, language, defs, Compilation.capabilities(m), List.of(),
                    Optional.of(CoForthPrinter.print(Compilation.withSignatures(m))));
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            return new CheckResult(CheckResult.Status.FAILED, language, List.of(), List.of(),
                    List.of(internal(submission.sourceId(), e)), Optional.empty());
        }
    }

    // ---------------------------------------------------------------------------------------------- discovery

    /**
     * {@code get_vm_state}: the committed stack (bottom to top), VM revision, manifest generation, persisted
     * definitions with their signatures and constants, all from one committed state.
     */
    public VmStateReport getVmState() { return Discovery.vmState(view()); }

    /**
     * {@code get_language_definition}: the grammar of Lisp, Co-Forth and µNorman, the type spelling, every syntax form
     * and the core words.
     */
    public LanguageDefinition getLanguageDefinition() { return Discovery.languageDefinition(vocabulary()); }

    /** {@code get_language_definition} for one language: the shared sections and that language's grammar and forms. */
    public LanguageDefinition getLanguageDefinition(Language language) { return Discovery.languageDefinition(vocabulary(), language); }

    /**
     * {@code search_word}: core words, this session's definitions and constants, and source syntax whose name or
     * documentation matches {@code query}, best match first (name matches before documentation matches).
     */
    public List<WordSummary> searchWord(String query) { return Discovery.search(view(), query); }

    /**
     * {@code inspect_word}: a definition's signature and canonical Co-Forth source, a constant's type and value, a
     * core word's signature and documentation, or source syntax ({@code while}, {@code define}, …) with its form and
     * no signature. Empty when the name denotes nothing; see {@link #suggestWords}.
     */
    public Optional<WordInfo> inspectWord(String name) { return Discovery.inspect(view(), name); }

    /** {@link #inspectWord(String)}, with the forms of {@code language} first when the name is syntax of several. */
    public Optional<WordInfo> inspectWord(String name, Language language) { return Discovery.inspect(view(), name, language); }

    /** Up to {@code max} known names close to {@code name}, for "did you mean" answers. */
    public List<String> suggestWords(String name, int max) { return Discovery.suggestions(view(), name, max); }

    /**
     * A buffer for incremental submissions to this session from one source ({@code sourceId}, attached by the
     * host): chunks are only buffered; they run at {@link SubmissionBuffer#flush()}, the explicit boundary.
     */
    public SubmissionBuffer buffer(String sourceId) { return new SubmissionBuffer(this, arg(sourceId, "sourceId"), null, OutputSink.NONE); }

    /** The committed state, read once. */
    Discovery.View view() {
        SessionState.Snapshot s = state.current();
        return new Discovery.View(id, s.state(), s.revision(), s.generation());
    }

    // ---------------------------------------------------------------------------------------------------------

    private Outcome run(String executionId, Submission s, String language, java.util.function.UnaryOperator<HostConfig> hosts) {
        SessionState.Snapshot base = state.current();
        String sourceId = s.sourceId();
        Optional<Diagnostic> stale = state.staleness(s);
        if (stale.isPresent()) return failed(executionId, sourceId, language, "", List.of(), stale.get());
        // One deadline and one cancellation for the whole submission: compiling it, then running it.
        long deadline = deadline();
        CancelToken token = new CancelToken();
        running.put(executionId, token);
        RunResult r;
        List<String> inferred;
        OutputSink sink = guarded(s.sink());
        try {
            Environment at = base.state().environment();
            Compilation.Prepared prep = compilation.prepare(s, at, deadline, new Compilation.CancelledBy(token));
            if (prep.module() == null) {
                if (token.isCancelled()) return new Outcome.Cancelled(fields(executionId, sourceId, language, "", state.current(), List.of(), List.of(), prep.diagnostics()));
                return failed(executionId, sourceId, language, "", List.of(), prep.diagnostics());
            }
            inferred = Compilation.capabilities(prep.module());
            // A word this run schedules by name may be one of its own program's.
            HostConfig host = hosts.apply(host(s, new SessionSchedules(this, base.state(), prep.module())));
            suspensions.started(executionId, new SessionHistory.Submitted(s.text(), language, sourceId, at, false, prep.module()), ownMemory(host));
            r = finch.vm().run(executionId, prep.module(), base.state(), finch.limits().withTimeout(remaining(deadline)), sink, token, host);
        } finally {
            running.remove(executionId);
        }
        return settle(executionId, sourceId, language, inferred, base.revision(), sink, r);
    }

    /** The deadline of work starting now: the run's timeout from now ({@link System#nanoTime()}). */
    private long deadline() { return System.nanoTime() + finch.limits().timeout().toNanos(); }

    /** What is left of a submission's deadline for its run (at least a nanosecond: a run past it stops at once). */
    private static java.time.Duration remaining(long deadline) { return java.time.Duration.ofNanos(Math.max(1, deadline - System.nanoTime())); }

    /** Applies a run's result: only {@code Completed} commits, and only onto the snapshot it started from. */
    private Outcome settle(String executionId, String sourceId, String language, List<String> inferred, long baseRevision,
                           OutputSink sink, RunResult r) {
        // The record of the response's events goes with its output on whichever outcome the run ends in.
        return Outcome.withLog(settled(executionId, sourceId, language, inferred, baseRevision, sink, r), r.log());
    }

    private Outcome settled(String executionId, String sourceId, String language, List<String> inferred, long baseRevision,
                            OutputSink sink, RunResult r) {
        // The VM reports all say text of the execution, across its resumes: the outcome's output is exactly that, as a
        // snapshot joined only when read (a pause must not cost the text said before it).
        CharSequence output = r.text();
        if (r instanceof RunResult.Completed c) {
            dev.finch.host.MemoryHost runMemory = suspensions.memory(executionId).orElse(memory);
            SessionHistory.Submitted entry = suspensions.ended(executionId).orElse(null);
            suspensions.stopped(executionId, null);
            Optional<Diagnostic> unwritten = writeMemory(c, runMemory, entry != null && entry.call(), baseRevision, sourceId);
            if (unwritten.isPresent()) {
                c.discardChanges();
                return failed(executionId, sourceId, language, output, inferred, unwritten.get());
            }
            if (entry != null && entry.call()) {
                // A call commits nothing: its outputs are the outcome's values, the session's state is as it was.
                return new Outcome.Completed(fields(executionId, sourceId, language, output, c.state(), state.current(), inferred, List.of(), List.of()));
            }
            Optional<SessionState.Snapshot> next = state.commit(c, baseRevision, entry, history);
            if (next.isEmpty()) {
                return failed(executionId, sourceId, language, output, inferred, SessionCode.STALE_REVISION.at(Origin.of(sourceId, 0, 0),
                        "the session moved on while this execution was suspended; its changes were not committed",
                        Long.toString(baseRevision), Long.toString(state.current().revision())));
            }
            return new Outcome.Completed(fields(executionId, sourceId, language, output, next.get(), inferred, List.of(), List.of()));
        }
        if (r instanceof RunResult.Suspended su) {
            suspensions.stopped(executionId, new Suspensions.Paused(su.suspension(), sourceId, language, inferred, baseRevision, output, sink, su.log()));
            Suspensions.Waiting w = Suspensions.Waiting.of(su.suspension());
            return new Outcome.Suspended(fields(executionId, sourceId, language, output, state.current(), inferred, w.required(), List.of()),
                    w.yielded(), w.request(), w.task());
        }
        suspensions.ended(executionId);
        suspensions.stopped(executionId, null);
        if (r instanceof RunResult.Failed f) return failed(executionId, sourceId, language, output, inferred, f.diagnostics());
        RunResult.Cancelled x = (RunResult.Cancelled) r;
        List<Diagnostic> why = x.reason() == null ? List.of() : List.of(x.reason());
        return new Outcome.Cancelled(fields(executionId, sourceId, language, output, state.current(), inferred, List.of(), why));
    }

    /**
     * Applies the memory writes a completed run staged to the memory host it ran with ({@code to}), when it will commit
     * (a call always does; a submission when the session did not move on): all or none, before the commit. Why they
     * could not be written, if they could not — then nothing of the run is committed.
     */
    private Optional<Diagnostic> writeMemory(RunResult.Completed run, dev.finch.host.MemoryHost to, boolean call, long baseRevision, String sourceId) {
        com.fasterxml.jackson.databind.JsonNode staged = run.staged().get(dev.finch.host.MemoryWrites.KIND.name());
        if (staged == null || (!call && state.current().revision() != baseRevision)) return Optional.empty();
        try {
            to.apply(dev.finch.host.MemoryWrites.parse(staged));
            return Optional.empty();
        } catch (dev.finch.vm.boundary.HostFailure f) {
            return Optional.of(f.code().at(Origin.of(sourceId, 0, 0), f.getMessage() + "; nothing of the run was committed"));
        }
    }

    private Outcome failed(String executionId, String sourceId, String language, CharSequence output, List<String> inferred,
                           Diagnostic diagnostic) {
        return failed(executionId, sourceId, language, output, inferred, List.of(diagnostic));
    }

    private Outcome failed(String executionId, String sourceId, String language, CharSequence output, List<String> inferred,
                           List<Diagnostic> diagnostics) {
        return new Outcome.Failed(fields(executionId, sourceId, language, output, state.current(), inferred, List.of(), diagnostics));
    }

    private static Outcome.Fields fields(String executionId, String sourceId, String language, CharSequence output, SessionState.Snapshot at,
                                         List<String> inferred, List<String> required, List<Diagnostic> diagnostics) {
        return fields(executionId, sourceId, language, output, at.state(), at, inferred, required, diagnostics);
    }

    /**
     * The fields of an outcome reporting {@code state}'s stack (the session's, or a call's outputs), its displays
     * bounded as a whole ({@link StackDisplay}).
     */
    private static Outcome.Fields fields(String executionId, String sourceId, String language, CharSequence output, VmState state,
                                         SessionState.Snapshot at, List<String> inferred, List<String> required, List<Diagnostic> diagnostics) {
        return new Outcome.Fields(executionId, sourceId, language, output, StackDisplay.lazy(state), new LazyValues(state.stack()), inferred,
                required, diagnostics, at.revision(), at.generation());
    }

    /** A stack's public values, each converted when first read (most outcomes are only displayed). */
    private static final class LazyValues extends java.util.AbstractList<dev.finch.vm.Value> implements java.util.RandomAccess {
        private final List<TypedValue> stack;
        private final dev.finch.vm.Value[] converted;

        LazyValues(List<TypedValue> stack) {
            this.stack = List.copyOf(stack);
            this.converted = new dev.finch.vm.Value[this.stack.size()];
        }

        @Override public dev.finch.vm.Value get(int index) {
            dev.finch.vm.Value v = converted[index];
            if (v == null) converted[index] = v = stack.get(index).toValue();
            return v;
        }

        @Override public int size() { return stack.size(); }
    }

    private static Diagnostic closedDiagnostic(String sourceId) {
        return SessionCode.CLOSED.at(Origin.of(sourceId, 0, 0), "this session's Finch is closed; nothing was run");
    }

    private Diagnostic busyDiagnostic(String sourceId) {
        return SessionCode.BUSY.at(Origin.of(sourceId, 0, 0),
                "session " + id + " is running another submission; submit again when it has finished");
    }

    private static Diagnostic internal(String sourceId, Throwable e) {
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return SessionCode.INTERNAL.at(Origin.of(sourceId, 0, 0), "internal error (" + what + "); nothing was committed");
    }

    /**
     * A host sink that throws must not abort the program or escape: its chunks and events stay in the outcome. Its
     * refusal policy ({@link OutputSink#accepts}) is the host's word and passes through; a policy that throws refuses.
     */
    private static OutputSink guarded(OutputSink sink) {
        // Finch's own buffered sink guards its target itself, and must reach the VM as it is (it keeps the caller's thread).
        if (dev.finch.vm.BufferedSink.neverBlocks(sink)) return sink;
        return new OutputSink() {
            @Override public void say(String chunk) { event(new dev.finch.vm.OutputEvent.Say(chunk)); }

            @Override public void event(dev.finch.vm.OutputEvent event) {
                try {
                    sink.event(event);
                } catch (RuntimeException ignored) {
                    // The outcome still carries the event; a broken host sink is the host's concern, not the program's.
                }
            }

            @Override public boolean accepts(dev.finch.vm.OutputEvent.Kind kind) {
                try {
                    return sink.accepts(kind);
                } catch (RuntimeException broken) {
                    return false;
                }
            }
        };
    }
}
