package dev.finch.host.words;

import dev.finch.host.McpHost;
import dev.finch.host.McpResult;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.HostText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * {@code mcp-call}, the explicit managed-JSON fallback for a host-configured MCP tool (contract "mcp-call is the
 * explicit managed-JSON fallback…"): the concrete requirement {@code mcp.call(server,tool)} is derived from its first
 * two arguments before dispatch (a literal server and tool preview it at verify time), and the call passes the one
 * host boundary to the run's {@link McpHost}. The typed {@code mcp.<server>.<tool>} words are {@link McpBindings}'.
 */
public final class McpWords {
    private McpWords() { }

    @Word(name = "mcp-call", category = Category.HOST,
            doc = "Call a configured MCP server's tool with a JSON object of arguments: its structuredContent (else its content array) as json. A tool error fails the run (E-HOST-028); the typed mcp.<server>.<tool> word answers err.")
    @Overload(sig = "string string json -> json ! {mcp.call(*,*)}", requires = "mcp.call($0,$1)")
    public static Object call(Ctx ctx, String server, String tool, JsonNode arguments, Type.Fn site, Origin o) {
        // The prompt shows the requirement: a name no grant can spell is refused before anything is asked.
        if (!McpBindings.capabilityName(server) || !McpBindings.capabilityName(tool)) {
            throw new FinchTrap(HostCode.MCP_NO_SERVER, o, "no grant can name the MCP server '" + server + "' and tool '" + tool
                    + "' (names are letters, digits, '_', '.', '+' or '-')");
        }
        McpHost host = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(McpHost.class);
        if (!dev.finch.vm.boundary.RunHost.of(ctx).config().deferred() && (host == null || !host.serves(server))) {
            throw new FinchTrap(HostCode.MCP_NO_SERVER, o, "no MCP server named '" + server + "' is configured for this session");
        }
        if (!arguments.isObject()) {
            throw new FinchTrap(HostCode.BAD_ARGUMENT, o, "mcp-call takes the tool's arguments as a JSON object, not " + arguments.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
        }
        dev.finch.vm.boundary.Watch watch = () -> java.util.Optional.ofNullable(ctx.stopNow()).map(FinchTrap::getMessage);
        Capability requirement = Capability.of("mcp.call", server, tool);
        try {
            return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "mcp-call", requirement, EffectRequest.inputs(site, server, tool, arguments), site.outs(), o, () -> {
                McpResult r = host.call(server, tool, arguments, watch);
                if (r.error()) throw new HostFailure(HostCode.MCP_TOOL_ERROR, "MCP tool `" + tool + "` of `" + server + "` reported an error: " + HostText.external(r.text()));
                return McpBindings.managed(r.output(), server, tool);
            });
        } catch (FinchTrap failed) {
            // A run stopped while the server worked reports its own stop (cancelled, deadline), not the abandoned call.
            FinchTrap stop = failed.code() == HostCode.MCP_SERVER_FAILED ? ctx.stopNow() : null;
            if (stop == null) throw failed;
            throw new FinchTrap(stop.code(), o, stop.getMessage() + " while MCP server '" + server + "' ran `" + tool + "`");
        }
    }
}
