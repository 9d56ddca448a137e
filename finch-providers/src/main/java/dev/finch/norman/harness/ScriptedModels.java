package dev.finch.norman.harness;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Askable;
import dev.finch.norman.Ast;
import dev.finch.norman.NormanCode;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SiteKey;
import dev.finch.norman.Sx;
import dev.finch.vm.engine.VmCode;
import dev.finch.host.ModelHost;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.runtime.Strands;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.VariantValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One world of µNorman runs (language reference, "Scripts and tests"): the model host of every ask — and, under a
 * script, the tool host of every call — with a pool of money, an absolute deadline, a clock and a provider (a script,
 * rewound for each world, or a real model). Each ask and call carries its {@link SiteKey}, so one world serves any
 * program. <b>Prices</b>: in a host's world ({@link ModelWorld}) every ask is priced by the host's terms for the model
 * its grant names ({@link HostModel}: the grant's {@code [id …]}, else the grant's name) — a model the host does not
 * serve, or a grant stating a price below the host's, is refused before anything is sent (E-NORMAN-401, 402), and a
 * grant's {@code [ceiling n]} only narrows the host's; in a script's world (the harness) there is no host price list,
 * and the grant's stated terms are the prices. An ask reserves its worst case before the call — the context's
 * input tokens plus the largest answer the type's bounds allow (unbounded text: the ceiling) and the grant's
 * {@code [think n]} thinking tokens, at most the ceiling, at those prices —
 * against what is spent and what asks in flight have reserved; if that does not fit, or does not fit in a long of
 * micro-dollars at all, the provider is never called and nothing is charged ({@code OverBudget}): the arithmetic is
 * exact and never wraps. Otherwise the provider answers — a script at once, the asking step then sleeping on the
 * simulated clock for the latency; a real provider off the run's baton, on the wall clock — the input and output
 * tokens are charged and the reply is validated ({@code Invalid} with the raw reply); a provider error is
 * {@code ToolError}. <b>Time is a cutoff</b>: an ask or call still running at the deadline is abandoned there
 * ({@code PastDeadline}; a script's clock stops at the deadline, a real request is cancelled) and an abandoned ask is
 * charged its input tokens (what it sent), nothing after the deadline. Tokens are counted as a quarter of the
 * UTF-8 bytes, rounded up, plus 4 per message. Budget scopes are kept per concurrent step (see {@code Strands}).
 * The harness makes the worlds of scripts; {@link ModelWorld} makes those of a real provider for an embedder.
 */
public final class ScriptedModels implements ModelHost, dev.finch.host.ToolHost {
    private final ModelProvider provider;
    /** The models a host's world serves, by name; null in a script's world, where the grants' terms are the prices. */
    private final Map<String, Served> served;
    private final long costLimit;
    private final long deadline;
    /** A script's world keeps a simulated clock; a real provider's world reads the wall clock (see {@link ModelProvider#simulated()}). */
    private final boolean simulated;
    private final long wallStart = System.nanoTime();
    private long spent;
    /** What the asks in flight have reserved and not yet settled. */
    private long reserved;
    /** Why the last ask that did not fit was OverBudget (what it reserved and what was left), or null. */
    private String overBudget;
    private long clock;
    /** The simulated clock as the run's scheduler sees it: steps sleep on it, and it jumps to the earliest wake-up. */
    private final Strands.SimClock simClock = millis -> clock = Math.max(clock, millis);

    /**
     * A world with {@code costLimit} micro-dollars and {@code timeLimit} ms (negative: unlimited) over
     * {@code provider}: the harness's worlds, made per test from the file's limits. Each ask and call carries what the
     * world needs to know about it (its {@link SiteKey}), so one world serves any µNorman program. Outside the harness,
     * worlds are made with {@link ModelWorld}, which states its budget as money and its time limit as a duration.
     */
    public ScriptedModels(ModelProvider provider, long costLimit, long timeLimit) { this(provider, null, costLimit, timeLimit); }

    /** A host's world ({@link ModelWorld#get}): {@code served} names every model it serves, with its terms and provider. */
    ScriptedModels(ModelProvider provider, Map<String, Served> served, long costLimit, long timeLimit) {
        this.provider = provider;
        this.served = served == null ? null : Map.copyOf(served);
        this.costLimit = costLimit;
        this.deadline = timeLimit;
        this.simulated = provider.simulated();
    }

    /** One model a host's world serves: the host's terms for it and the provider that answers its asks. */
    record Served(HostModel terms, ModelProvider provider) { }

    /** The world's time in ms: simulated under a script, else the wall clock since the world was made. */
    private long now() { return simulated ? clock : (System.nanoTime() - wallStart) / 1_000_000; }

    /**
     * The budget scopes open around a step, innermost first: absolute caps in micro-dollars and ms (-1 for none).
     * Each step has its own chain (a step inherits its spawner's), kept as the step's strand-local value, so
     * concurrent steps open and close scopes without seeing each other's; the pool and the clock are shared.
     */
    private record Scopes(long cost, long deadline, Scopes outer) { }

    /** The chain of a run that is not inside any VM step (a direct call from Java). */
    private Scopes unbound;

    private Scopes scopes() {
        Strands.Strand s = Strands.current();
        return s == null ? unbound : s.local() instanceof Scopes c ? c : null;
    }

    private void scopes(Scopes c) {
        Strands.Strand s = Strands.current();
        if (s == null) unbound = c; else s.local(c);
    }

    private long costCap() {
        long cap = costLimit;
        for (Scopes s = scopes(); s != null; s = s.outer) if (s.cost >= 0) cap = cap < 0 ? s.cost : Math.min(cap, s.cost);
        return cap;
    }

    private long deadline() {
        long d = deadline;
        for (Scopes s = scopes(); s != null; s = s.outer) if (s.deadline >= 0) d = d < 0 ? s.deadline : Math.min(d, s.deadline);
        return d;
    }

    /**
     * A step's (or the run's) budget scopes, saved with a paused run as what is left of each — micro-dollars and
     * milliseconds, innermost first, -1 for unlimited — because the world that restores the run starts a fresh pool and
     * clock: each scope is rebased on it ({@link #restoreLocal}).
     */
    @Override public com.fasterxml.jackson.databind.JsonNode saveLocal(Object local) throws dev.finch.vm.boundary.HostFailure {
        if (local == null) return null;
        if (!(local instanceof Scopes c)) throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.NO_BINDING, "not a budget scope of this world");
        com.fasterxml.jackson.databind.node.ArrayNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (Scopes x = c; x != null; x = x.outer) {
            out.addObject().put("cost_left", x.cost < 0 ? -1 : Math.max(0, x.cost - spent)).put("time_left", x.deadline < 0 ? -1 : Math.max(0, x.deadline - now()));
        }
        return out;
    }

    /** The scopes {@link #saveLocal} saved, rebased on this world's pool and clock. */
    @Override public Object restoreLocal(com.fasterxml.jackson.databind.JsonNode saved) throws dev.finch.vm.boundary.HostFailure {
        if (saved == null || !saved.isArray() || saved.size() > 10_000) {
            throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.BAD_RESULT, "a saved budget scope is not a list of what was left");
        }
        Scopes c = null;
        for (int i = saved.size() - 1; i >= 0; i--) {
            com.fasterxml.jackson.databind.JsonNode e = saved.get(i);
            if (!e.path("cost_left").canConvertToLong() || !e.path("time_left").canConvertToLong()) {
                throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.BAD_RESULT, "a saved budget scope is malformed");
            }
            long cost = e.get("cost_left").asLong(), time = e.get("time_left").asLong();
            try {
                c = new Scopes(cost < 0 ? -1 : Math.addExact(spent, cost), time < 0 ? -1 : Math.addExact(now(), time), c);
            } catch (ArithmeticException tooLarge) {
                throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.BAD_RESULT, "a saved budget scope is out of range");
            }
        }
        return c;
    }

    @Override public void budgetOpen(dev.finch.vm.value.Money cost, dev.finch.vm.value.Duration time) {
        // Saturating: a scope of more money or time than a long counts is as good as unlimited, never a wrapped cap
        // (which would read as none); a negative amount is nothing more.
        scopes(new Scopes(cost.unlimited() ? -1 : plus(spent, cost.micros()), time.unlimited() ? -1 : plus(now(), time.millis()), scopes()));
    }

    /** {@code base + Math.max(0, more)}, saturating at {@code Long.MAX_VALUE}. */
    private static long plus(long base, long more) {
        long m = Math.max(0, more);
        return base > Long.MAX_VALUE - m ? Long.MAX_VALUE : base + m;
    }

    @Override public void budgetClose() {
        Scopes c = scopes();
        if (c != null) scopes(c.outer);
    }

    @Override public Object remaining() {
        long cap = costCap(), d = deadline();
        return new RecordValue(new Object[] {
            cap < 0 ? dev.finch.vm.value.Money.UNLIMITED : dev.finch.vm.value.Money.ofMicros(Math.max(0, cap - spent)),
            d < 0 ? dev.finch.vm.value.Duration.UNLIMITED : dev.finch.vm.value.Duration.ofMillis(Math.max(0, d - now()))});
    }

    // ---- the trace ----------------------------------------------------------------------------------------------

    /**
     * One ask or call of the world, in the order they ended: {@code kind} is {@code ask} or {@code call},
     * {@code site} the ask's site or the call's {@code cap/op}, {@code inputs} the request (each message as
     * {@code Role: content}, or the call's arguments), {@code reply} what came back ({@code reply …},
     * {@code provider-error …}, {@code refused 'category}, or the failure the world answered without a provider: {@code OverBudget},
     * {@code PastDeadline}), {@code cost} in micro-dollars, {@code start} and {@code end} on the world's clock in ms.
     */
    public record TraceEntry(String kind, String site, List<String> inputs, String reply, long cost, long start, long end, String reservation) {
        public TraceEntry { inputs = List.copyOf(inputs); }

        /** An entry with nothing reserved (a call, or an ask that ended before its reservation). */
        public TraceEntry(String kind, String site, List<String> inputs, String reply, long cost, long start, long end) {
            this(kind, site, inputs, reply, cost, start, end, "");
        }

        @Override public String toString() {
            return kind + " " + site + " " + inputs + " -> " + reply + " " + dev.finch.vm.value.Money.ofMicros(cost) + " ["
                    + dev.finch.vm.value.Duration.ofMillis(start) + ", " + dev.finch.vm.value.Duration.ofMillis(end) + "]";
        }
    }

    private final List<TraceEntry> trace = new ArrayList<>();

    /** Every ask and call of this world so far, in the order they ended (ties: the order the steps were started). */
    public List<TraceEntry> trace() { return List.copyOf(trace); }

    /** The memory of this world: empty when it is made; the harness runs a test's memory calls against it. */
    private final WorldMemory memory = new WorldMemory();

    /** The memory trees of this world, which the test harness gives its runs ({@link WorldMemory}). */
    public WorldMemory memory() { return memory; }

    /**
     * The world's host state: how far the script has been consumed at each site, how many kernels were forked, and
     * what its memory holds.
     */
    public String hostState() {
        return "script " + (provider instanceof Script s ? new java.util.TreeMap<>(s.next) : Map.of()) + ", forks " + forks + ", memory " + memory;
    }

    /** Why each Invalid answer of this world did not validate (path, expected, found), by the answer's raw text. */
    private final Map<String, String> invalid = new HashMap<>();

    private String invalid(String raw, String why) {
        invalid.put(raw, why);
        return why;
    }

    /** Why the last ask of this world that was OverBudget was: what it reserved, computed from what, and what was left. */
    public Optional<String> whyOverBudget() { return Optional.ofNullable(overBudget); }

    /** Why the answer {@code raw} of an ask or call of this world was Invalid, if one was: a JSON path, what was expected there and what was found. */
    public Optional<String> whyInvalid(String raw) { return Optional.ofNullable(invalid.get(raw)); }

    /** Micro-dollars charged so far. */
    public long spent() { return spent; }

    /** Milliseconds elapsed so far on the world's clock. */
    public long elapsed() { return now(); }

    /** What one ask or call came to: its result, what the trace shows came back, and what it cost. */
    private record Settled(Object result, String shown, long cost, String reservation) {
        Settled(Object result, String shown, long cost) { this(result, shown, cost, ""); }

        static Settled failed(String tag) { return new Settled(failure(tag, null), tag, 0); }
    }

    /**
     * What an ask reserved and what it was computed from, as the trace and a test's message say it:
     * {@code reserved $0.000848 = 10 input tokens at 2 + 103 output tokens at 8 micro-dollars; the answer: (Text 400) is
     * at most 402 bytes of JSON, 101 tokens, plus [think 2]}.
     */
    private static String reservation(long reserve, long in, long worstOut, HostModel terms, Askable type, long thinkTokens, long ceiling) {
        StringBuilder b = new StringBuilder("reserved ").append(dev.finch.vm.value.Money.ofMicros(reserve)).append(" = ")
                .append(in).append(" input tokens at ").append(SiteKey.Model.perToken(terms.inPerMillion().micros()))
                .append(" + ").append(worstOut).append(" output tokens at ").append(SiteKey.Model.perToken(terms.outPerMillion().micros()))
                .append(" micro-dollars; the answer: ");
        Optional<Long> bytes = maxBytes(type);
        if (bytes.isPresent()) b.append(type).append(" is at most ").append(bytes.get()).append(" bytes of JSON, ").append(tokens(bytes.get())).append(" tokens");
        else b.append(type).append(" has no largest answer, so the ceiling");
        if (thinkTokens > 0) b.append(", plus [think ").append(thinkTokens).append(']');
        if (bytes.isPresent() && worstOut == ceiling && saturatedAdd(tokens(bytes.get()), thinkTokens) > ceiling) b.append(", capped at the ceiling ").append(ceiling);
        return b.toString();
    }

    /**
     * The provider's response to {@code request}, after its latency: under a script the provider answers with the
     * baton and the step sleeps on the simulated clock; a real provider is called off the baton, so concurrent
     * steps' requests overlap in real time. An exhausted script is the ask's checked run-time error.
     */
    /**
     * The provider's answer, or null when it is abandoned at the deadline (the budget's time is a cutoff): under a
     * script the clock stops at the deadline instead of running on to the reply's latency; a real request still
     * running at the deadline is cancelled there (its thread interrupted) and its answer, if it comes, is ignored.
     */
    private ModelProvider.Response respond(ModelProvider provider, ModelProvider.Request request, long start, Origin origin) {
        long deadline = deadline();
        try {
            if (!simulated) {
                return deadline < 0 ? Strands.offBaton(() -> complete(provider, request)) : Strands.offBaton(() -> completeBy(provider, request, deadline));
            }
            ModelProvider.Response r = provider.complete(request);
            long end = plus(start, r.latencyMillis());
            if (deadline >= 0 && end > deadline) {
                Strands.sleepUntil(simClock, deadline);
                return null;
            }
            Strands.sleepUntil(simClock, end);
            return r;
        } catch (Exhausted e) {
            throw new FinchTrap(dev.finch.norman.NormanCode.NO_SCRIPTED_ANSWER, origin, e.getMessage());
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger TIMED_THREADS = new java.util.concurrent.atomic.AtomicInteger();
    /** The threads that send a real request with a deadline, so that it can be abandoned there. */
    private static final java.util.concurrent.ExecutorService TIMED = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "finch-ask-" + TIMED_THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** A real provider's answer if it comes by {@code deadline} (the world's clock, ms); null when it is abandoned. */
    private ModelProvider.Response completeBy(ModelProvider provider, ModelProvider.Request request, long deadline) {
        java.util.concurrent.Future<ModelProvider.Response> f = TIMED.submit(() -> complete(provider, request));
        try {
            return f.get(Math.max(0, deadline - now()), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(true);
            return null;
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            return new ModelProvider.ProviderError("the request was interrupted", 0);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof Exhausted x) throw x;
            return new ModelProvider.ProviderError("the provider failed: " + c, 0);
        }
    }

    /** A real provider's answer; one that throws (it should not) counts as a provider error. */
    private ModelProvider.Response complete(ModelProvider provider, ModelProvider.Request request) {
        long t0 = System.nanoTime();
        try {
            return provider.complete(request);
        } catch (Exhausted e) {
            throw e;
        } catch (RuntimeException e) {
            return new ModelProvider.ProviderError("the provider failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), (System.nanoTime() - t0) / 1_000_000);
        }
    }

    @Override public Object ask(Object context, String grant, String key, String site, Origin origin) {
        return ask(context, grant, key, site, origin, null);
    }

    /**
     * A deferred host's answer to an ask: the reply text it obtained, read exactly like a provider's (reserved and
     * charged at the grant's prices, its output tokens estimated from the text, validated); no time passes.
     */
    @Override public Object answered(Object context, String grant, String key, String site, String reply, Origin origin) {
        return ask(context, grant, key, site, origin, new ModelProvider.Reply(reply, -1, "deferred", 0));
    }

    private Object ask(Object context, String grant, String key, String site, Origin origin, ModelProvider.Response deferred) {
        // A step a failed sibling stopped sends nothing more (Strands.failSiblings): its workflow's outcome is decided.
        if (deferred == null) Strands.stopIfCancelled();
        long start = now();
        List<String> inputs = new ArrayList<>();
        if (context instanceof ListValue) for (ModelProvider.Message m : messages(context)) inputs.add(m.role() + ": " + m.content());
        Settled r = ask(context, grant, key, site, origin, start, deferred);
        trace.add(new TraceEntry("ask", site, inputs, r.shown(), r.cost(), start, now(), r.reservation()));
        return r.result();
    }

    private Settled ask(Object context, String grant, String key, String site, Origin origin, long start, ModelProvider.Response deferred) {
        SiteKey site0 = siteKey(key, origin);
        SiteKey.Model stated = site0.model().orElseThrow(() -> new FinchTrap(VmCode.INTERNAL, origin, "the ask of `" + grant + "` names no model terms (a defect of Finch's µNorman lowering)"));
        Served model = priced(grant, stated, origin);
        HostModel terms = model.terms();
        Askable type = site0.type();
        List<ModelProvider.Message> messages = messages(context);
        if (deadline() >= 0 && start >= deadline()) return Settled.failed("PastDeadline");
        long ceiling = terms.maxOutputTokens();
        // Thinking is billed as output: an ask reserves its largest answer plus [think n] tokens, at most the ceiling.
        long answer = maxBytes(type).map(ScriptedModels::tokens).orElse(ceiling);
        long worstOut = Math.max(0, Math.min(ceiling, saturatedAdd(answer, stated.thinkTokens())));
        long in, reserve;
        try {
            in = 0;
            for (ModelProvider.Message m : messages) in = Math.addExact(in, tokens(m.content()) + 4);
            // The worst case is reserved before the call, against what is spent and what the asks in flight reserved;
            // a worst case past what a long counts does not fit any budget, unlimited included.
            reserve = terms.cost(in, worstOut);
            long committed = Math.addExact(Math.addExact(spent, reserved), reserve);
            if (costCap() >= 0 && committed > costCap()) {
                String why = reservation(reserve, in, worstOut, terms, type, stated.thinkTokens(), ceiling) + ", but only "
                        + dev.finch.vm.value.Money.ofMicros(Math.max(0, costCap() - spent - reserved)) + " was left";
                overBudget = why;
                return new Settled(failure("OverBudget", null), "OverBudget", 0, why);
            }
        } catch (ArithmeticException e) {
            overBudget = "the worst case does not fit in a long of micro-dollars";
            return new Settled(failure("OverBudget", null), "OverBudget", 0, overBudget);
        }
        String why = reservation(reserve, in, worstOut, terms, type, stated.thinkTokens(), ceiling);
        ModelProvider.Response r;
        reserved += reserve;
        try {
            r = deferred != null ? deferred
                    : respond(model.provider(), new ModelProvider.Request(grant, stated.id().orElse(grant), site, messages, type, worstOut), start, origin);
        } finally {
            reserved -= reserve;
        }
        if (r == null || deadline() >= 0 && now() > deadline()) {
            // Abandoned at the deadline: charged what it sent (its input), nothing for an answer after the cutoff.
            long sentCost = terms.cost(in, 0);
            spent += sentCost;
            return new Settled(failure("PastDeadline", null), "abandoned at the deadline", sentCost, why);
        }
        if (r instanceof ModelProvider.ProviderError e) return new Settled(failure("ToolError", e.message()), "provider-error " + e.message(), 0, why);
        if (r instanceof ModelProvider.Refusal f) return new Settled(refused(f.category()), "refused '" + f.category(), 0, why);
        ModelProvider.Reply reply = (ModelProvider.Reply) r;
        long out = Math.min(worstOut, reply.outputTokens() >= 0 ? reply.outputTokens() : tokens(reply.text()));
        long cost = terms.cost(in, out);   // at most the reservation, so it fits
        spent += cost;
        String shown = "reply " + reply.text();
        Validate.Validated v = Validate.validate(reply.text(), type);
        if (v.ok()) return new Settled(ResultValue.ok(v.value().get()), shown, cost, why);
        return new Settled(failure("Invalid", reply.text()), shown + " (Invalid: " + invalid(reply.text(), v.reason()) + ")", cost, why);
    }

    /**
     * The terms an ask is priced and capped by, and the provider that answers it. A script's world has no price list
     * but the program's: the grant's stated terms, with the defaults for what it omits. A host's world prices the ask
     * by the host's terms for the model the grant names (its id, else its name): a model the host does not serve is
     * refused, and so is a grant that states a price below the host's (a program may believe a token costs more than
     * the host charges, never less); a stated ceiling narrows the host's. Refusals are checked run-time errors, raised
     * before anything is reserved or sent.
     */
    private Served priced(String grant, SiteKey.Model stated, Origin origin) {
        if (served == null) return new Served(HostModel.ofGrant(stated.scriptIn(), stated.scriptOut(), stated.scriptCeiling()), provider);
        String name = stated.id().orElse(grant);
        Served s = served.get(name);
        if (s == null) {
            throw new FinchTrap(NormanCode.MODEL_NOT_SERVED, origin, "the ask of `" + grant + "` names the model `" + name
                    + "`, which this host does not serve (it serves " + new java.util.TreeSet<>(served.keySet()) + "); nothing was sent");
        }
        HostModel host = s.terms();
        if (stated.inPerMillion().isPresent() && host.belowIn(stated.inPerMillion().getAsLong())) {
            throw belowHost(grant, name, "in", stated.inPerMillion().getAsLong(), host.inPerMillion(), origin);
        }
        if (stated.outPerMillion().isPresent() && host.belowOut(stated.outPerMillion().getAsLong())) {
            throw belowHost(grant, name, "out", stated.outPerMillion().getAsLong(), host.outPerMillion(), origin);
        }
        long ceiling = Math.min(host.maxOutputTokens(), stated.ceiling().orElse(Long.MAX_VALUE));
        return ceiling == host.maxOutputTokens() ? s : new Served(new HostModel(host.inPerMillion(), host.outPerMillion(), ceiling), s.provider());
    }

    /** {@code a + b} for counts that are not negative, at most {@code Long.MAX_VALUE}. */
    private static long saturatedAdd(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    private static FinchTrap belowHost(String grant, String model, String field, long statedPerMillion, dev.finch.vm.value.Money hostPerMillion, Origin origin) {
        return new FinchTrap(NormanCode.PRICE_BELOW_HOST, origin, "the grant `" + grant + "` states [" + field + " " + SiteKey.Model.perToken(statedPerMillion)
                + "] micro-dollars a token, below the host's price for `" + model + "` (" + hostPerMillion + " a million tokens): a program "
                + "cannot lower what the host charges; state the host's price or more, or omit it; nothing was sent");
    }

    /** Kernels forked so far in this world; each fork is a fresh instance of its grant's tool. */
    private long forks;

    /**
     * One tool call under the world's script: the next {@code [cap/op …]} entry (its latency passes on the
     * simulated clock); a declared Text takes the result verbatim and checks only its bound, any other type reads it
     * as JSON ({@code Invalid} with the raw text on failure). A kernel's {@code fork} answers a new capability,
     * consuming a {@code [cap/fork …]} entry only when the script has one.
     */
    @Override public Object call(dev.finch.host.ToolCapability cap, String op, List<String> args, String key, Origin origin) {
        return call(cap, op, args, key, origin, null);
    }

    /** A deferred host's answer to a call: the result text, read exactly like a scripted result; no time passes. */
    @Override public Object answered(dev.finch.host.ToolCapability cap, String op, List<String> args, String key, String result, Origin origin) {
        return call(cap, op, args, key, origin, new ModelProvider.Reply(result, -1, "deferred", 0));
    }

    private Object call(dev.finch.host.ToolCapability cap, String op, List<String> args, String key, Origin origin, ModelProvider.Response deferred) {
        if (deferred == null) Strands.stopIfCancelled();
        long start = now();
        Settled r = call(cap, op, args, key, origin, start, deferred);
        trace.add(new TraceEntry("call", cap.grant() + "/" + op, args, r.shown(), r.cost(), start, now()));
        return r.result();
    }

    private Settled call(dev.finch.host.ToolCapability cap, String op, List<String> args, String key, Origin origin, long start,
                         ModelProvider.Response deferred) {
        String site = cap.grant() + "/" + op;
        boolean fork = ToolResults.isFork(key);
        if (fork && deferred == null && !(provider instanceof Script s && s.has(site))) {
            return new Settled(ToolResults.forked(cap.withInstance(++forks)), "fork", 0);
        }
        Askable type = fork ? Askable.text() : siteKey(key, origin).type();
        if (deferred == null && !(provider instanceof Script)) {
            throw new FinchTrap(dev.finch.norman.NormanCode.NO_SCRIPTED_ANSWER, origin, "the call of '" + site + "' runs outside any script: run it under ([script Name])");
        }
        if (deadline() >= 0 && start >= deadline()) return Settled.failed("PastDeadline");
        ModelProvider.Response r = deferred != null ? deferred
                : respond(provider, new ModelProvider.Request(cap.grant(), cap.grant(), site, List.of(), type, 0), start, origin);
        if (r == null) return new Settled(failure("PastDeadline", null), "abandoned at the deadline", 0);
        String shown = r instanceof ModelProvider.ProviderError pe ? "provider-error " + pe.message()
                : r instanceof ModelProvider.Refusal f ? "refused '" + f.category() : "result " + ((ModelProvider.Reply) r).text();
        if (deadline() >= 0 && now() > deadline()) return new Settled(failure("PastDeadline", null), shown, 0);
        if (r instanceof ModelProvider.ProviderError e) return new Settled(failure("ToolError", e.message()), shown, 0);
        if (r instanceof ModelProvider.Refusal f) return new Settled(refused(f.category()), shown, 0);
        if (fork) return new Settled(ToolResults.forked(cap.withInstance(++forks)), shown, 0);
        String text = ((ModelProvider.Reply) r).text();
        Optional<String> why = ToolResults.invalidity(type, text);
        return why.isEmpty() ? new Settled(ToolResults.typed(type, text), shown, 0)
                : new Settled(ToolResults.invalid(text), shown + " (Invalid: " + invalid(text, why.get()) + ")", 0);
    }

    private static ResultValue failure(String tag, String text) { return ToolResults.failure(tag, text); }

    /** {@code (Refused 'category)}. */
    private static ResultValue refused(String category) {
        return ResultValue.err(new VariantValue("Refused", new RecordValue(new Object[] {new dev.finch.vm.value.Symbol(category)})));
    }

    /** A µNorman list of Messages (records {content, role}, fields sorted) as provider messages. */
    private static List<ModelProvider.Message> messages(Object context) {
        List<ModelProvider.Message> out = new ArrayList<>();
        for (Object o : (ListValue) context) {
            RecordValue r = (RecordValue) o;
            out.add(new ModelProvider.Message(((VariantValue) r.get(1)).tag(), (String) r.get(0)));
        }
        return out;
    }

    /** A quarter of {@code bytes}, rounded up (without overflow, for any bound a type states). */
    static long tokens(long bytes) { return bytes / 4 + (bytes % 4 == 0 ? 0 : 1); }

    static long tokens(String text) { return tokens(text.getBytes(StandardCharsets.UTF_8).length); }

    /**
     * The longest JSON text of a value of {@code t} its bounds allow, in bytes; empty when unbounded — and when the
     * bound is past what a long counts ({@code (Text 9223372036854775807)}), which is as good as unbounded: the
     * ceiling applies, never a wrapped, negative size.
     */
    static Optional<Long> maxBytes(Askable t) {
        try {
            return exactMaxBytes(t);
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> exactMaxBytes(Askable t) {
        if (t instanceof Askable.Text x) return x.maxBytes().isPresent() ? Optional.of(Math.addExact(x.maxBytes().getAsLong(), 2)) : Optional.empty();
        if (t instanceof Askable.Num) return Optional.of(24L);
        if (t instanceof Askable.Bool) return Optional.of(5L);
        if (t instanceof Askable.Sym) return Optional.empty();
        if (t instanceof Askable.Ref) return Optional.empty(); // a recursive type's values have no largest one
        if (t instanceof Askable.ListOf l) {
            if (l.maxItems().isEmpty()) return Optional.empty();
            return exactMaxBytes(l.element()).map(e -> Math.addExact(2, Math.multiplyExact(l.maxItems().getAsLong(), Math.addExact(e, 1))));
        }
        if (t instanceof Askable.Record r) return object(r.fields(), 0);
        Askable.Datatype d = (Askable.Datatype) t;
        long most = 0;
        for (var c : d.constructors().entrySet()) {
            Optional<Long> b = object(c.getValue(), "\"tag\":\"\",".length() + c.getKey().length());
            if (b.isEmpty()) return Optional.empty();
            most = Math.max(most, b.get());
        }
        return Optional.of(most);
    }

    private static Optional<Long> object(Map<String, Askable> fields, long extra) {
        long n = 2 + extra;
        for (var f : fields.entrySet()) {
            Optional<Long> b = exactMaxBytes(f.getValue());
            if (b.isEmpty()) return Optional.empty();
            n = Math.addExact(n, Math.addExact(f.getKey().length() + 4, b.get()));
        }
        return Optional.of(n);
    }

    /** The ask or call site the key spells (see {@link SiteKey}); another key is a defect of whoever built the call. */
    private final Map<String, SiteKey> keys = new HashMap<>();

    private SiteKey siteKey(String key, Origin origin) {
        SiteKey k = keys.computeIfAbsent(key, x -> SiteKey.parse(x).orElse(null));
        if (k == null) throw new FinchTrap(VmCode.INTERNAL, origin, "the ask or call carries no site key this world can read (a defect of Finch's µNorman lowering)");
        return k;
    }

    // ---- scripts ------------------------------------------------------------------------------------------------

    /**
     * A script as a provider: per site, its entries in order — each a {@code (reply "…")}, {@code (result "…")},
     * {@code (provider-error "…")} or {@code (refused 'category)} followed by its {@code (out n)} and
     * {@code (latency d)} (the syntax checked them: {@code Syntax}, {@code ScriptChecks}). A fresh instance is a
     * rewound script; asking a site with no entries left is a checked run-time error.
     */
    public static final class Script implements ModelProvider {
        /** One scripted answer: its kind ({@code reply}, {@code result}, {@code provider-error} or {@code refused}), text, out and latency. */
        private record Entry(String kind, String text, long out, long latency) { }

        private final String name;
        private final Map<String, List<Entry>> sites = new java.util.LinkedHashMap<>();
        private final Map<String, Integer> next = new HashMap<>();

        public Script(Ast.Script script) {
            this.name = script.name();
            for (Ast.SiteScript s : script.sites()) {
                List<Entry> entries = new ArrayList<>();
                Entry cur = null;
                for (Ast.ScriptStep st : s.steps()) {
                    String arg = st.argument().map(Script::text).orElse("");
                    switch (st.kind()) {
                        case "reply", "provider-error", "result", "refused" -> {
                            if (cur != null) entries.add(cur);
                            cur = new Entry(st.kind(), arg, -1, 0);
                        }
                        case "out" -> { if (cur != null) cur = new Entry(cur.kind, cur.text, Long.parseLong(arg), cur.latency); }
                        case "latency" -> { if (cur != null) cur = new Entry(cur.kind, cur.text, cur.out, millis(arg)); }
                        default -> { }
                    }
                }
                if (cur != null) entries.add(cur);
                sites.put(s.key(), entries);
            }
        }

        private static String text(Sx x) {
            return x instanceof Sx.Str s ? s.value() : x instanceof Sx.Atom a ? a.text() : x instanceof Sx.Quote q ? text(q.datum()) : "";
        }

        private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|min|h)");

        static long millis(String d) {
            Matcher m = DURATION.matcher(d);
            if (!m.matches()) return 0;
            long unit = switch (m.group(2)) { case "ms" -> 1; case "s" -> 1000; case "min" -> 60_000; default -> 3_600_000; };
            return new java.math.BigDecimal(m.group(1)).multiply(java.math.BigDecimal.valueOf(unit)).longValue();
        }

        @Override public boolean simulated() { return true; }

        /** True when the script has entries for {@code key} (a site or {@code cap/op}). */
        boolean has(String key) { return sites.containsKey(key); }

        /** The site is not in this script at all: name the sites it has, in the order it lists them, so a typo shows. */
        private String missing(String site) {
            String has = sites.isEmpty() ? "it lists no sites"
                    : "its sites are " + String.join(", ", sites.keySet().stream().map(k -> "'" + k).toList());
            return "script " + name + " has no entries for site '" + site + "; " + has;
        }

        @Override public Response complete(Request r) {
            List<Entry> entries = sites.getOrDefault(r.site(), List.of());
            int i = next.getOrDefault(r.site(), 0);
            if (!sites.containsKey(r.site())) throw new Exhausted(missing(r.site()));
            if (i >= entries.size()) {
                throw new Exhausted("script " + name + " is exhausted at site '" + r.site()
                        + " (" + entries.size() + " scripted entr" + (entries.size() == 1 ? "y" : "ies") + ", all used)");
            }
            next.put(r.site(), i + 1);
            Entry e = entries.get(i);
            return switch (e.kind) {
                case "provider-error" -> new ProviderError(e.text, e.latency);
                case "refused" -> new Refusal(e.text, e.latency);
                default -> new Reply(e.text, e.out, "stop", e.latency);
            };
        }
    }

    /** A scripted provider has nothing left to answer with: the checked run-time error of the ask. */
    public static final class Exhausted extends RuntimeException {
        public Exhausted(String message) { super(message, null, false, false); }
    }

    /** A provider for runs without a script: every ask is a checked run-time error. */
    public static final ModelProvider NO_SCRIPT = new ModelProvider() {
        @Override public Response complete(Request r) {
            throw new Exhausted("the ask at site '" + r.site() + "' runs outside any script: "
                    + "run it under ([script Name]) or install a model provider");
        }

        @Override public boolean simulated() { return true; }
    };
}
