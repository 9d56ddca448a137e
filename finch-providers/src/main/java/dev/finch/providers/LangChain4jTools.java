package dev.finch.providers;

import dev.finch.Session;
import dev.finch.tools.ToolSpec;
import dev.finch.tools.ToolSurface;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A session's tool surface — {@code submit_program} and the read-only discovery tools ({@code get_vm_state},
 * {@code get_language_definition}, {@code search_word}, {@code inspect_word}) — as LangChain4j tools, for an application
 * that keeps its own agent loop (an {@code AiServices} assistant, or its own calls to a {@code ChatModel}):
 * {@link #specifications()} to declare them, {@link #tools()} for {@code AiServices.builder(…).tools(map)}, and
 * {@link #execute(ToolExecutionRequest)} / {@link #resultMessage(ToolExecutionRequest)} for a hand-written loop.
 *
 * <p>Executing a request is {@link ToolSurface#handle(String, String, String)}: its answer is the JSON text the
 * surface returns (the program's outcome, its {@code say} output and diagnostics; a tool error as
 * {@code {"error":{"code":"E-TOOL-…",…}}} — never an exception), and each submitted program's source identity is
 * {@code langchain4j:CALL-ID}. A program that needs a grant the session lacks comes back {@code suspended} with its
 * pending request: the application approves or denies it on the session ({@code session.approve(executionId, scope)} or {@code deny}), as
 * with any submission. Safe to use from several threads as far as the session is (one submission runs at a time).
 */
public final class LangChain4jTools {
    /** The source identity prefix of the programs submitted through these tools. */
    public static final String SOURCE_PREFIX = "langchain4j:";

    private final ToolSurface surface;
    private final Map<ToolSpecification, ToolExecutor> tools;

    private LangChain4jTools(ToolSurface surface) {
        this.surface = Objects.requireNonNull(surface, "surface");
        Map<ToolSpecification, ToolExecutor> m = new LinkedHashMap<>();
        for (ToolSpec spec : surface.tools()) m.put(JsonSchemas.specification(spec), (request, memoryId) -> execute(request));
        this.tools = Collections.unmodifiableMap(m);
    }

    /** The tools of {@code surface} (configured as the application wants: its output sink, unit-yield resumes, …). */
    public static LangChain4jTools of(ToolSurface surface) { return new LangChain4jTools(surface); }

    /** The tools of {@code session}'s default surface. */
    public static LangChain4jTools of(Session session) { return of(ToolSurface.of(session)); }

    /** The surface behind the tools. */
    public ToolSurface surface() { return surface; }

    /** The tools' declarations, in the surface's order. */
    public List<ToolSpecification> specifications() { return new ArrayList<>(tools.keySet()); }

    /** Each declaration with its executor, for {@code AiServices.builder(…).tools(map)}. */
    public Map<ToolSpecification, ToolExecutor> tools() { return tools; }

    /** Executes one tool call the model asked for: the JSON text the surface answers. */
    public String execute(ToolExecutionRequest request) {
        String args = request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
        String name = request.name() == null ? "" : request.name();
        return surface.handle(name, args, request.id() == null ? null : SOURCE_PREFIX + request.id());
    }

    /** Executes one tool call and wraps its answer as the message that goes back to the model. */
    public ToolExecutionResultMessage resultMessage(ToolExecutionRequest request) {
        return ToolExecutionResultMessage.from(request, execute(request));
    }
}
