package dev.finch.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.Grant;
import dev.finch.host.AgentHost;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;

/**
 * The {@code starting-context-hash} of a child (contract: "a deterministic digest bound to the task, role, background,
 * budgets, parent ancestry, selected provider/model, VM revision/manifest generation, declared references, and
 * inherited grant ceiling"): the lowercase hexadecimal SHA-256 of one canonical JSON document of exactly those facts —
 * fields in a fixed order, the references in their declared order, the ceiling as its sorted canonical
 * {@code spec (scope)} spellings (grant ids are names, not facts, and are left out). The same request from the same
 * place in the tree against the same VM state always has the same digest.
 */
public final class StartingContext {
    private StartingContext() { }

    /** The digest of {@code r}, made by the node whose ancestry (task ids from the root, empty for a root session) is {@code ancestry}. */
    public static String hash(AgentHost.SpawnRequest r, List<String> ancestry, String provider, String model) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("protocol", "finch-agent-start/1");
        o.put("task", r.task());
        o.put("role", r.role());
        o.put("background", r.background());
        o.put("max_turns", r.maxTurns());
        o.put("timeout_ms", r.timeoutMs());
        o.put("max_output_bytes", r.maxOutputBytes());
        ArrayNode a = o.putArray("ancestry");
        ancestry.forEach(a::add);
        o.put("provider", provider);
        o.put("model", model);
        o.put("vm_revision", r.parentRevision());
        o.put("manifest_generation", r.parentGeneration());
        ArrayNode refs = o.putArray("context_refs");
        for (AgentHost.ContextRef c : r.contextRefs()) refs.addObject().put("kind", c.kind()).put("id", c.id()).put("sha256", c.sha256());
        TreeSet<String> ceiling = new TreeSet<>();
        for (Grant g : r.ceiling().grants()) ceiling.add(g.spec() + " (" + g.scope().spelling() + ")");
        ArrayNode c = o.putArray("ceiling");
        ceiling.forEach(c::add);
        return ContextArtifacts.sha256(o.toString().getBytes(StandardCharsets.UTF_8));
    }
}
