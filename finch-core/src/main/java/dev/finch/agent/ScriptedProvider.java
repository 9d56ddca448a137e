package dev.finch.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A provider whose replies are written down in advance — programs to submit and final messages — so child agents run
 * without a network, in tests, examples and {@code finch run --provider script:FILE}. The format (docs/agents.md):
 *
 * <pre>
 * # a comment (a line starting with #, outside a turn's body)
 * ## role reader           the turns of children whose role is "reader" ("## role *": every other role)
 * &gt;&gt;&gt; program lisp        a turn calling submit_program with the lines up to the next &gt;&gt;&gt; or ## as the source
 * (say (bytes-to-string (file-read (path "a.txt"))))
 * &gt;&gt;&gt; tool search_word     a turn calling another tool of the surface, the lines below being its JSON arguments
 * {"query": "file"}
 * &gt;&gt;&gt; final               a turn answering the final message: the lines below, where {{output}}, {{status}} and
 * read: {{output}}          {{codes}} stand for the last tool answer's output, status and diagnostic codes
 * </pre>
 *
 * Lines before the first {@code ## role} belong to role {@code *}. A child's n-th turn is the n-th turn of its role's
 * script (the provider keeps no state: it counts the assistant turns of the conversation); a child that needs a turn its
 * script does not have fails with {@code E-AGENT-010}.
 */
public final class ScriptedProvider implements AgentProvider {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One scripted turn. */
    private sealed interface Step permits Program, Tool, Final { }

    private record Program(String language, String source) implements Step { }

    private record Tool(String name, String argumentsJson) implements Step { }

    private record Final(String template) implements Step { }

    private final Map<String, List<Step>> roles;

    private ScriptedProvider(Map<String, List<Step>> roles) { this.roles = roles; }

    /** The script in {@code file}. */
    public static ScriptedProvider load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * The script {@code text}.
     *
     * @throws IllegalArgumentException naming the line of a malformed directive
     */
    public static ScriptedProvider parse(String text) {
        Map<String, List<Step>> roles = new LinkedHashMap<>();
        String role = "*";
        String kind = null;
        String arg = "";
        List<String> body = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i] : null;
            boolean directive = line == null || line.startsWith(">>>") || line.startsWith("## ");
            if (!directive) {
                if (kind != null) body.add(line);
                else if (!line.isBlank() && !line.startsWith("#")) throw new IllegalArgumentException("line " + (i + 1) + ": text outside a turn (start one with >>> program, >>> tool NAME or >>> final)");
                continue;
            }
            if (kind != null) {
                roles.computeIfAbsent(role, r -> new ArrayList<>()).add(step(kind, arg, trim(body), i));
                kind = null;
                body.clear();
            }
            if (line == null) break;
            if (line.startsWith("## ")) {
                String[] w = line.substring(3).trim().split("\\s+");
                if (w.length != 2 || !w[0].equals("role")) throw new IllegalArgumentException("line " + (i + 1) + ": expected '## role NAME'");
                role = w[1];
                continue;
            }
            String[] w = line.substring(3).trim().split("\\s+", 2);
            kind = w[0];
            arg = w.length > 1 ? w[1].trim() : "";
            if (!List.of("program", "tool", "final").contains(kind)) {
                throw new IllegalArgumentException("line " + (i + 1) + ": unknown turn '" + kind + "' (program, tool or final)");
            }
            if (kind.equals("program") && !List.of("", "lisp", "forth", "norman").contains(arg)) {
                throw new IllegalArgumentException("line " + (i + 1) + ": a program's language is lisp, forth or norman, not '" + arg + "'");
            }
            if (kind.equals("tool") && arg.isEmpty()) throw new IllegalArgumentException("line " + (i + 1) + ": '>>> tool' needs the tool's name");
        }
        return new ScriptedProvider(roles);
    }

    private static Step step(String kind, String arg, String body, int line) {
        return switch (kind) {
            case "program" -> new Program(arg, body);
            case "tool" -> {
                try {
                    JsonNode args = JSON.readTree(body.isBlank() ? "{}" : body);
                    if (!args.isObject()) throw new IllegalArgumentException("before line " + (line + 1) + ": a tool's arguments are one JSON object");
                    yield new Tool(arg, args.toString());
                } catch (IOException e) {
                    throw new IllegalArgumentException("before line " + (line + 1) + ": a tool's arguments are not JSON: " + e.getMessage());
                }
            }
            default -> new Final(body);
        };
    }

    private static String trim(List<String> body) {
        int end = body.size();
        while (end > 0 && body.get(end - 1).isBlank()) end--;
        return String.join("\n", body.subList(0, end));
    }

    @Override public Turn next(Conversation c) throws Failure {
        List<Step> steps = roles.containsKey(c.role()) ? roles.get(c.role()) : roles.get("*");
        if (steps == null) throw new Failure("the script has no turns for role '" + c.role() + "' (and no '## role *')");
        int n = 0;
        String last = null;
        for (Message m : c.messages()) {
            if (m instanceof AssistantTurn) n++;
            if (m instanceof ToolResults r && !r.results().isEmpty()) last = r.results().get(r.results().size() - 1).content();
        }
        if (n >= steps.size()) throw new Failure("the script for role '" + c.role() + "' has " + steps.size() + " turns and the child asked for turn " + (n + 1));
        String id = "script-" + (n + 1);
        Step step = steps.get(n);
        if (step instanceof Program p) {
            var args = JsonNodeFactory.instance.objectNode().put("source", p.source());
            if (!p.language().isEmpty()) args.put("language", p.language());
            return new Turn("", List.of(new ToolCall(id, "submit_program", args.toString())), "tool_use");
        }
        if (step instanceof Tool t) return new Turn("", List.of(new ToolCall(id, t.name(), t.argumentsJson())), "tool_use");
        return Turn.finalMessage(fill(((Final) step).template(), last));
    }

    private static String fill(String template, String lastReply) {
        JsonNode o = null;
        try {
            if (lastReply != null) o = JSON.readTree(lastReply);
        } catch (IOException e) {
            o = null;
        }
        String output = o == null ? "" : o.path("output").asText("");
        String status = o == null ? "" : o.path("status").asText("");
        List<String> codes = new ArrayList<>();
        if (o != null) for (JsonNode d : o.path("diagnostics")) codes.add(d.path("code").asText());
        return template.replace("{{output}}", output).replace("{{status}}", status).replace("{{codes}}", String.join(",", codes));
    }
}
