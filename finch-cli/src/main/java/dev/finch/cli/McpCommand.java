package dev.finch.cli;

import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.mcp.FinchMcpServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code finch mcp}: serves Finch's model tool surface ({@code get_vm_state}, {@code get_language_definition},
 * {@code search_word}, {@code inspect_word}, {@code submit_program}) over MCP on standard input and output, one
 * session for the connection, until the client closes it. Standard output carries only the protocol.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve Finch's tools (get_vm_state, get_language_definition, search_word, inspect_word, submit_program) over MCP on stdio.",
                "A program that needs a capability not granted here suspends; its outcome lists required_capabilities.",
                "With --approval-tools the client also gets approve, deny and resume; approve asks the person (MCP elicitation),",
                "or needs the one-time approval code this command writes to standard error (which the model does not read)."})
final class McpCommand implements Callable<Integer> {
    private final Io io;

    @Mixin
    RootOptions roots = new RootOptions();

    @Mixin
    NetOptions net = new NetOptions();

    @Option(names = "--grant", paramLabel = "SPEC", description = "Grant a capability to the session, e.g. fs.read($${workspace}/**); repeatable.")
    List<String> grants = new ArrayList<>();

    @Mixin
    McpOptions mcp = new McpOptions();

    @Option(names = "--approval-tools", description = "Also offer approve, deny and resume, so the client can continue suspended programs.")
    boolean approvalTools;

    McpCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        try {
            return serve();
        } catch (UsageException e) {
            return Main.usage(io, "mcp", e.getMessage());
        }
    }

    private int serve() throws UsageException {
        SessionOptions options = net.install(roots.install(SessionOptions.DEFAULT));
        for (String g : grants) {
            // Checked now, so a malformed grant is a usage error rather than a failure at the client's first call.
            var parsed = dev.finch.capabilities.CapabilitySpec.parse(g);
            if (!parsed.isOk()) throw new UsageException("malformed grant '" + g + "': " + parsed.refusal().orElseThrow().message());
            options = options.withGrant(g);
        }
        Finch finch = mcp.install(Finch.builder()).build();
        SessionOptions opened = options;
        try {
            FinchMcpServer.serveStdio(io.in(), io.out(), () -> finch.newSession(opened),
                    approvalTools ? FinchMcpServer.Approvals.TOOLS : FinchMcpServer.Approvals.NONE, io.err());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finch.close();
        }
        return Main.EXIT_OK;
    }
}
