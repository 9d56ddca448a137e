package dev.finch.host.words;

import dev.finch.host.AgentCode;
import dev.finch.host.AgentHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Awaitable;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The child-agent words (contract: "Child-agent handles are opaque, persistent task&lt;agent-result&gt; values…"):
 * {@code capability-list}, {@code agent-spawn}, {@code agent-spawn-with}, {@code agent-poll}, {@code agent-await} and
 * {@code agent-cancel}, over the run's {@link AgentHost}. Creation checks the request's shape, revalidates every grant
 * resource against the spawning run's grants and its containment ({@code GrantSet.attenuate}), then passes the host
 * boundary with {@code agent.spawn(max_depth=D,max_children=N)} — D the child's depth in the tree, N the number of
 * children its parent will then have made — and only then asks the scheduler to resolve the profile and the context
 * references and allocate the task. Every operation on a handle checks its owner.
 */
public final class AgentWords {
    private AgentWords() { }

    /** The most context references one child may be given. */
    public static final int MAX_CONTEXT_REFS = 64;
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    /** The declared bound of every creation: the concrete requirement is instantiated at the boundary. */
    private static final String SPAWN_BOUND = "agent.spawn(max_depth=999999,max_children=999999)";

    private static final String GRANT = "record{capability:string,grant:resource<capability-grant>,id:string,kind:string,scope:string}";
    private static final String SPEC = "record{background:string,capabilities:list<resource<capability-grant>>,"
            + "context-refs:list<record{id:string,kind:string,sha256:string}>,max-output-bytes:int,max-turns:int,model:string,"
            + "provider:string,role:string,task:string,timeout-ms:int}";
    private static final String SNAPSHOT = "record{agent-id:string,complete:bool,depth:int,provider-model:string,role:string,"
            + "starting-context-hash:string,status:string,task:string,task-id:string}";
    private static final String RESULT = "record{agent-id:string,depth:int,diagnostics:list<record{code:string,message:string,phase:string}>,"
            + "elapsed-ms:int,final-message:string,provider-model:string,starting-context-hash:string,status:string,task-id:string,turns:int}";

    @Word(name = "capability-list", category = Category.HOST,
            doc = "The reusable grants of this run's ceiling (no once grants) as metadata with an opaque grant resource, for "
                    + "agent-spawn-with's capabilities. Printed ids confer nothing.")
    @Overload(sig = "-> list<" + GRANT + ">")
    public static Object capabilityList(Ctx ctx, Origin o) {
        String issuer = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(AgentHost.class) == null ? "" : dev.finch.vm.boundary.RunHost.of(ctx).config().binding(AgentHost.class).node();
        List<Object> out = new ArrayList<>();
        for (Grant g : dev.finch.vm.boundary.RunHost.of(ctx).grants().grants()) {
            if (g.scope() == Scope.ONCE) continue;
            Map<String, Object> f = new TreeMap<>();
            f.put("capability", g.spec().toString());
            f.put("grant", new GrantResource(g, issuer));
            f.put("id", g.id());
            f.put("kind", g.spec().kind().toString());
            f.put("scope", g.scope().spelling());
            out.add(record(f));
        }
        return ListValue.from(out);
    }

    @Word(name = "agent-spawn", category = Category.HOST,
            doc = "Start a child agent on this task text with the default profile and budgets; it inherits this run's whole ceiling "
                    + "(its reusable grants). Answers its handle; needs agent.spawn(max_depth=D,max_children=N).")
    @Overload(sig = "string -> task<agent-result> ! {" + SPAWN_BOUND + "}")
    public static Object agentSpawn(Ctx ctx, String task, Type.Fn site, Origin o) {
        AgentHost agents = scheduler(ctx, o);
        AgentHost.Bounds b = agents.bounds();
        // The compact word inherits the caller's whole creation-time ceiling: every reusable grant it holds now.
        GrantSet ceiling = ceiling(dev.finch.vm.boundary.RunHost.of(ctx).grants().grants().stream().filter(g -> g.scope() != Scope.ONCE).toList());
        if (task.isBlank()) throw new FinchTrap(AgentCode.BAD_REQUEST, o, "a child agent needs a task: the text is empty");
        return create(ctx, agents, new AgentHost.SpawnRequest(task, "", "", "", "", List.of(), ceiling, b.defaultTurns(), b.defaultTimeoutMs(),
                b.defaultOutputBytes(), 0, 0), "agent-spawn", site, o, task);
    }

