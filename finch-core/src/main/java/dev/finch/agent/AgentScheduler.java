package dev.finch.agent;

import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.host.AgentCode;
import dev.finch.host.AgentHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scheduler of one {@link Finch}'s child agents: the agent tree (a node per session — depth 0 for a session the
 * embedder opened, one more for each child's own session), the tasks by id ({@code t1}, {@code t2}, …), the bounded
 * pools that run them (at most {@link AgentOptions#concurrency} children at once at each depth, so a child awaiting its
 * own children never holds a thread they need), the timer that enforces each child's timeout, and the host's context
 * artifacts. A child that ends cancels the children it made. Thread-safe; {@link #close} cancels every child.
 */
public final class AgentScheduler implements AutoCloseable {
    private final Finch finch;
    private final AgentOptions options;
    private final ContextArtifacts artifacts = new ContextArtifacts();
    private final Map<Session, Node> nodes = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private final Map<String, ChildRun> tasks = new ConcurrentHashMap<>();
    private final Map<Integer, ExecutorService> pools = new ConcurrentHashMap<>();
    private final AtomicLong taskIds = new AtomicLong();
    private final AtomicInteger threads = new AtomicInteger();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    /** The scheduler of {@code finch}'s children under {@code options}. */
    public AgentScheduler(Finch finch, AgentOptions options) {
        this.finch = java.util.Objects.requireNonNull(finch, "finch");
        this.options = java.util.Objects.requireNonNull(options, "options");
        java.util.concurrent.ScheduledThreadPoolExecutor t = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> daemon(r, "finch-agent-timer"));
        // Idle threads end (after 30 s): a Finch that is never closed keeps no agent thread alive for nothing.
        t.setKeepAliveTime(30, java.util.concurrent.TimeUnit.SECONDS);
        t.allowCoreThreadTimeOut(true);
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
    }

    /** The host's registry of context artifacts children may be given. */
    public ContextArtifacts contexts() { return artifacts; }

    /** The options it runs under. */
    public AgentOptions options() { return options; }

    /** The task {@code taskId}'s state, for hosts and tests; never waits. */
    public Optional<AgentHost.Snapshot> snapshot(String taskId) { return Optional.ofNullable(tasks.get(taskId)).map(ChildRun::snapshot); }

    /** The agent host of {@code session}'s runs: its node of the tree (a root node the first time a session asks). */
    public AgentHost hostFor(Session session) {
        synchronized (nodes) {
            return nodes.computeIfAbsent(session, s -> new Node(s, 0, List.of()));
        }
    }

    /** Registers a child's session as a node below its parent. */
    Node childNode(Session session, int depth, List<String> ancestry) {
        Node n = new Node(session, depth, ancestry);
        nodes.put(session, n);
        return n;
    }

    Finch finch() { return finch; }

    ScheduledExecutorService timer() { return timer; }

    /** A child of node {@code owner} ended: the children it made are cancelled with it. */
    void ended(ChildRun run) {
        String childNode = run.childNode();
        if (childNode == null) return;
        for (ChildRun c : tasks.values()) if (c.owner().equals(childNode)) c.cancel();
    }

    @Override public void close() {
        closed = true;
        for (ChildRun c : tasks.values()) c.cancel();
        pools.values().forEach(ExecutorService::shutdownNow);
        timer.shutdownNow();
    }

    private ExecutorService pool(int depth) {
        return pools.computeIfAbsent(depth, d -> {
            java.util.concurrent.ThreadPoolExecutor p = new java.util.concurrent.ThreadPoolExecutor(options.concurrency(), options.concurrency(),
                    30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
                    r -> daemon(r, "finch-agent-d" + d + "-" + threads.incrementAndGet()));
            p.allowCoreThreadTimeOut(true);
            return p;
        });
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** One session's place in the tree: the agent host its runs see. */
    final class Node implements AgentHost {
        private final java.lang.ref.WeakReference<Session> session;
        private final String id;
        private final int depth;
        private final List<String> ancestry;
        private final AtomicInteger children = new AtomicInteger();

        Node(Session session, int depth, List<String> ancestry) {
            this.session = new java.lang.ref.WeakReference<>(session);
            this.id = session.id();
            this.depth = depth;
            this.ancestry = List.copyOf(ancestry);
        }

        @Override public String node() { return id; }

        @Override public int depth() { return depth; }

        @Override public int childrenCreated() { return children.get(); }

        @Override public Bounds bounds() { return options.bounds(); }

        List<String> ancestry() { return ancestry; }

        @Override public Child spawn(SpawnRequest shaped) throws Refusal { return spawn(shaped, null); }

        @Override public Child spawn(SpawnRequest shaped, dev.finch.capabilities.Revocations parentRevocations) throws Refusal {
            Session parent = session.get();
            if (closed || parent == null) throw new Refusal(AgentCode.NO_SCHEDULER, "the agent scheduler is closed");
            AgentProfile profile = options.profile(shaped.provider()).orElseThrow(() -> new Refusal(AgentCode.UNKNOWN_PROFILE,
                    "no provider profile named '" + shaped.provider() + "' is configured; the profiles are " + String.join(", ", options.profiles().keySet())));
            String model = shaped.model().isEmpty() ? profile.model() : shaped.model();
            // Every reference is resolved and its bytes verified before a task id is allocated.
            List<ContextArtifacts.Verified> context = artifacts.verify(shaped.contextRefs());
            // A new request states no VM position (generation 0): it is the parent's now. A saved one keeps its own.
            boolean fresh = shaped.parentGeneration() == 0;
            long revision = fresh ? parent.vmRevision() : shaped.parentRevision();
            long generation = fresh ? parent.manifestGeneration() : shaped.parentGeneration();
            SpawnRequest request = new SpawnRequest(shaped.task(), shaped.role(), shaped.background(), profile.name(),
                    shaped.model(), shaped.contextRefs(), shaped.ceiling(), shaped.maxTurns(), shaped.timeoutMs(), shaped.maxOutputBytes(), revision, generation);
            String hash = StartingContext.hash(request, ancestry, profile.name(), model);
            String taskId = "t" + taskIds.incrementAndGet();
            children.incrementAndGet();
            List<String> lineage = new ArrayList<>(ancestry);
            lineage.add(taskId);
            ChildRun run = new ChildRun(AgentScheduler.this, taskId, id, request, profile, model, context, depth + 1, lineage, hash, parent,
                    parentRevocations);
            tasks.put(taskId, run);
            pool(depth + 1).execute(run);
            return run;
        }

        @Override public Optional<Child> find(String taskId, String owner) {
            ChildRun c = tasks.get(taskId);
            if (c == null || !c.owner().equals(owner)) return Optional.empty();
            c.adopt(id);
            return Optional.of(c);
        }
    }
}
