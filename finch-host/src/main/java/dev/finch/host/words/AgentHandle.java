package dev.finch.host.words;

import dev.finch.host.AgentCode;
import dev.finch.host.AgentHost;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.runtime.Awaitable;
import dev.finch.vm.runtime.FinchTrap;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The run-time value of a {@code task<agent-result>} handle: a scheduler task id and its owner, not a process-local
 * future (contract: "they carry a daemon task ID and their declared terminal type"). A live handle is bound to its
 * {@link AgentHost.Child}; a restored one carries what the saved run knew — the task id, the owner, the request the child
 * was made from and, if it had ended, its result — and binds itself again when the restored run first uses it
 * ({@link #bind}).
 */
public final class AgentHandle implements Awaitable {
    private final String taskId;
    private volatile String owner;
    private final AgentHost.SpawnRequest request;
    private volatile AgentHost.Child child;
    private volatile AgentHost.Result ended;

    AgentHandle(AgentHost.Child child) {
        this.taskId = child.taskId();
        this.owner = child.owner();
        this.request = child.request();
        this.child = child;
    }

    private AgentHandle(String taskId, String owner, AgentHost.SpawnRequest request, AgentHost.Result ended) {
        this.taskId = Objects.requireNonNull(taskId, "taskId");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.request = Objects.requireNonNull(request, "request");
        this.ended = ended;
    }

    /** A handle of a saved run, as {@link #taskId}, {@link #owner}, {@link #request} and {@link #result} kept it. */
    public static AgentHandle restored(String taskId, String owner, AgentHost.SpawnRequest request, AgentHost.Result ended) {
        return new AgentHandle(taskId, owner, request, ended);
    }

    /** The scheduler's task id. */
    public String taskId() { return taskId; }

    /** The node that owns the task. */
    public String owner() { return owner; }

    /** The request the child was made from. */
    public AgentHost.SpawnRequest request() { return request; }

    /** The child's result once it has ended (as far as this handle knows). */
    public Optional<AgentHost.Result> result() {
        if (ended != null) return Optional.of(ended);
        AgentHost.Child c = child;
        return c == null ? Optional.empty() : c.result();
    }

    /** The live child, once bound. */
    Optional<AgentHost.Child> child() { return Optional.ofNullable(child); }

    /**
     * Checks that {@code host}'s node may operate on this handle and binds a restored handle to its task: the task of the
     * same id and owner if the scheduler still has it (the restoring node adopts it), else the child made again from the
     * saved request (its ceiling revalidated by {@code remake}). A handle whose saved run recorded its end needs no task.
     */
    void bind(AgentHost host, java.util.function.Function<AgentHost.SpawnRequest, AgentHost.Child> remake, Origin origin) {
        if (child != null) {
            if (!owner.equals(host.node())) {
                throw new FinchTrap(AgentCode.NOT_OWNER, origin, "agent task " + taskId + " belongs to agent node " + owner + ", not to this one ("
                        + host.node() + "); only its creator may poll, await or cancel it");
            }
            return;
        }
        synchronized (this) {
            if (child != null || ended != null) return;
            Optional<AgentHost.Child> found = host.find(taskId, owner);
            AgentHost.Child c = found.orElseGet(() -> remake.apply(request));
            owner = host.node();
            child = c;
        }
    }

    @Override public long id() {
        int i = taskId.length();
        while (i > 0 && Character.isDigit(taskId.charAt(i - 1))) i--;
        return i < taskId.length() ? Long.parseLong(taskId.substring(i)) : 0;
    }

    @Override public CompletableFuture<Void> whenDone() {
        AgentHost.Child c = child;
        if (ended != null || c == null) return CompletableFuture.completedFuture(null);
        return c.whenDone().copy();
    }

    @Override public String toString() { return "agent " + taskId; }
}