    @Word(name = "agent-spawn-with", category = Category.HOST,
            doc = "Start a child agent from one exact record (empty provider or model: no override; at most 64 context-refs, verified first; "
                    + "capabilities from capability-list are its whole ceiling, empty delegates nothing; budgets positive, host-bounded).")
    @Overload(sig = SPEC + " -> task<agent-result> ! {" + SPAWN_BOUND + "}")
    public static Object agentSpawnWith(Ctx ctx, Object spec, Type.Fn site, Origin o) {
        AgentHost agents = scheduler(ctx, o);
        RecordValue r = (RecordValue) spec;
        // Fields in name order: background, capabilities, context-refs, max-output-bytes, max-turns, model, provider, role, task, timeout-ms.
        String background = (String) r.get(0);
        ListValue capabilities = (ListValue) r.get(1);
        ListValue refs = (ListValue) r.get(2);
        long maxOutput = (Long) r.get(3);
        long maxTurns = (Long) r.get(4);
        String model = (String) r.get(5);
        String provider = (String) r.get(6);
        String role = (String) r.get(7);
        String task = (String) r.get(8);
        long timeout = (Long) r.get(9);
        AgentHost.Bounds b = agents.bounds();
        if (task.isBlank()) throw new FinchTrap(AgentCode.BAD_REQUEST, o, "a child agent needs a task: the task field is empty");
        budget(o, "max-turns", maxTurns, b.maxTurns());
        budget(o, "timeout-ms", timeout, b.maxTimeoutMs());
        budget(o, "max-output-bytes", maxOutput, b.maxOutputBytes());
        if (refs.size() > MAX_CONTEXT_REFS) {
            throw new FinchTrap(AgentCode.BAD_REQUEST, o, "a child may be given at most " + MAX_CONTEXT_REFS + " context references, not " + refs.size());
        }
        List<AgentHost.ContextRef> contextRefs = new ArrayList<>();
        for (Object e : refs) {
            // Fields in name order: id, kind, sha256.
            RecordValue ref = (RecordValue) e;
            String sha = (String) ref.get(2);
            if (!SHA256.matcher(sha).matches()) {
                throw new FinchTrap(AgentCode.BAD_REQUEST, o, "context reference " + ref.get(1) + ":" + ref.get(0)
                        + " has a digest that is not 64 hexadecimal digits: " + dev.finch.vm.value.Values.quote(clip(sha)));
            }
            contextRefs.add(new AgentHost.ContextRef((String) ref.get(1), (String) ref.get(0), sha.toLowerCase(java.util.Locale.ROOT)));
        }
        GrantSet ceiling = ceiling(revalidate(ctx, agents, capabilities, o));
        return create(ctx, agents, new AgentHost.SpawnRequest(task, role, background, provider, model, contextRefs, ceiling, (int) maxTurns, timeout,
                maxOutput, 0, 0), "agent-spawn-with", site, o, spec);
    }

    @Word(name = "agent-poll", category = Category.HOST,
            doc = "A snapshot of the child, never waiting; its status is queued, running, completed, failed or cancelled.")
    @Overload(sig = "task<agent-result> -> " + SNAPSHOT)
    public static Object agentPoll(Ctx ctx, Object handle, Origin o) {
        AgentHost.Child c = bound(ctx, handle, o);
        AgentHandle h = (AgentHandle) handle;
        if (c == null) return snapshot(h.result().orElseThrow(), h.request());
        AgentHost.Snapshot s = c.snapshot();
        Map<String, Object> f = new TreeMap<>();
        f.put("agent-id", s.agentId());
        f.put("complete", s.status().complete());
        f.put("depth", (long) s.depth());
        f.put("provider-model", s.providerModel());
        f.put("role", s.role());
        f.put("starting-context-hash", s.startingContextHash());
        f.put("status", s.status().spelling());
        f.put("task", s.task());
        f.put("task-id", s.taskId());
        return record(f);
    }

