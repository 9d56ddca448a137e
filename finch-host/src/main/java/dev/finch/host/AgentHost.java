package dev.finch.host;

import dev.finch.capabilities.GrantSet;
import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The scheduler of child agents as one run sees it (contract: "Child-agent handles are opaque, persistent
 * task&lt;agent-result&gt; values…"): the place of the run's session in the agent tree, the host's bounds on budgets, and
 * the creation, lookup and cancellation of children. The {@code agent-*} words call it only after they have checked the
 * request's shape and revalidated its grants, and — for creation — after the host boundary authorized
 * {@code agent.spawn(max_depth=D,max_children=N)}. One instance serves one session (its node of the tree).
 */
public interface AgentHost {
    /** This session's node in the agent tree: the owner of the handles its runs create. */
    String node();

    /** Depth of this session in the tree: 0 for a session the embedder opened, 1 for its children, … */
    int depth();

    /** How many children this node has created so far (the next one is number {@code childrenCreated() + 1}). */
    int childrenCreated();

    /** The host's bounds on a child's budgets and the defaults the compact {@code agent-spawn} uses. */
    Bounds bounds();

    /**
     * Creates a child: resolves its provider profile and model, resolves and verifies every context reference, and
     * only then allocates its task and queues it. The request has been shape-checked and authorized.
     *
     * @throws Refusal when a profile or reference does not resolve or a policy refuses
     */
    Child spawn(SpawnRequest request) throws Refusal;

    /**
     * {@link #spawn(SpawnRequest)}, for a parent whose grants {@code parentRevocations} may revoke while the child
     * works: the child's own copies of the delegated grants are revoked with them (a scheduler that cannot follow
     * them ignores them, the default).
     */
    default Child spawn(SpawnRequest request, dev.finch.capabilities.Revocations parentRevocations) throws Refusal { return spawn(request); }

    /**
     * The child task {@code taskId} if this scheduler still has it and {@link #node()} may operate on it (it created it,
     * or it restored the run that held its handle); empty otherwise.
     */
    Optional<Child> find(String taskId, String owner);

    /** Why the scheduler refused to create a child: a stable {@link AgentCode} and a message for the program's author. */
    final class Refusal extends Exception {
        private final AgentCode code;

        public Refusal(AgentCode code, String message) {
            super(message, null, false, false);
            this.code = java.util.Objects.requireNonNull(code, "code");
        }

        public AgentCode code() { return code; }
    }

    /** The host's bounds: each budget must be positive and at most its bound. */
    record Bounds(int maxTurns, long maxTimeoutMs, long maxOutputBytes, int defaultTurns, long defaultTimeoutMs, long defaultOutputBytes) {
        public Bounds {
            if (maxTurns < 1 || maxTimeoutMs < 1 || maxOutputBytes < 1) throw new IllegalArgumentException("agent bounds must be positive");
            if (defaultTurns < 1 || defaultTurns > maxTurns || defaultTimeoutMs < 1 || defaultTimeoutMs > maxTimeoutMs
                    || defaultOutputBytes < 1 || defaultOutputBytes > maxOutputBytes) {
                throw new IllegalArgumentException("agent defaults must be positive and within the bounds");
            }
        }

        /** 64 turns, 10 minutes, 1 MiB at most; 16 turns, 2 minutes, 64 KiB by default. */
        public static final Bounds DEFAULT = new Bounds(64, 600_000, 1 << 20, 16, 120_000, 64 << 10);
    }

    /** A context reference {@code {kind,id,sha256}}: the digest (64 hex digits, kept in lowercase) names the expected content. */
    record ContextRef(String kind, String id, String sha256) {
        public ContextRef {
            java.util.Objects.requireNonNull(kind, "kind");
            java.util.Objects.requireNonNull(id, "id");
            java.util.Objects.requireNonNull(sha256, "sha256");
        }
    }

    /**
     * What a child is made from. {@code provider}, {@code model} and {@code background} are empty for no override;
     * {@code ceiling} is the child's whole grant ceiling (attenuated from the parent's, each grant of task scope);
     * {@code parentRevision}/{@code parentGeneration} are the spawning session's VM revision and manifest generation.
     */
    record SpawnRequest(String task, String role, String background, String provider, String model, List<ContextRef> contextRefs,
                        GrantSet ceiling, int maxTurns, long timeoutMs, long maxOutputBytes, long parentRevision, long parentGeneration) {
        public SpawnRequest {
            contextRefs = List.copyOf(contextRefs);
        }
    }

    /** A child's status: queued, running, then one of the three ends. */
    enum Status {
        QUEUED, RUNNING, COMPLETED, FAILED, CANCELLED;

        /** The lowercase spelling programs see. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        /** Whether this status is an end. */
        public boolean complete() { return this == COMPLETED || this == FAILED || this == CANCELLED; }
    }

    /** A non-blocking view of a child ({@code agent-poll}). */
    record Snapshot(String taskId, String agentId, Status status, String task, String role, String providerModel, int depth,
                    String startingContextHash) { }

    /** How a child ended ({@code agent-await}); {@code diagnostics} are the structured failures its work met. */
    record Result(String taskId, String agentId, Status status, String finalMessage, List<Diagnostic> diagnostics, int turns, long elapsedMs,
                  String providerModel, int depth, String startingContextHash) {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /** One child task, as its scheduler runs it. */
    interface Child {
        /** Its task id ({@code t1}, {@code t2}, … per scheduler). */
        String taskId();

        /** The node that created it (its owner). */
        String owner();

        /** The request it was made from (kept so a saved run can make it again where the task is gone). */
        SpawnRequest request();

        /** Its state now; never waits. */
        Snapshot snapshot();

        /** Completes once it has ended. */
        CompletableFuture<Void> whenDone();

        /** Its result once it has ended. */
        Optional<Result> result();

        /** Requests cancellation (an ended child is left as it is). */
        void cancel();
    }
}
