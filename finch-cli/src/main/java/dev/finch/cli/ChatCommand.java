package dev.finch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ApprovalText;
import dev.finch.DiscoveryJson;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.agent.AgentProfile;
import dev.finch.capabilities.Scope;
import dev.finch.conversation.Conversation;
import dev.finch.conversation.Step;
import dev.finch.store.FinchStore;
import dev.finch.vm.OutputSink;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code finch chat}: a terminal conversation with a model that answers in programs ({@link Conversation}). Each line a
 * person types starts one agent turn; the programs' {@code say} output streams as they run; a program that needs a
 * capability it was not granted asks ({@code [o]nce/[s]ession/[p]roject/[a]lways/[n]o}, showing what it asks to do);
 * {@code :state} shows the session, {@code :quit} (or the end of input) ends it. {@code --json} prints one JSON object
 * per event instead. {@code --provider script:FILE} answers from a scripted transcript, offline.
 */
@Command(name = "chat", mixinStandardHelpOptions = true, description = "Talk with a model that answers in programs run in one session.")
final class ChatCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Io io;

    @Option(names = "--json", description = "Print one JSON object per event (say, approval, outcome, answered, stopped) per line.")
    boolean json;

    @Option(names = "--grant", paramLabel = "SPEC", description = "Grant a capability up front, e.g. fs.read($${workspace}/**); repeatable.")
    List<String> grants = new ArrayList<>();

    @Option(names = "--max-model-calls", paramLabel = "N", description = "The most model calls of one turn (default 16).")
    int maxModelCalls = 16;

    @Option(names = "--max-turn-tokens", paramLabel = "N", description = "The most tokens one turn's model calls may use (as the provider reports them).")
    long maxTurnTokens;

    @Mixin
    RootOptions roots = new RootOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Mixin
    ProviderOptions providers = new ProviderOptions();

    ChatCommand(Io io) { this.io = io; }

    @Override public Integer call() throws IOException {
        try {
            return chat();
        } catch (UsageException e) {
            return Main.usage(io, "chat", e.getMessage());
        }
    }

    private int chat() throws UsageException, IOException {
        SessionOptions options = roots.install(SessionOptions.DEFAULT);
        for (String g : grants) options = options.withGrant(g);
        if (providers.provider == null) throw new UsageException("chat needs --provider anthropic|openai (with --model) or --provider script:FILE");
        AgentProfile profile = providers.agents(io.env()).flatMap(a -> a.profiles().values().stream().findFirst())
                .orElseThrow(() -> new UsageException("chat needs --provider anthropic|openai (with --model) or --provider script:FILE"));
        Optional<FinchStore> store = state.open(io.env());
        Finch finch;
        Session session;
        try {
            finch = StateOptions.configure(Finch.builder(), store, roots).build();
            session = finch.newSession(options);
        } catch (IllegalArgumentException e) {
            store.ifPresent(FinchStore::close);
            throw new UsageException(e.getMessage());
        }
        try (java.io.Closeable stored = () -> store.ifPresent(FinchStore::close); Finch owned = finch) {
            Conversation.Builder builder = Conversation.builder(session, profile.provider()).model(profile.model()).maxModelCalls(maxModelCalls);
            if (maxTurnTokens > 0) builder.maxTurnTokens(maxTurnTokens);
            spend(builder);
            Conversation c = builder
                    .sink(json ? new EventSink() : chunk -> { io.out().print(chunk); io.out().flush(); }).build();
            BufferedReader in = new BufferedReader(new InputStreamReader(io.in(), StandardCharsets.UTF_8));
            interruptible(session);
            boolean failed = false;
            for (String line; (line = prompt(in, "you> ")) != null; ) {
                String text = line.strip();
                if (text.isEmpty()) continue;
                if (text.equals(":quit")) break;
                if (text.equals(":state")) {
                    io.out().println(DiscoveryJson.write(DiscoveryJson.tree(session.getVmState())));
                    continue;
                }
                turn = Thread.currentThread();
                Step step;
                try {
                    step = c.turn(text);
                    while (step instanceof Step.AwaitingApproval a) step = ask(in, c, a);
                } finally {
                    turn = null;
                    Thread.interrupted();   // a Ctrl-C that ended this turn does not reach the next
                }
                failed |= report(step);
            }
            io.out().flush();
            return failed ? Main.EXIT_FAILED : 0;
        }
    }

    /** The thread running a turn right now, if one runs (what Ctrl-C interrupts). */
    private volatile Thread turn;

    /**
     * Ctrl-C (SIGINT) during a turn cancels it — the running program (nothing of it is committed) and the model
     * call in progress — and the chat goes on; between turns it ends the chat, as usual.
     */
    private void interruptible(Session session) {
        if (io.in() != System.in) return;   // the command line itself (a test's in-process Io has no signals)
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> {
                Thread t = turn;
                if (t == null) {
                    System.exit(130);
                    return;
                }
                session.runningExecution().ifPresent(session::cancel);
                t.interrupt();
            });
        } catch (IllegalArgumentException | UnsupportedOperationException noSignals) {
            // No INT signal here: Ctrl-C ends the process, as it would without this handler.
        }
    }

    /** With a --budget and a --model's prices, each turn's model calls may spend at most the budget at those prices. */
    private void spend(Conversation.Builder builder) throws UsageException {
        if (providers.budget == null || providers.models.isEmpty()) return;
        String m = providers.models.get(0);
        String[] terms = m.indexOf('=') < 0 ? new String[0] : m.substring(m.indexOf('=') + 1).split(",", -1);
        try {
            if (terms.length != 3) throw new NumberFormatException();
            builder.maxTurnSpend(new java.math.BigDecimal(providers.budget.strip()), new java.math.BigDecimal(terms[0].strip()),
                    new java.math.BigDecimal(terms[1].strip()));
        } catch (NumberFormatException e) {
            throw new UsageException("--budget and --model ID=IN,OUT,MAX are decimal US dollars (a turn's budget at the model's prices)");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Shows what the paused program asks to do and takes the person's answer (the end of input denies). */
    private Step ask(BufferedReader in, Conversation c, Step.AwaitingApproval a) throws IOException {
        var request = a.pending().pendingRequest().orElseThrow().request();
        String capability = a.pending().requiredCapabilities().isEmpty() ? request.requirement().toString() : a.pending().requiredCapabilities().get(0);
        if (json) event("approval", n -> n.put("execution_id", a.pending().executionId()).put("requirement", capability)
                .put("asks", ApprovalText.describe(request)));
        else io.out().println("\nthe program asks: " + ApprovalText.describe(request));
        while (true) {
            String answer = prompt(in, "allow " + capability + "? [o]nce/[s]ession/[p]roject/[a]lways/[n]o ");
            if (answer == null) return c.deny("no answer: the input ended");
            switch (answer.strip().toLowerCase(Locale.ROOT)) {
                case "o", "once" -> { return c.approve(Scope.ONCE); }
                case "s", "session" -> { return c.approve(Scope.SESSION); }
                case "p", "project" -> { return c.approve(Scope.PROJECT); }
                case "a", "always" -> { return c.approve(Scope.GLOBAL); }
                case "n", "no" -> { return c.deny("denied by the person"); }
                default -> { if (!json) io.out().println("answer o (once), s (this session), p (this project), a (always) or n (no)"); }
            }
        }
    }

    /** Reports how the turn ended; true when it stopped rather than answered. */
    private boolean report(Step step) {
        for (Outcome o : step.outcomes()) if (json) event("outcome", n -> n.set("outcome", parse(FinchJson.write(o))));
        if (step instanceof Step.Stopped s) {
            if (json) event("stopped", n -> n.put("code", s.why().code()).put("message", s.why().message()));
            else io.out().println("\nfinch: the turn stopped: " + s.why().code() + " " + s.why().message());
            return true;
        }
        if (json) event("answered", n -> { });
        else io.out().println();
        io.out().flush();
        return false;
    }

    private String prompt(BufferedReader in, String text) throws IOException {
        if (!json) {
            io.out().print(text);
            io.out().flush();
        }
        return in.readLine();
    }

    private void event(String kind, java.util.function.Consumer<ObjectNode> fill) {
        ObjectNode n = JSON.createObjectNode().put("event", kind);
        fill.accept(n);
        io.out().println(n);
        io.out().flush();
    }

    private static com.fasterxml.jackson.databind.JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

    /** {@code say} chunks as events. */
    private final class EventSink implements OutputSink {
        @Override public void say(String chunk) { ChatCommand.this.event("say", n -> n.put("text", chunk)); }
    }
}