    @Word(name = "agent-await", category = Category.HOST, pauses = true,
            doc = "The child's result once it has ended; while it works the run pauses (not a blocked thread) and "
                    + "continues when it is done.")
    @Overload(sig = "task<agent-result> -> " + RESULT)
    public static Object agentAwait(Ctx ctx, Object handle, Origin o) {
        // A resume of an agent wait re-executes this await: it is the innermost pausing operation.
        ctx.takeResume();
        AgentHost.Child c = bound(ctx, handle, o);
        AgentHandle h = (AgentHandle) handle;
        if (c != null && c.result().isEmpty() && Awaitable.pauseOrWait(ctx, h, o)) return null;
        return result(h.result().orElseThrow(() -> new FinchTrap(dev.finch.vm.engine.VmCode.INTERNAL, o, h + " has not ended")));
    }

    @Word(name = "agent-cancel", category = Category.HOST,
            doc = "Consume the handle and ask the child to stop (an ended child keeps its result); its result then has status cancelled.")
    @Overload(sig = "task<agent-result> ->")
    public static void agentCancel(Ctx ctx, Object handle, Origin o) {
        AgentHost.Child c = bound(ctx, handle, o);
        if (c != null) c.cancel();
    }

    // ---- creation -------------------------------------------------------------------------------------------------

    private static AgentHost scheduler(Ctx ctx, Origin o) {
        AgentHost agents = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(AgentHost.class);
        if (agents == null) {
            throw new FinchTrap(AgentCode.NO_SCHEDULER, o, "no agent scheduler is installed in this session: configure an agent provider profile "
                    + "(Finch.builder().agents(…), or finch run --provider)");
        }
        if (dev.finch.vm.boundary.RunHost.of(ctx).config().deferred()) {
            throw new FinchTrap(AgentCode.NO_SCHEDULER, o, "a deferred-host session cannot create child agents: a child is a local task of this host's scheduler");
        }
        return agents;
    }

    private static void budget(Origin o, String field, long value, long bound) {
        if (value < 1 || value > bound) {
            throw new FinchTrap(AgentCode.BAD_REQUEST, o, field + " must be from 1 to the host's bound " + bound + ", not " + value);
        }
    }

    /**
     * The grants {@code capabilities} name, revalidated now: each listed by this node, still held by the run exactly as
     * listed (not revoked, not expired), reusable, and — as a whole — contained in the run's delegable grants.
     */
    private static List<Grant> revalidate(Ctx ctx, AgentHost agents, ListValue capabilities, Origin o) {
        GrantSet held = dev.finch.vm.boundary.RunHost.of(ctx).grants();
        List<Grant> chosen = new ArrayList<>();
        for (Object e : capabilities) {
            GrantResource r = (GrantResource) e;
            Grant g = r.grant();
            if (!r.issuer().equals(agents.node())) {
                throw new FinchTrap(AgentCode.GRANT_NOT_HELD, o, "grant " + g.id() + " was listed by another agent node (" + r.issuer() + "); only grants "
                        + "this run lists with capability-list can be delegated");
            }
            if (g.scope() == Scope.ONCE || !held.get(g.id()).map(g::equals).orElse(false)) {
                throw new FinchTrap(AgentCode.GRANT_NOT_HELD, o, "grant " + g.id() + " (" + g.spec() + ") is no longer held by this run: it was revoked, "
                        + "expired or used up; nothing was allocated");
            }
            if (chosen.stream().noneMatch(c -> c.id().equals(g.id()))) chosen.add(g);
        }
        return chosen;
    }

    /** The child's ceiling: the grants, each of task scope (it lives as long as the child's task), checked as an attenuation. */
    private static GrantSet ceiling(List<Grant> grants) {
        List<Grant> task = new ArrayList<>();
        for (Grant g : grants) task.add(new Grant(g.id(), g.spec(), Scope.TASK));
        return GrantSet.of(task).value();
    }

