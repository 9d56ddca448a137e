package dev.finch.host.words;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.host.AgentHost;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.vm.persist.ValueCodec;
import dev.finch.vm.persist.ValueForms;
import java.util.ArrayList;
import java.util.List;

/**
 * The saved form of a {@code task<agent-result>} handle: its task id and owner, the request its child was made from
 * (so a restoring scheduler that no longer has the task can make it again, within the restored run's grants) and, once
 * the child has ended, its result. A saved handle is no authority: its ceiling is revalidated where it is used again.
 */
final class AgentHandleJson implements ValueForms {
    /** The form of child agents' handles. */
    static final AgentHandleJson FORM = new AgentHandleJson();

    private AgentHandleJson() { }

    @Override public boolean saves(Object v) { return v instanceof AgentHandle; }

    @Override public JsonNode encode(Object v) { return encode((AgentHandle) v); }

    @Override public Object decode(JsonNode saved) { return saved.isObject() && saved.has("agent_task") ? decodeHandle(saved) : null; }

    static JsonNode encode(AgentHandle h) {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("agent_task", h.taskId()).put("owner", h.owner());
        AgentHost.SpawnRequest r = h.request();
        ObjectNode q = o.putObject("request").put("task", r.task()).put("role", r.role()).put("background", r.background())
                .put("provider", r.provider()).put("model", r.model()).put("max_turns", r.maxTurns()).put("timeout_ms", r.timeoutMs())
                .put("max_output_bytes", r.maxOutputBytes()).put("parent_revision", r.parentRevision()).put("parent_generation", r.parentGeneration());
        ArrayNode refs = q.putArray("context_refs");
        for (AgentHost.ContextRef c : r.contextRefs()) refs.addObject().put("kind", c.kind()).put("id", c.id()).put("sha256", c.sha256());
        ArrayNode ceiling = q.putArray("ceiling");
        for (Grant g : r.ceiling().grants()) ceiling.addObject().put("id", g.id()).put("spec", g.spec().toString()).put("scope", g.scope().spelling());
        h.result().ifPresent(res -> {
            ObjectNode e = o.putObject("result").put("task_id", res.taskId()).put("agent_id", res.agentId()).put("status", res.status().name())
                    .put("final_message", res.finalMessage()).put("turns", res.turns()).put("elapsed_ms", res.elapsedMs())
                    .put("provider_model", res.providerModel()).put("depth", res.depth()).put("starting_context_hash", res.startingContextHash());
            ArrayNode ds = e.putArray("diagnostics");
            for (Diagnostic d : res.diagnostics()) ds.addObject().put("phase", d.phase().name()).put("code", d.code()).put("message", d.message());
        });
        return o;
    }

    static AgentHandle decodeHandle(JsonNode n) {
        JsonNode q = n.get("request");
        require(q != null && q.isObject() && n.hasNonNull("owner"));
        List<AgentHost.ContextRef> refs = new ArrayList<>();
        for (JsonNode c : q.path("context_refs")) refs.add(new AgentHost.ContextRef(text(c, "kind"), text(c, "id"), text(c, "sha256")));
        List<Grant> grants = new ArrayList<>();
        for (JsonNode g : q.path("ceiling")) {
            var grant = Grant.of(text(g, "id"), text(g, "spec"), Scope.bySpelling(text(g, "scope")).orElseThrow(AgentHandleJson::malformed));
            require(grant.isOk());
            grants.add(grant.value());
        }
        var ceiling = GrantSet.of(grants);
        require(ceiling.isOk());
        AgentHost.SpawnRequest request = new AgentHost.SpawnRequest(text(q, "task"), text(q, "role"), text(q, "background"), text(q, "provider"),
                text(q, "model"), refs, ceiling.value(), q.path("max_turns").asInt(), q.path("timeout_ms").asLong(), q.path("max_output_bytes").asLong(),
                q.path("parent_revision").asLong(), q.path("parent_generation").asLong());
        AgentHost.Result result = null;
        JsonNode e = n.get("result");
        if (e != null) {
            List<Diagnostic> ds = new ArrayList<>();
            for (JsonNode d : e.path("diagnostics")) {
                ds.add(new Diagnostic(Phase.valueOf(text(d, "phase")), text(d, "code"), text(d, "message"), Origin.UNKNOWN, null, null));
            }
            result = new AgentHost.Result(text(e, "task_id"), text(e, "agent_id"), AgentHost.Status.valueOf(text(e, "status")), text(e, "final_message"),
                    ds, e.path("turns").asInt(), e.path("elapsed_ms").asLong(), text(e, "provider_model"), e.path("depth").asInt(),
                    text(e, "starting_context_hash"));
        }
        return AgentHandle.restored(text(n, "agent_task"), text(n, "owner"), request, result);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        require(v != null && v.isTextual());
        return v.asText();
    }

    private static void require(boolean ok) { if (!ok) throw malformed(); }

    private static ValueCodec.Malformed malformed() { return new ValueCodec.Malformed("malformed saved agent handle"); }
}
