package dev.finch.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.capabilities.Grant;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.tools.ToolSurface;
import dev.finch.host.AgentCode;
import dev.finch.host.AgentHost;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One child agent's run (contract: "Child providers receive submit_program plus read-only language/VM discovery
 * tools"): a fresh Finch session whose grants are exactly the child's ceiling, driven by its profile's provider
 * through that session's {@link ToolSurface} and nothing else, until the provider answers a turn without tool calls
 * (the final message) or a budget ends it — max-turns ({@code E-AGENT-007}), timeout-ms ({@code E-AGENT-008}, enforced
 * by the scheduler's timer even while the provider or a program is working), max-output-bytes ({@code E-AGENT-009}: what
 * its programs say plus the final message). Its programs pass the same verifier and host boundary as any; a request its
 * ceiling does not permit would pause for approval, and a child has nobody to ask, so it is denied at once
 * ({@code E-HOST-001}) and the denial is both the program's outcome the provider sees and a diagnostic of the result.
 */
final class ChildRun implements AgentHost.Child, Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_DIAGNOSTICS = 64;

    private final AgentScheduler scheduler;
    private final String taskId;
    private volatile String owner;
    private final AgentHost.SpawnRequest request;
    private final AgentProfile profile;
    private final String model;
    /** The verified context, until it is in the child's first message (then released: ended tasks are kept small). */
    private volatile List<ContextArtifacts.Verified> context;
    private final int depth;
    private final List<String> lineage;
    private final String hash;
    private final java.lang.ref.WeakReference<Session> parent;
    /** The parent session's revocations, which the child's copies of the delegated grants follow; null: none to follow. */
    private final dev.finch.capabilities.Revocations parentRevocations;

    private final AtomicReference<AgentHost.Status> status = new AtomicReference<>(AgentHost.Status.QUEUED);
    private final AtomicReference<AgentHost.Result> result = new AtomicReference<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final List<Diagnostic> diagnostics = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile Session session;
    private volatile String agentId = "";
    private volatile Thread thread;
    private volatile int turns;
    private volatile long startNanos = System.nanoTime();
    /** When the child's timeout-ms ends: its provider's retries do not wait past it. */
    private volatile java.time.Instant deadline = java.time.Instant.MAX;

    ChildRun(AgentScheduler scheduler, String taskId, String owner, AgentHost.SpawnRequest request, AgentProfile profile, String model,
             List<ContextArtifacts.Verified> context, int depth, List<String> lineage, String hash, Session parent,
             dev.finch.capabilities.Revocations parentRevocations) {
        this.scheduler = scheduler;
        this.taskId = taskId;
        this.owner = owner;
        this.request = request;
        this.profile = profile;
        this.model = model;
        this.context = List.copyOf(context);
        this.depth = depth;
        this.lineage = List.copyOf(lineage);
        this.hash = hash;
        this.parent = new java.lang.ref.WeakReference<>(parent);
        this.parentRevocations = parentRevocations;
    }

    @Override public String taskId() { return taskId; }

    @Override public String owner() { return owner; }

    /** The restoring node adopts this child. */
    void adopt(String node) { owner = node; }

    /** The child's own node (its session's id), once it started. */
    String childNode() { return agentId.isEmpty() ? null : agentId; }

    @Override public AgentHost.SpawnRequest request() { return request; }

    private String providerModel() { return profile.name() + "/" + model; }

    @Override public AgentHost.Snapshot snapshot() {
        return new AgentHost.Snapshot(taskId, agentId, status.get(), request.task(), request.role(), providerModel(), depth, hash);
    }

    @Override public CompletableFuture<Void> whenDone() { return done.copy(); }

    @Override public Optional<AgentHost.Result> result() { return Optional.ofNullable(result.get()); }

    @Override public void cancel() { stop(AgentHost.Status.CANCELLED, AgentCode.CANCELLED, "the child was cancelled before it answered"); }

    @Override public void run() {
        if (!status.compareAndSet(AgentHost.Status.QUEUED, AgentHost.Status.RUNNING)) return;
        thread = Thread.currentThread();
        startNanos = System.nanoTime();
        deadline = java.time.Instant.now().plusMillis(request.timeoutMs());
        var timeout = scheduler.timer().schedule(() -> stop(AgentHost.Status.FAILED, AgentCode.TIMEOUT,
                "the child ran past its timeout-ms of " + request.timeoutMs() + " ms and was stopped"), request.timeoutMs(), TimeUnit.MILLISECONDS);
        try {
            converse();
        } catch (AgentProvider.Failure f) {
            finish(AgentHost.Status.FAILED, "", AgentCode.PROVIDER.at(Origin.UNKNOWN, "the provider " + providerModel() + " failed: " + f.getMessage()));
        } catch (InterruptedException e) {
            // Stopped (cancelled or timed out): the result is already set.
            finish(AgentHost.Status.CANCELLED, "", AgentCode.CANCELLED.at(Origin.UNKNOWN, "the child was interrupted"));
        } catch (RuntimeException e) {
            finish(AgentHost.Status.FAILED, "", AgentCode.PROVIDER.at(Origin.UNKNOWN, "the child's run failed inside the scheduler: " + e));
        } finally {
            timeout.cancel(false);
            // The child's session is no longer needed once it has ended: close it (stopping the MCP servers it started)
            // and let it go (the scheduler keeps the result).
            Session ended = session;
            session = null;
            unfollow();
            if (ended != null) ended.close();
            thread = null;
            Thread.interrupted();
        }
    }

    /** Stops following the parent's revocations (the child has ended); null while it follows none. */
    private volatile AutoCloseable following;

    /**
     * Makes the child's copies of the delegated grants follow the parent's revocations: the child session gave them ids
     * {@code g1}, {@code g2}, … in the ceiling's order, so the parent's grant at place i is the child's {@code g(i+1)}.
     * It subscribes first, then revokes what the parent revoked already (while the child waited in the queue).
     */
    private AutoCloseable follow(Session child) {
        if (parentRevocations == null) return null;
        java.util.Map<String, String> childIds = new java.util.HashMap<>();
        List<Grant> delegated = request.ceiling().grants();
        for (int i = 0; i < delegated.size(); i++) childIds.put(delegated.get(i).id(), "g" + (i + 1));
        AutoCloseable f = parentRevocations.onRevoke(id -> {
            String mine = childIds.get(id);
            if (mine != null) child.revoke(mine);
        });
        for (var e : childIds.entrySet()) if (parentRevocations.isRevoked(e.getKey())) child.revoke(e.getValue());
        return f;
    }

    private void unfollow() {
        AutoCloseable f = following;
        following = null;
        if (f == null) return;
        try {
            f.close();
        } catch (Exception ignored) {
            // Removing a follower cannot fail.
        }
    }

    private void converse() throws AgentProvider.Failure, InterruptedException {
        Session parentSession = parent.get();
        if (parentSession == null) {
            finish(AgentHost.Status.CANCELLED, "", AgentCode.CANCELLED.at(Origin.UNKNOWN, "the parent session is gone"));
            return;
        }
        List<String> specs = new ArrayList<>();
        for (Grant g : request.ceiling().grants()) specs.add(g.spec().toString());
        SessionOptions po = parentSession.options();
        SessionOptions.Builder options = SessionOptions.builder().grants(specs);
        po.roots().forEach(options::root);
        po.fileHost().ifPresent(options::fileHost);
        po.processHost().ifPresent(options::processHost);
        Session child = scheduler.finch().newDelegatedSession(options.build());
        session = child;
        following = follow(child);
        agentId = child.id();
        scheduler.childNode(child, depth, lineage);
        if (done.isDone()) return;
        // The source identity of each submitted program is the host's: agent:TASK:CALL-ID (see call).
        ToolSurface tools = ToolSurface.of(child);
        List<AgentProvider.Message> messages = new ArrayList<>();
        messages.add(new AgentProvider.UserText(userText()));
        context = List.of();
        long outputBytes = 0;
        while (!done.isDone()) {
            if (turns >= request.maxTurns()) {
                finish(AgentHost.Status.FAILED, "", AgentCode.TURNS.at(Origin.UNKNOWN, "the child used all of its " + request.maxTurns()
                        + " turns without a final message"));
                return;
            }
            AgentProvider.Turn t = profile.provider().next(new AgentProvider.Conversation(model, request.role(), system(), messages, tools.tools(),
                    scheduler.options().maxTokens()).withDeadline(deadline));
            turns++;
            Optional<String> refused = scheduler.options().meter().charge(profile.name(), model, t.usage());
            if (refused.isPresent()) {
                finish(AgentHost.Status.FAILED, "", AgentCode.BUDGET.at(Origin.UNKNOWN, "the child's tokens were refused by the run's budget: " + refused.get()));
                return;
            }
            messages.add(new AgentProvider.AssistantTurn(t));
            if (t.calls().isEmpty()) {
                outputBytes += t.text().getBytes(StandardCharsets.UTF_8).length;
                if (outputBytes > request.maxOutputBytes()) {
                    finish(AgentHost.Status.FAILED, "", outputExceeded(outputBytes));
                } else {
                    finish(AgentHost.Status.COMPLETED, t.text(), null);
                }
                return;
            }
            List<AgentProvider.ToolResult> results = new ArrayList<>();
            for (AgentProvider.ToolCall call : t.calls()) {
                if (done.isDone()) return;
                String reply = call(child, tools, call);
                outputBytes += observe(reply);
                results.add(new AgentProvider.ToolResult(call.id(), reply));
            }
            if (outputBytes > request.maxOutputBytes()) {
                finish(AgentHost.Status.FAILED, "", outputExceeded(outputBytes));
                return;
            }
            messages.add(new AgentProvider.ToolResults(results));
        }
    }

    private Diagnostic outputExceeded(long bytes) {
        return AgentCode.OUTPUT.at(Origin.UNKNOWN, "the child's output reached " + bytes + " bytes, past its max-output-bytes of " + request.maxOutputBytes());
    }

    /** One tool call through the child's surface; a request that would wait for approval is denied at once. */
    private String call(Session child, ToolSurface tools, AgentProvider.ToolCall call) {
        String reply = tools.handle(call.name(), call.argumentsJson(), "agent:" + taskId + ":" + call.id());
        JsonNode o = parse(reply);
        if (o != null && "suspended".equals(o.path("status").asText()) && "approval".equals(o.path("pending_request").path("awaiting").asText())) {
            String needed = o.path("pending_request").path("requirement").asText(o.path("required_capabilities").path(0).asText(""));
            Outcome denied = child.deny(o.path("execution_id").asText(), "a child agent holds only its delegated ceiling "
                    + request.ceiling().capabilities() + ", which does not contain " + needed + "; nobody can approve more");
            reply = FinchJson.write(denied);
        } else if (o != null && "suspended".equals(o.path("status").asText())) {
            // A child's program cannot wait for anyone (a yield, a deferred result): it is cancelled.
            child.cancel(o.path("execution_id").asText());
        }
        return reply;
    }

    /** Records the diagnostics of an outcome the tools answered; the bytes its programs said. */
    private long observe(String reply) {
        JsonNode o = parse(reply);
        if (o == null) return 0;
        for (JsonNode d : o.path("diagnostics")) {
            if (diagnostics.size() >= MAX_DIAGNOSTICS) break;
            Phase phase = Phase.EXECUTE;
            for (Phase p : Phase.values()) if (p.spelling().equals(d.path("phase").asText())) phase = p;
            JsonNode at = d.path("origin");
            diagnostics.add(new Diagnostic(phase, d.path("code").asText(), d.path("message").asText(),
                    Origin.of(at.path("source").asText("<child>"), at.path("line").asInt(0), at.path("column").asInt(0)),
                    d.hasNonNull("expected") ? d.get("expected").asText() : null, d.hasNonNull("found") ? d.get("found").asText() : null));
        }
        return o.path("output").asText("").getBytes(StandardCharsets.UTF_8).length;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private String system() {
        var ceiling = request.ceiling().capabilities();
        return "You are a child agent of a Finch runtime, at depth " + depth + " of its agent tree. You act only through your tools: "
                + "submit_program runs a Lisp or Co-Forth program in your own Finch session (its say output and outcome come back), and "
                + "get_language_definition (the primer of Lisp and Co-Forth; detail full for everything), search_word (finds words by "
                + "what they do), inspect_word and get_vm_state describe the language and your VM. Your authority is "
                + "your grant ceiling: " + (ceiling.isEmpty() ? "nothing (pure computation only)" : ceiling.toString())
                + "; a program that needs anything else fails. When the task is done, answer with your final message as plain text and "
                + "no tool call: that text is your result."
                + (request.role().isEmpty() ? "" : "\nRole: " + request.role())
                + (request.background().isEmpty() ? "" : "\nBackground: " + request.background());
    }

    /** The task and the child's explicit data context: every verified context artifact, whole. */
    private String userText() {
        StringBuilder b = new StringBuilder("Task: ").append(request.task());
        for (ContextArtifacts.Verified v : context) {
            AgentHost.ContextRef r = v.ref();
            b.append("\n\n--- context ").append(r.kind()).append(':').append(r.id()).append(" sha256=").append(r.sha256()).append('\n')
                    .append(v.text()).append("\n--- end ").append(r.kind()).append(':').append(r.id());
        }
        return b.toString();
    }

    /** Ends the child with {@code end} unless it has ended already; true when this call ended it. */
    private boolean finish(AgentHost.Status end, String finalMessage, Diagnostic why) {
        List<Diagnostic> all = new ArrayList<>(diagnostics);
        if (why != null) all.add(why);
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        AgentHost.Result r = new AgentHost.Result(taskId, agentId, end, finalMessage, all, turns, elapsed, providerModel(), depth, hash);
        if (!result.compareAndSet(null, r)) return false;
        status.set(end);
        done.complete(null);
        scheduler.ended(this);
        return true;
    }

    /** Stops the child from outside (cancellation, the timer): its running program is cancelled and its provider call interrupted. */
    private void stop(AgentHost.Status end, AgentCode code, String message) {
        boolean queued = status.compareAndSet(AgentHost.Status.QUEUED, end);
        if (!finish(end, "", code.at(Origin.UNKNOWN, message)) && !queued) return;
        Session s = session;
        if (s != null) s.runningExecution().ifPresent(s::cancel);
        Thread t = thread;
        if (t != null) t.interrupt();
    }

    @Override public String toString() { return "agent task " + taskId; }
}
