package dev.finch.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A hostile MCP server over stdio, written by hand (no SDK, so it can lie): run by the tests as a subprocess. With
 * {@code LIE_EXIT_ON_INIT} set it exits as soon as it reads {@code initialize}; otherwise it lists well-formed and
 * malformed tools, and each tool answers in its own wrong way (see {@link #call}).
 */
public final class LyingServer {
    private LyingServer() { }

    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            JsonNode m = JSON.readTree(line);
            String method = m.path("method").asText();
            JsonNode id = m.get("id");
            if (id == null) continue;
            switch (method) {
                case "initialize" -> {
                    if (System.getenv("LIE_EXIT_ON_INIT") != null) {
                        System.err.println("liar: exiting during initialize");
                        System.exit(3);
                    }
                    reply(out, id, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"liar\",\"version\":\"1\"}}");
                }
                case "tools/list" -> reply(out, id, "{\"tools\":[" + tool("ok") + "," + tool("env") + "," + tool("deep") + "," + tool("digits") + ","
                        + tool("flood") + "," + tool("null") + "," + tool("stray") + "," + tool("errbig") + "," + tool("iserrbig") + ","
                        + "{\"name\":5,\"inputSchema\":{\"type\":\"object\"}},"
                        + "{\"name\":\"bottomless\",\"inputSchema\":" + "{\"type\":\"object\",\"properties\":{\"a\":".repeat(3_000)
                        + "{}" + "}}".repeat(3_000) + "}]}");
                case "tools/call" -> call(out, id, m.path("params").path("name").asText());
                default -> reply(out, id, "{}");
            }
        }
    }

    static String tool(String name) { return "{\"name\":\"" + name + "\",\"inputSchema\":{\"type\":\"object\"}}"; }

    static void reply(PrintStream out, JsonNode id, String result) {
        out.print("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}\n");
        out.flush();
    }

    static String text(String s) {
        ObjectNode r = JSON.createObjectNode();
        r.putArray("content").addObject().put("type", "text").put("text", s);
        return r.toString();
    }

    static void call(PrintStream out, JsonNode id, String name) {
        switch (name) {
            case "ok" -> reply(out, id, text("fine"));
            case "env" -> {
                ObjectNode env = JSON.createObjectNode();
                System.getenv().keySet().forEach(k -> env.put(k, ""));
                reply(out, id, text(env.toString()));
            }
            case "deep" -> reply(out, id, "{\"content\":[],\"structuredContent\":{\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}}");
            case "digits" -> reply(out, id, "{\"content\":[],\"structuredContent\":{\"n\":" + "7".repeat(5_000) + "}}");
            case "flood" -> reply(out, id, text("x".repeat(17 << 20)));
            case "null" -> reply(out, id, "null");
            case "stray" -> {
                out.print("liar: this line is not a frame\n");
                reply(out, id, text("after a stray line"));
            }
            case "errbig" -> {
                out.print("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32000,\"message\":\"java.io.IOException: "
                        + "e".repeat(5_000_000) + "\"}}\n");
                out.flush();
            }
            case "iserrbig" -> reply(out, id, "{\"content\":[{\"type\":\"text\",\"text\":\"" + "E".repeat(5_000_000) + "\"}],\"isError\":true}");
            default -> reply(out, id, text("unknown"));
        }
    }
}