    private static Object create(Ctx ctx, AgentHost agents, AgentHost.SpawnRequest shaped, String word, Type.Fn site, Origin o, Object input) {
        var attenuated = dev.finch.vm.boundary.RunHost.of(ctx).grants().attenuate(shaped.ceiling());
        if (!attenuated.isOk()) {
            Diagnostic d = attenuated.refusal().orElseThrow();
            throw new FinchTrap(dev.finch.capabilities.CapabilityCode.ATTENUATION_EXCEEDS, o, d.message());
        }
        Capability requirement = new dev.finch.capabilities.CapabilitySpec.AgentSpawn(agents.depth() + 1, agents.childrenCreated() + 1).toCapability();
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, word, requirement, EffectRequest.inputs(site, input), site.outs(), o, () -> {
            try {
                // The child follows this session's revocations: a delegated grant revoked later is revoked in the child too.
                return new AgentHandle(agents.spawn(shaped, dev.finch.vm.boundary.RunHost.of(ctx).config().revocations()));
            } catch (AgentHost.Refusal r) {
                throw new FinchTrap(r.code(), o, r.getMessage());
            }
        });
    }

    // ---- handles --------------------------------------------------------------------------------------------------

    /** The handle's live child after the owner check (binding a restored handle); null for a restored handle that had ended. */
    private static AgentHost.Child bound(Ctx ctx, Object handle, Origin o) {
        AgentHandle h = (AgentHandle) handle;
        AgentHost agents = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(AgentHost.class);
        if (agents == null) {
            if (h.result().isPresent() && h.child().isEmpty()) return null;
            throw new FinchTrap(AgentCode.NO_SCHEDULER, o, "no agent scheduler is installed in this session, so " + h + " cannot be reached");
        }
        h.bind(agents, request -> remake(ctx, agents, request, o), o);
        return h.child().orElse(null);
    }

    /** A child made again from a saved request, its ceiling revalidated against the restored run's grants. */
    private static AgentHost.Child remake(Ctx ctx, AgentHost agents, AgentHost.SpawnRequest request, Origin o) {
        if (!dev.finch.vm.boundary.RunHost.of(ctx).grants().attenuate(request.ceiling()).isOk()) {
            throw new FinchTrap(AgentCode.LOST, o, "the child agent of this restored handle is gone and cannot be made again: its delegated ceiling "
                    + request.ceiling().capabilities() + " is not within this run's grants");
        }
        try {
            return agents.spawn(request);
        } catch (AgentHost.Refusal r) {
            throw new FinchTrap(AgentCode.LOST, o, "the child agent of this restored handle cannot be made again: " + r.getMessage());
        }
    }

    private static Object snapshot(AgentHost.Result r, AgentHost.SpawnRequest request) {
        Map<String, Object> f = new TreeMap<>();
        f.put("agent-id", r.agentId());
        f.put("complete", true);
        f.put("depth", (long) r.depth());
        f.put("provider-model", r.providerModel());
        f.put("role", request.role());
        f.put("starting-context-hash", r.startingContextHash());
        f.put("status", r.status().spelling());
        f.put("task", request.task());
        f.put("task-id", r.taskId());
        return record(f);
    }

    private static Object result(AgentHost.Result r) {
        List<Object> diagnostics = new ArrayList<>();
        for (Diagnostic d : r.diagnostics()) {
            Map<String, Object> f = new TreeMap<>();
            f.put("code", d.code());
            f.put("message", d.message());
            f.put("phase", d.phase().spelling());
            diagnostics.add(record(f));
        }
        Map<String, Object> f = new TreeMap<>();
        f.put("agent-id", r.agentId());
        f.put("depth", (long) r.depth());
        f.put("diagnostics", ListValue.from(diagnostics));
        f.put("elapsed-ms", r.elapsedMs());
        f.put("final-message", r.finalMessage());
        f.put("provider-model", r.providerModel());
        f.put("starting-context-hash", r.startingContextHash());
        f.put("status", r.status().spelling());
        f.put("task-id", r.taskId());
        f.put("turns", (long) r.turns());
        return record(f);
    }

    /** A record value from its fields (a sorted map: the record's canonical field order). */
    private static RecordValue record(Map<String, Object> sorted) { return new RecordValue(sorted.values().toArray()); }

    private static String clip(String s) { return s.length() <= 80 ? s : s.substring(0, 80) + "…"; }
}
