package dev.finch.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.net.InetSocketAddress;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The same toy tools over streamable HTTP — the SDK's servlet transport in Jetty on a loopback port, speaking the
 * real wire format — reached by a session through {@link McpClients} from an {@code {"url":…}} configuration.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpHttpTest {
    private Server jetty;
    private McpSyncServer toy;
    private String url;

    @BeforeAll
    void start() throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(ToyTools.MAPPER).mcpEndpoint("/mcp").build();
        toy = ToyTools.build(McpServer.sync(transport));
        jetty = new Server(new InetSocketAddress("127.0.0.1", 0));
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        jetty.setHandler(context);
        jetty.start();
        url = "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort() + "/mcp";
    }

    @AfterAll
    void stop() throws Exception {
        toy.close();
        jetty.stop();
    }

    @Test
    void aProgramCallsAToolOverStreamableHttp() {
        var servers = McpConfig.parse("{\"mcpServers\":{\"web\":{\"url\":\"" + url + "\"}}}");
        try (Finch finch = Finch.builder().mcp(McpClients.of(servers)).build()) {
            Session s = finch.newSession(SessionOptions.DEFAULT);
            assertThat(s.manifestGeneration()).isEqualTo(2);
            Outcome o = s.submit(Submission.of("(match-result (mcp.web.greet { :name \"Http\" :excited (some true) }) "
                    + "(ok r (unwrap (record-get r \"greeting\"))) (err e e))", "http").withLanguage(Language.LISP));
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("mcp.call(web,greet)");
            Outcome done = s.approve(o.executionId(), Scope.SESSION);
            assertThat(done.stack()).as("%s", done).extracting(e -> e.display()).containsExactly("\"Hello, Http!\"");
            // Approved for the session: the next call passes without asking.
            Outcome again = s.submit(Submission.of("(json-as-int (unwrap (json-get (mcp-call \"web\" \"greet\" (result-unwrap (json-parse \"{\\\"name\\\":\\\"A\\\"}\"))) \"length\")))", "http2")
                    .withLanguage(Language.LISP));
            assertThat(again.status()).as("%s", again).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(again.stack()).extracting(e -> e.display()).containsExactly("\"Hello, Http!\"", "(some 9)");
        }
    }

    @Test
    void finchServedOverStreamableHttpGivesEachMcpSessionItsOwnSession() throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(ToyTools.MAPPER).mcpEndpoint("/mcp").build();
        Server http = new Server(new InetSocketAddress("127.0.0.1", 0));
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        http.setHandler(context);
        try (Finch finch = Finch.create();
             FinchMcpServer server = FinchMcpServer.serve(transport, finch::newSession, FinchMcpServer.Approvals.NONE)) {
            http.start();
            String base = "http://127.0.0.1:" + ((ServerConnector) http.getConnectors()[0]).getLocalPort();
            List<io.modelcontextprotocol.client.McpSyncClient> clients = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    var client = io.modelcontextprotocol.client.McpClient.sync(
                            io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").jsonMapper(ToyTools.MAPPER).build()).build();
                    client.initialize();
                    clients.add(client);
                }
                for (var client : clients) {
                    assertThat(client.listTools().tools()).hasSize(5);
                    var r = client.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("submit_program", java.util.Map.of("source", "(+ 40 2)")));
                    assertThat(r.isError()).isFalse();
                    @SuppressWarnings("unchecked")
                    var outcome = (java.util.Map<String, Object>) r.structuredContent();
                    assertThat(outcome.get("status")).isEqualTo("completed");
                    // Each MCP session has its own Finch session: both are at revision 1.
                    assertThat(outcome.get("vm_revision")).isEqualTo(1);
                }
            } finally {
                for (var c : clients) c.closeGracefully();
                http.stop();
            }
        }
    }

    @Test
    void anHttpServerThatIsNotThereFailsItsCalls() {
        var servers = List.<McpServerSpec>of(McpServerSpec.http("nowhere", "http://127.0.0.1:1/mcp"));
        try (Finch finch = Finch.builder().mcp(McpClients.of(servers).withStartTimeout(java.time.Duration.ofSeconds(2))).build()) {
            Session s = finch.newSession(SessionOptions.DEFAULT.withGrant("mcp.call(nowhere,*)"));
            Outcome o = s.submit(Submission.of("\"nowhere\" \"x\" {\"a\": 1} mcp-call", "f").withLanguage(Language.FORTH));
            assertThat(Toys.code(o)).as("%s", o).isEqualTo("E-HOST-025");
        }
    }
}
