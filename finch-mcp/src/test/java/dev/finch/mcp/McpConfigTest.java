package dev.finch.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code {"mcpServers":{…}}} file MCP clients share, read strictly. */
class McpConfigTest {
    @Test
    void readsStdioAndHttpServers() {
        List<McpServerSpec> s = McpConfig.parse("""
                {"mcpServers": {
                   "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"DEBUG": "1"}},
                   "web": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
                   "local": {"type": "stdio", "command": "/usr/bin/server"}
                 },
                 "otherClientSetting": true}""");
        assertThat(s).containsExactly(
                new McpServerSpec.Stdio("files", "npx", List.of("-y", "@modelcontextprotocol/server-filesystem", "/tmp"), Map.of("DEBUG", "1")),
                new McpServerSpec.Http("web", URI.create("https://example.com/mcp"), Map.of("Authorization", "Bearer x")),
                new McpServerSpec.Stdio("local", "/usr/bin/server", List.of(), Map.of()));
    }

    @Test
    void refusesWhatItCannotUse() {
        assertThatThrownBy(() -> McpConfig.parse("{\"servers\":{}}")).hasMessageContaining("\"mcpServers\"");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"command\":\"x\",\"arg\":[]}}}")).hasMessageContaining("unknown field \"arg\"");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"command\":\"x\"},\"a\":{\"command\":\"y\"}}}")).hasMessageContaining("not one JSON object");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"args\":[]}}}")).hasMessageContaining("neither \"command\" nor \"url\"");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"url\":\"ftp://x\"}}}")).hasMessageContaining("http or https");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"type\":\"sse\",\"url\":\"http://x\"}}}")).hasMessageContaining("SSE");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"my files\":{\"command\":\"x\"}}}")).hasMessageContaining("cannot name an MCP server");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"a\":{\"command\":\"x\",\"args\":[1]}}}")).hasMessageContaining("args is not a string");
        assertThatThrownBy(() -> McpClients.of(List.of(McpServerSpec.stdio("a", "x"), McpServerSpec.stdio("a", "y")))).hasMessageContaining("two MCP servers");
    }
}
