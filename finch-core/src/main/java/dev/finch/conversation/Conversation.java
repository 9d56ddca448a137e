package dev.finch.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.agent.AgentProvider;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.tools.ToolSurface;
import dev.finch.vm.OutputSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A person's conversation with a model that answers in programs (contract: "ordinary human input starts an agent turn
 * and the provider may return a Lisp or Co-Forth program through the direct response-wire boundary or a
 * provider-native program tool"). It holds a {@link Session}, a provider ({@link AgentProvider}: one interface for
 * conversations and child agents), a system prompt built from discovery, and the transcript.
 *
 * <p>{@link #turn} runs one agent turn: the model is asked; a {@code submit_program} tool call (or a discovery tool) is
 * answered through the session's tool surface and its result goes back to the model; an answer in text is
 * <em>source</em> — it is submitted as a program (a Markdown fence is {@code E-SUBMIT-001}, prose its parser's
 * diagnostic, and either goes back to the model to try again). The turn ends when a text answer's program completes
 * (its {@code say} output is what the person reads) or the model answers with nothing, or when a budget ends it
 * (model calls, time). {@code say} streams to the sink as programs run; a unit {@code yield} is resumed at once; a
 * request the session's grants do not cover pauses the turn ({@link Step.AwaitingApproval}) until the host
 * {@link #approve}s or {@link #deny}s it. Each program's source identity is the provider's response id (when the
 * provider gives none: the tool call's id, or {@code response-N} for a text answer).
 *
 * <p>{@link #save} writes the transcript and the session's image together; {@link #restore} reads them back.
 * A conversation is used by one thread at a time.
 */
public final class Conversation {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String FORMAT = "finch-conversation/1";
    /** Unit yields resumed at once, per program, before the program's outcome is reported as it stands. */
    private static final int UNIT_YIELD_RESUMES = 10_000;

    private final Session session;
    private final AgentProvider provider;
    private final String model;
    private final String system;
    private final int maxTokens;
    private final int maxModelCalls;
    private final Duration timeout;
    private final OutputSink sink;
    private final ToolSurface surface;
    private final List<AgentProvider.Message> transcript = new ArrayList<>();
    private int responses;
    /** The provider's id of the response whose tool calls are being answered (empty when it gives none). */
    private String responseId = "";
    /** The tokens the current turn's model calls used, as the provider reported them. */
    private long turnTokens;
    /** The most tokens one turn's model calls may use (0: no bound). */
    private final long maxTurnTokens;
    /** The most one turn's model calls may cost in US dollars at {@link #pricePerMillion} (null: no bound), and what it cost so far. */
    private final java.math.BigDecimal maxTurnSpend;
    private final java.math.BigDecimal[] pricePerMillion;
    private java.math.BigDecimal turnSpend = java.math.BigDecimal.ZERO;
    /** The turn in progress while it waits for an approval; null otherwise. */
    private Paused paused;

    /** What a turn waiting for an approval still has to do. */
    private record Paused(String executionId, boolean text, List<AgentProvider.ToolCall> calls, int index,
                          List<AgentProvider.ToolResult> results, List<Outcome> outcomes, long deadline, int modelCalls) { }

    private Conversation(Builder b, List<AgentProvider.Message> transcript, int responses) {
        this.session = b.session;
        this.provider = b.provider;
        this.model = b.model;
        this.system = b.system != null ? b.system : SystemPrompt.of(b.session);
        this.maxTokens = b.maxTokens;
        this.maxModelCalls = b.maxModelCalls;
        this.maxTurnTokens = b.maxTurnTokens;
        this.maxTurnSpend = b.maxTurnSpend;
        this.pricePerMillion = b.pricePerMillion;
        this.timeout = b.timeout;
        this.sink = b.sink;
        this.surface = ToolSurface.of(session).withSink(sink).withUnitYieldResumes(UNIT_YIELD_RESUMES);
        this.transcript.addAll(transcript);
        this.responses = responses;
    }

    /** A conversation over {@code session}, asking {@code provider}. */
    public static Builder builder(Session session, AgentProvider provider) { return new Builder(session, provider); }

    /** How a conversation is made. */
    public static final class Builder {
        private final Session session;
        private final AgentProvider provider;
        private String model = "default";
        private String system;
        private int maxTokens = 4096;
        private int maxModelCalls = 16;
        private long maxTurnTokens;
        private java.math.BigDecimal maxTurnSpend;
        private java.math.BigDecimal[] pricePerMillion;
        private Duration timeout = Duration.ofMinutes(10);
        private OutputSink sink = OutputSink.NONE;

        private Builder(Session session, AgentProvider provider) {
            this.session = java.util.Objects.requireNonNull(session, "session");
            this.provider = java.util.Objects.requireNonNull(provider, "provider");
        }

        /** The model the provider is asked for (a provider serving one model may ignore it). */
        public Builder model(String model) { this.model = java.util.Objects.requireNonNull(model, "model"); return this; }

        /** The system prompt; by default one built from the session's discovery ({@link SystemPrompt#of}). */
        public Builder system(String system) { this.system = java.util.Objects.requireNonNull(system, "system"); return this; }

        /** The most output tokens of one model call (default 4096). */
        public Builder maxTokens(int tokens) { this.maxTokens = positive(tokens, "maxTokens"); return this; }

        /** The most model calls of one turn (default 16): past them the turn stops with {@code E-CONVERSATION-001}. */
        public Builder maxModelCalls(int calls) { this.maxModelCalls = positive(calls, "maxModelCalls"); return this; }

        /**
         * The most tokens one turn's model calls may use, input and output together as the provider reports them
         * ({@code E-CONVERSATION-007}); a provider that reports none (a script) is not bounded by it. Default: no bound.
         */
        public Builder maxTurnTokens(long tokens) {
            if (tokens <= 0) throw new IllegalArgumentException("maxTurnTokens must be positive");
            this.maxTurnTokens = tokens;
            return this;
        }

        /**
         * The most one turn's model calls may cost, in US dollars, at the prices the host states (per million input and
         * output tokens; the provider reports no prices): past it the turn stops with {@code E-CONVERSATION-008}. Tokens
         * a provider does not report cost nothing here.
         */
        public Builder maxTurnSpend(java.math.BigDecimal dollars, java.math.BigDecimal inputPerMillion, java.math.BigDecimal outputPerMillion) {
            for (java.math.BigDecimal d : new java.math.BigDecimal[] {dollars, inputPerMillion, outputPerMillion}) {
                if (d == null || d.signum() < 0) throw new IllegalArgumentException("a spend budget and its prices are dollars, 0 or more");
            }
            this.maxTurnSpend = dollars;
            this.pricePerMillion = new java.math.BigDecimal[] {inputPerMillion, outputPerMillion};
            return this;
        }

        /** The time one turn may take, model calls and programs together (default 10 minutes; {@code E-CONVERSATION-002}). */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("a turn's timeout must be positive");
            this.timeout = timeout;
            return this;
        }

        /** Where {@code say} output goes as the turn's programs run. */
        public Builder sink(OutputSink sink) { this.sink = sink == null ? OutputSink.NONE : sink; return this; }

        public Conversation build() { return new Conversation(this, List.of(), 0); }

        private static int positive(int n, String what) {
            if (n <= 0) throw new IllegalArgumentException(what + " must be positive");
            return n;
        }
    }

    /** The session the conversation's programs run in. */
    public Session session() { return session; }

    /** The system prompt the model is given. */
    public String system() { return system; }

    /** The transcript so far, oldest first: the person's inputs, the model's answers, the tools' results. */
    public List<AgentProvider.Message> transcript() { return List.copyOf(transcript); }

    /** Whether a turn waits for an approval. */
    public boolean awaitingApproval() { return paused != null; }

    /** Runs one agent turn for {@code humanInput}. Never throws for anything the model or its programs do. */
    public Step turn(String humanInput) {
        java.util.Objects.requireNonNull(humanInput, "humanInput");
        if (paused != null) {
            return new Step.Stopped(List.of(), ConversationCode.PAUSED.at(Origin.UNKNOWN, "the last turn still waits for an approval of execution "
                    + paused.executionId() + "; approve or deny it first"));
        }
        user(humanInput);
        turnTokens = 0;
        turnSpend = java.math.BigDecimal.ZERO;
        return drive(new ArrayList<>(), System.nanoTime() + timeout.toNanos(), 0);
    }

    /** Approves the request the turn waits for, with {@code scope}, and goes on with the turn. */
    public Step approve(Scope scope) {
        java.util.Objects.requireNonNull(scope, "scope");
        Paused p = paused;
        if (p == null) return notPaused("approve");
        paused = null;
        return afterProgram(p, settle(session.approve(p.executionId(), scope)));
    }

    /** Denies the request the turn waits for (its program fails with {@code E-HOST-001}) and goes on with the turn. */
    public Step deny(String reason) {
        Paused p = paused;
        if (p == null) return notPaused("deny");
        paused = null;
        return afterProgram(p, settle(session.deny(p.executionId(), reason == null ? "denied by the person" : reason)));
    }

    private Step notPaused(String what) {
        return new Step.Stopped(List.of(), ConversationCode.NOT_PAUSED.at(Origin.UNKNOWN, "nothing to " + what + ": the conversation does not wait for an approval"));
    }

    /** Asks the model until the turn ends, pauses or a budget stops it. */
    private Step drive(List<Outcome> outcomes, long deadline, int modelCalls) {
        while (true) {
            if (Thread.currentThread().isInterrupted()) return cancelled(outcomes);
            if (modelCalls >= maxModelCalls) {
                return new Step.Stopped(outcomes, ConversationCode.TURN_MODEL_CALLS.at(Origin.UNKNOWN, "the turn used all of its "
                        + maxModelCalls + " model calls without a final answer"));
            }
            if (System.nanoTime() - deadline > 0) return timedOut(outcomes);
            AgentProvider.Turn t;
            try {
                t = provider.next(new AgentProvider.Conversation(model, "conversation", system, transcript, surface.tools(), maxTokens)
                        .withDeadline(java.time.Instant.now().plusNanos(Math.max(0, deadline - System.nanoTime()))));
            } catch (AgentProvider.Failure f) {
                return new Step.Stopped(outcomes, ConversationCode.PROVIDER.at(Origin.UNKNOWN, "the provider could not answer: " + f.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return cancelled(outcomes);
            } catch (RuntimeException e) {
                dev.finch.vm.boundary.HostText.log("a conversation's provider failed", e);
                return new Step.Stopped(outcomes, ConversationCode.PROVIDER.at(Origin.UNKNOWN, "the provider failed (the host's log has the cause)"));
            }
            modelCalls++;
            responses++;
            turnTokens += t.usage().total();
            transcript.add(new AgentProvider.AssistantTurn(t));
            if (maxTurnSpend != null) {
                turnSpend = turnSpend.add(cost(t.usage()));
                if (turnSpend.compareTo(maxTurnSpend) > 0) {
                    return new Step.Stopped(outcomes, ConversationCode.TURN_SPEND.at(Origin.UNKNOWN, "the turn's model calls cost $"
                            + turnSpend.stripTrailingZeros().toPlainString() + " at the prices the host stated, past its budget of $"
                            + maxTurnSpend.stripTrailingZeros().toPlainString()));
                }
            }
            if (maxTurnTokens > 0 && turnTokens > maxTurnTokens) {
                return new Step.Stopped(outcomes, ConversationCode.TURN_TOKENS.at(Origin.UNKNOWN, "the turn's model calls used "
                        + turnTokens + " tokens, past its budget of " + maxTurnTokens + " (as the provider reported them)"));
            }
            responseId = t.responseId();
            if (!t.calls().isEmpty()) return calls(new Paused(null, false, t.calls(), 0, new ArrayList<>(), outcomes, deadline, modelCalls));
            String text = t.text().strip();
            if (text.isEmpty()) return new Step.Answered(outcomes, Optional.empty());
            // The response-wire boundary: a text answer is source, its identity the provider's response id.
            Outcome o = settle(session.submit(Submission.of(text, t.responseId().isEmpty() ? "response-" + responses : t.responseId()).withSink(sink)));
            Step s = afterProgram(new Paused(null, true, List.of(), 0, List.of(), outcomes, deadline, modelCalls), o);
            if (s != null) return s;
        }
    }

    /** Answers the turn's tool calls from {@code p.index()} on; then asks the model again. */
    private Step calls(Paused p) {
        List<AgentProvider.ToolResult> results = new ArrayList<>(p.results());
        for (int i = p.index(); i < p.calls().size(); i++) {
            AgentProvider.ToolCall call = p.calls().get(i);
            Optional<Submission> program = program(call, responseId);
            if (program.isEmpty()) {
                results.add(new AgentProvider.ToolResult(call.id(), surface.handle(call.name(), call.argumentsJson(), call.id())));
                continue;
            }
            Outcome o = settle(session.submit(program.get().withSink(sink)));
            p.outcomes().add(o);
            if (Thread.currentThread().isInterrupted()) return cancelled(p.outcomes());
            if (waitsForApproval(o)) {
                paused = new Paused(o.executionId(), false, p.calls(), i, results, p.outcomes(), p.deadline(), p.modelCalls());
                return new Step.AwaitingApproval(p.outcomes(), (Outcome.Suspended) o);
            }
            results.add(new AgentProvider.ToolResult(call.id(), FinchJson.write(o)));
        }
        transcript.add(new AgentProvider.ToolResults(results));
        return drive(p.outcomes(), p.deadline(), p.modelCalls());
    }

    /**
     * What follows a program's outcome {@code o} in {@code p}: for a tool call, its result and the rest of the calls; for
     * a text answer, the end of the turn (it completed) or its outcome back to the model (null: ask again).
     */
    private Step afterProgram(Paused p, Outcome o) {
        boolean resumed = p.executionId() != null;
        if (!p.text()) {
            if (resumed) p.outcomes().add(o);
            if (waitsForApproval(o)) {
                paused = new Paused(o.executionId(), false, p.calls(), p.index(), p.results(), p.outcomes(), p.deadline(), p.modelCalls());
                return new Step.AwaitingApproval(p.outcomes(), (Outcome.Suspended) o);
            }
            List<AgentProvider.ToolResult> results = new ArrayList<>(p.results());
            results.add(new AgentProvider.ToolResult(p.calls().get(p.index()).id(), FinchJson.write(o)));
            return calls(new Paused(null, false, p.calls(), p.index() + 1, results, p.outcomes(), p.deadline(), p.modelCalls()));
        }
        p.outcomes().add(o);
        if (waitsForApproval(o)) {
            paused = new Paused(o.executionId(), true, List.of(), 0, List.of(), p.outcomes(), p.deadline(), p.modelCalls());
            return new Step.AwaitingApproval(p.outcomes(), (Outcome.Suspended) o);
        }
        if (o.status() == Outcome.Status.COMPLETED) {
            user("[the program of your answer completed] " + FinchJson.write(o));
            return new Step.Answered(p.outcomes(), Optional.of(o));
        }
        user("Your answer was run as a program (an answer in text is source) and did not complete; answer with a program, "
                + "or with nothing to end the turn:\n" + FinchJson.write(o));
        if (resumed) return drive(p.outcomes(), p.deadline(), p.modelCalls());
        return null;
    }

    /** The arguments {@code submit_program} takes (what the tool surface's schema declares). */
    private static final java.util.Set<String> PROGRAM_ARGUMENTS = java.util.Set.of("source", "language", "expected_vm_revision",
            "expected_manifest_generation");

    /**
     * A tool call that submits a program: {@code submit_program} with well-formed arguments. Anything else — another
     * tool, arguments the schema refuses — is the tool surface's to answer (it names what is wrong, and runs nothing).
     */
    private static Optional<Submission> program(AgentProvider.ToolCall call, String responseId) {
        if (!call.name().equals("submit_program")) return Optional.empty();
        try {
            JsonNode args = JSON.readTree(call.argumentsJson());
            if (args == null || !args.isObject() || !args.path("source").isTextual() || args.get("source").asText().isEmpty()) return Optional.empty();
            for (var it = args.fieldNames(); it.hasNext(); ) if (!PROGRAM_ARGUMENTS.contains(it.next())) return Optional.empty();
            JsonNode lang = args.get("language");
            if (lang != null && !lang.isTextual()) return Optional.empty();
            Optional<Language> language = lang == null ? Optional.empty() : Language.named(lang.asText());
            if (lang != null && language.isEmpty()) return Optional.empty();
            JsonNode revision = args.get("expected_vm_revision");
            JsonNode generation = args.get("expected_manifest_generation");
            if ((revision != null && !revision.canConvertToLong()) || (generation != null && !generation.canConvertToLong())) return Optional.empty();
            // The source identity is the provider's response id; a provider that gives none: the call's id.
            Submission s = Submission.of(args.get("source").asText(), responseId == null || responseId.isEmpty() ? call.id() : responseId);
            s = language.map(s::withLanguage).orElse(s);
            if (revision != null || generation != null) {
                s = new Submission(s.text(), s.language(), s.sourceId(),
                        revision == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(revision.asLong()),
                        generation == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(generation.asLong()), s.sink());
            }
            return Optional.of(s);
        } catch (java.io.IOException e) {
            return Optional.empty();   // the surface answers malformed arguments with its own error
        }
    }

    private static boolean waitsForApproval(Outcome o) {
        return o instanceof Outcome.Suspended s && s.pendingRequest().map(r -> r.awaiting() == Outcome.Awaiting.APPROVAL).orElse(false);
    }

    /** {@code o} after waiting out its CPU tasks and resuming its unit yields; a program waiting for anything else but an approval is cancelled. */
    private Outcome settle(Outcome o) {
        for (int i = 0; i < UNIT_YIELD_RESUMES; i++) {
            o = session.awaitTasks(o);
            if (o instanceof Outcome.Suspended s && s.isUnitYield()) o = session.resume(o.executionId());
            else break;
        }
        if (o instanceof Outcome.Suspended && !waitsForApproval(o)) session.cancel(o.executionId());
        return o;
    }

    /** What {@code usage} costs at the host's prices (an unreported count costs nothing). */
    private java.math.BigDecimal cost(AgentProvider.Usage usage) {
        java.math.BigDecimal million = java.math.BigDecimal.valueOf(1_000_000);
        return pricePerMillion[0].multiply(java.math.BigDecimal.valueOf(Math.max(0, usage.inputTokens())))
                .add(pricePerMillion[1].multiply(java.math.BigDecimal.valueOf(Math.max(0, usage.outputTokens()))))
                .divide(million, 12, java.math.RoundingMode.HALF_UP);
    }

    /** The host interrupted the turn's thread: the turn ends here (a program running then was cancelled by the host). */
    private static Step cancelled(List<Outcome> outcomes) {
        return new Step.Stopped(outcomes, ConversationCode.CANCELLED.at(Origin.UNKNOWN, "the turn was cancelled"));
    }

    private Step timedOut(List<Outcome> outcomes) {
        return new Step.Stopped(outcomes, ConversationCode.TURN_TIMEOUT.at(Origin.UNKNOWN, "the turn ran past its " + timeout.toSeconds() + " s"));
    }

    /** Adds the person's (or Finch's) text: after another user message it is joined to it (roles alternate on the wire). */
    private void user(String text) {
        int last = transcript.size() - 1;
        if (last >= 0 && transcript.get(last) instanceof AgentProvider.UserText u) transcript.set(last, new AgentProvider.UserText(u.text() + "\n\n" + text));
        else transcript.add(new AgentProvider.UserText(text));
    }

    // -------------------------------------------------------------------------------------------- save and restore

    /**
     * The conversation as JSON text: the transcript, the model and system prompt, and the session's image (with the
     * suspended execution a paused turn waits on). {@link #restore} reads it in any process with the same image key.
     */
    public String save() {
        ObjectNode o = JSON.createObjectNode().put("format", FORMAT).put("model", model).put("system", system).put("responses", responses);
        ArrayNode t = o.putArray("transcript");
        for (AgentProvider.Message m : transcript) t.add(TranscriptJson.write(m));
        if (paused != null) {
            ObjectNode p = o.putObject("paused").put("execution_id", paused.executionId()).put("text", paused.text()).put("index", paused.index())
                    .put("model_calls", paused.modelCalls());
            ArrayNode calls = p.putArray("calls");
            for (AgentProvider.ToolCall c : paused.calls()) calls.add(TranscriptJson.call(c));
            ArrayNode results = p.putArray("results");
            for (AgentProvider.ToolResult r : paused.results()) results.add(TranscriptJson.result(r));
            o.put("session_image", session.save(paused.executionId()));
        } else {
            o.put("session_image", session.save());
        }
        return o.toString();
    }

    /**
     * The conversation {@code saved} holds, its session restored with {@code options} (roots, grants: an image carries
     * no authority), asking {@code provider}. A turn that was paused still waits for its approval.
     *
     * @throws ConversationException when {@code saved} is not a saved conversation ({@code E-CONVERSATION-006}); a
     *                               session image the Finch refuses throws as {@link dev.finch.Finch#restore} does
     */
    public static Conversation restore(dev.finch.Finch finch, String saved, dev.finch.SessionOptions options, AgentProvider provider,
                                       OutputSink sink) {
        JsonNode o;
        try {
            o = JSON.readTree(saved);
        } catch (java.io.IOException | RuntimeException e) {
            throw new ConversationException("the saved conversation is not JSON");
        }
        if (o == null || !FORMAT.equals(o.path("format").asText()) || !o.path("transcript").isArray() || !o.path("session_image").isTextual()) {
            throw new ConversationException("the text is not a saved conversation of format " + FORMAT);
        }
        Session session = finch.restore(o.get("session_image").asText(), options);
        Builder b = builder(session, provider).model(o.path("model").asText("default")).system(o.path("system").asText("")).sink(sink);
        List<AgentProvider.Message> transcript = new ArrayList<>();
        for (JsonNode m : o.get("transcript")) transcript.add(TranscriptJson.read(m));
        Conversation c = new Conversation(b, transcript, o.path("responses").asInt(0));
        JsonNode p = o.get("paused");
        if (p != null && p.isObject()) {
            List<AgentProvider.ToolCall> calls = new ArrayList<>();
            for (JsonNode x : p.path("calls")) calls.add(TranscriptJson.readCall(x));
            List<AgentProvider.ToolResult> results = new ArrayList<>();
            for (JsonNode x : p.path("results")) results.add(TranscriptJson.readResult(x));
            c.paused = new Paused(p.path("execution_id").asText(), p.path("text").asBoolean(), calls, p.path("index").asInt(), results,
                    new ArrayList<>(), System.nanoTime() + c.timeout.toNanos(), p.path("model_calls").asInt());
        }
        return c;
    }

    /**
     * Saves this conversation ({@link #save}) in {@code store} under {@code id} (its images, key {@code conversation:ID}):
     * every process on the store can {@link #restoreFrom} it. A new version each time.
     */
    public void saveTo(dev.finch.store.FinchStore store, String id) {
        java.util.Objects.requireNonNull(store, "store");
        store.images().put(storeKey(id), save());
    }

    /**
     * The conversation saved in {@code store} under {@code id} ({@link #saveTo}), restored as {@link #restore} does; empty
     * when the store holds none under that id.
     */
    public static Optional<Conversation> restoreFrom(dev.finch.Finch finch, dev.finch.store.FinchStore store, String id,
                                                     dev.finch.SessionOptions options, AgentProvider provider, OutputSink sink) {
        java.util.Objects.requireNonNull(store, "store");
        return store.images().get(storeKey(id)).map(s -> restore(finch, s.image(), options, provider, sink));
    }

    private static String storeKey(String id) { return "conversation:" + java.util.Objects.requireNonNull(id, "id"); }

    /** A saved conversation that cannot be read. */
    public static final class ConversationException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Diagnostic diagnostic;

        ConversationException(String message) {
            super(message, null, false, false);
            this.diagnostic = ConversationCode.BAD_SAVE.at(Origin.UNKNOWN, message);
        }

        /** The diagnostic ({@code E-CONVERSATION-006}). */
        public Diagnostic diagnostic() { return diagnostic; }
    }
}
