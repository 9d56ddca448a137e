package dev.finch.norman.harness;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Askable;
import dev.finch.norman.Ast;
import dev.finch.norman.NormanTests;
import dev.finch.norman.Sx;
import dev.finch.vm.VmCode;
import dev.finch.vm.host.ModelHost;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
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
 * One world of a µNorman test run (language reference, "Scripts and tests"): the model host of every ask in the
 * run, with a pool of money, an absolute deadline, a simulated clock and a provider (a script, rewound for each
 * world). An ask reserves its worst case before the call — the context's input tokens plus the largest answer
 * the type's bounds allow (unbounded text: the grant's ceiling) at the grant's prices — and if that does not fit
 * the pool the provider is never called and nothing is charged ({@code OverBudget}). Otherwise the provider
 * answers, the clock advances by its latency, the input and output tokens are charged, and the reply is validated
 * ({@code Invalid} with the raw reply), a provider error is {@code ToolError}, and a clock past the deadline is
 * {@code PastDeadline}. Tokens are counted as a quarter of the UTF-8 bytes, rounded up, plus 4 per message.
 */
public final class ScriptedModels implements ModelHost, dev.finch.vm.host.ToolHost {
    /** Defaults of a model grant's fields: prices in micro-dollars per token, the ceiling in tokens. */
    static final long DEFAULT_IN = 3, DEFAULT_OUT = 15, DEFAULT_CEILING = 4096;

    private final NormanTests.Agents agents;
    private final ModelProvider provider;
    private final long costLimit;
    private final long deadline;
    private long spent;
    private long clock;

    /** A world with {@code costLimit} micro-dollars and {@code timeLimit} ms (negative: unlimited). */
    public ScriptedModels(NormanTests.Agents agents, ModelProvider provider, long costLimit, long timeLimit) {
        this.agents = agents;
        this.provider = provider;
        this.costLimit = costLimit;
        this.deadline = timeLimit;
    }

    /** The open budget scopes, innermost last: {absolute cost cap in micro-dollars, absolute deadline in ms}, -1 for none. */
    private final java.util.ArrayDeque<long[]> scopes = new java.util.ArrayDeque<>();

    private long costCap() {
        long cap = costLimit;
        for (long[] s : scopes) if (s[0] >= 0) cap = cap < 0 ? s[0] : Math.min(cap, s[0]);
        return cap;
    }

    private long deadline() {
        long d = deadline;
        for (long[] s : scopes) if (s[1] >= 0) d = d < 0 ? s[1] : Math.min(d, s[1]);
        return d;
    }

    @Override public void workflowEvent(int command, long argument) { schedule(command, argument); }

    @Override public void budgetOpen(dev.finch.vm.value.Money cost, dev.finch.vm.value.Duration time) {
        scopes.addLast(new long[] {cost.unlimited() ? -1 : spent + cost.micros(), time.unlimited() ? -1 : clock + time.millis()});
    }

    @Override public void budgetClose() { scopes.pollLast(); }

    @Override public Object remaining() {
        long cap = costCap(), d = deadline();
        return new RecordValue(new Object[] {
            cap < 0 ? dev.finch.vm.value.Money.UNLIMITED : dev.finch.vm.value.Money.ofMicros(Math.max(0, cap - spent)),
            d < 0 ? dev.finch.vm.value.Duration.UNLIMITED : dev.finch.vm.value.Duration.ofMillis(Math.max(0, d - clock))});
    }

    // ---- the deterministic scheduler of workflow and par --------------------------------------------------------

    /** Scheduler commands: open a workflow, start step i, step i depends on j, step i ended, join (before the body), close. */
    public static final int WF_OPEN = 1, STEP_START = 2, STEP_DEP = 3, STEP_END = 4, WF_JOIN = 5, WF_CLOSE = 6;

    /** An open workflow: when it started, when each finished step ended, and whether its steps have joined. */
    private static final class Frame {
        final long start;
        final Map<Long, Long> ends = new HashMap<>();
        boolean joined;
        Frame(long start) { this.start = start; }
        long latest(long at) { long m = at; for (long e : ends.values()) m = Math.max(m, e); return m; }
    }

    private final java.util.ArrayDeque<Frame> frames = new java.util.ArrayDeque<>();

    /**
     * The simulated-time semantics of concurrent steps, executed one after another in real time: every step starts
     * at the workflow's start, or later at the end of the latest step it reads; the workflow's body starts when the
     * last step ends (the longest path, not the sum); money is one pool, so cost adds up.
     */
    private void schedule(int command, long arg) {
        switch (command) {
            case WF_OPEN -> frames.addLast(new Frame(clock));
            case STEP_START -> { Frame f = frames.peekLast(); if (f != null) clock = f.start; }
            case STEP_DEP -> { Frame f = frames.peekLast(); if (f != null) clock = Math.max(clock, f.ends.getOrDefault(arg, f.start)); }
            case STEP_END -> { Frame f = frames.peekLast(); if (f != null) f.ends.put(arg, clock); }
            case WF_JOIN -> { Frame f = frames.peekLast(); if (f != null) { clock = f.latest(f.start); f.joined = true; } }
            case WF_CLOSE -> { Frame f = frames.pollLast(); if (f != null && !f.joined) clock = f.latest(clock); }
            default -> { }
        }
    }

    // ---- the trace ----------------------------------------------------------------------------------------------

    /**
     * One ask or call of the world, in the order they ran: {@code kind} is {@code ask} or {@code call}, {@code site}
     * the ask's site or the call's {@code cap/op}, {@code inputs} the request (each message as {@code Role: content},
     * or the call's arguments), {@code reply} what came back ({@code reply …}, {@code provider-error …}, or the
     * failure the world answered without a provider: {@code OverBudget}, {@code PastDeadline}), {@code cost} in
     * micro-dollars, {@code start} and {@code end} on the simulated clock in milliseconds.
     */
    public record TraceEntry(String kind, String site, List<String> inputs, String reply, long cost, long start, long end) {
        public TraceEntry { inputs = List.copyOf(inputs); }

        @Override public String toString() {
            return kind + " " + site + " " + inputs + " -> " + reply + " " + dev.finch.vm.value.Money.ofMicros(cost) + " ["
                    + dev.finch.vm.value.Duration.ofMillis(start) + ", " + dev.finch.vm.value.Duration.ofMillis(end) + "]";
        }
    }

    private final List<TraceEntry> trace = new ArrayList<>();

    /** Every ask and call of this world so far, in order. */
    public List<TraceEntry> trace() { return List.copyOf(trace); }

    /** The world's host state: how far the script has been consumed at each site, and how many kernels were forked. */
    public String hostState() {
        return "script " + (provider instanceof Script s ? new java.util.TreeMap<>(s.next) : Map.of()) + ", forks " + forks;
    }

    private Object traced(String kind, String site, List<String> inputs, long start, long before, String reply, Object result) {
        trace.add(new TraceEntry(kind, site, inputs, reply, spent - before, start, clock));
        return result;
    }

    /** Micro-dollars charged so far. */
    public long spent() { return spent; }

    /** Simulated milliseconds elapsed so far. */
    public long elapsed() { return clock; }

    @Override public Object ask(Object context, String grant, String key, String site, Origin origin) {
        long start = clock, before = spent;
        List<String> inputs = new ArrayList<>();
        if (context instanceof ListValue) for (ModelProvider.Message m : messages(context)) inputs.add(m.role() + ": " + m.content());
        Object[] reply = {""};
        Object r = ask(context, grant, key, site, origin, reply);
        String shown = reply[0].equals("") && r instanceof ResultValue rv && !rv.isOk() ? ((VariantValue) rv.value()).tag() : (String) reply[0];
        return traced("ask", site, inputs, start, before, shown, r);
    }

    private Object ask(Object context, String grant, String key, String site, Origin origin, Object[] shown) {
        Askable type = agents.asks().get(key);
        Ast.Grant g = agents.grants().get(grant);
        if (type == null || g == null) throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, "no model grant `" + grant + "` for this ask");
        long inPrice = field(g, "in", DEFAULT_IN), outPrice = field(g, "out", DEFAULT_OUT), ceiling = field(g, "ceiling", DEFAULT_CEILING);
        List<ModelProvider.Message> messages = messages(context);
        long in = 0;
        for (ModelProvider.Message m : messages) in += tokens(m.content()) + 4;
        long worstOut = Math.min(ceiling, maxBytes(type).map(ScriptedModels::tokens).orElse(ceiling));
        if (deadline() >= 0 && clock >= deadline()) return failure("PastDeadline", null);
        long reserve = in * inPrice + worstOut * outPrice;
        if (costCap() >= 0 && spent + reserve > costCap()) return failure("OverBudget", null);
        ModelProvider.Response r;
        try {
            r = provider.complete(new ModelProvider.Request(grant, modelId(g), site, messages, type, worstOut));
        } catch (Exhausted e) {
            throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, e.getMessage());
        }
        clock += Math.max(0, r.latencyMillis());
        shown[0] = r instanceof ModelProvider.ProviderError pe ? "provider-error " + pe.message() : "reply " + ((ModelProvider.Reply) r).text();
        if (r instanceof ModelProvider.ProviderError e) {
            return deadline() >= 0 && clock > deadline() ? failure("PastDeadline", null) : failure("ToolError", e.message());
        }
        ModelProvider.Reply reply = (ModelProvider.Reply) r;
        long out = Math.min(worstOut, reply.outputTokens() >= 0 ? reply.outputTokens() : tokens(reply.text()));
        spent += in * inPrice + out * outPrice;
        if (deadline() >= 0 && clock > deadline()) return failure("PastDeadline", null);
        Validate.Validated v = Validate.validate(reply.text(), type);
        return v.ok() ? ResultValue.ok(v.value().get()) : failure("Invalid", reply.text());
    }

    /** Kernels forked so far in this world; each fork is a fresh instance of its grant's tool. */
    private long forks;

    /**
     * One tool call under the world's script: the next {@code [cap/op …]} entry (its latency advances the clock);
     * a declared Text takes the result verbatim and checks only its bound, any other type reads it as JSON
     * ({@code Invalid} with the raw text on failure). A kernel's {@code fork} answers a new capability, consuming a
     * {@code [cap/fork …]} entry only when the script has one.
     */
    @Override public Object call(dev.finch.vm.host.ToolCapability cap, String op, List<String> args, String key, Origin origin) {
        long start = clock, before = spent;
        Object[] reply = {""};
        Object r = call(cap, op, args, key, origin, reply);
        String shown = !reply[0].equals("") ? (String) reply[0]
                : r instanceof ResultValue rv && !rv.isOk() ? ((VariantValue) rv.value()).tag() : "fork";
        return traced("call", cap.grant() + "/" + op, args, start, before, shown, r);
    }

    private Object call(dev.finch.vm.host.ToolCapability cap, String op, List<String> args, String key, Origin origin, Object[] shown) {
        String site = cap.grant() + "/" + op;
        boolean fork = key.equals("fork");
        if (fork && !(provider instanceof Script s && s.has(site))) return ResultValue.ok(new dev.finch.vm.host.ToolCapability(cap.grant(), ++forks));
        Askable type = fork ? new Askable.Text(java.util.OptionalLong.empty()) : agents.asks().get(key);
        if (type == null) throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, "no tool grant `" + cap.grant() + "` for this call");
        if (!(provider instanceof Script)) {
            throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, "the call of '" + site + "' runs outside any script: run it under ([script Name])");
        }
        if (deadline() >= 0 && clock >= deadline()) return failure("PastDeadline", null);
        ModelProvider.Response r;
        try {
            r = provider.complete(new ModelProvider.Request(cap.grant(), cap.grant(), site, List.of(), type, 0));
        } catch (Exhausted e) {
            throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, e.getMessage());
        }
        clock += Math.max(0, r.latencyMillis());
        shown[0] = r instanceof ModelProvider.ProviderError pe ? "provider-error " + pe.message() : "result " + ((ModelProvider.Reply) r).text();
        if (deadline() >= 0 && clock > deadline()) return failure("PastDeadline", null);
        if (r instanceof ModelProvider.ProviderError e) return failure("ToolError", e.message());
        if (fork) return ResultValue.ok(new dev.finch.vm.host.ToolCapability(cap.grant(), ++forks));
        String text = ((ModelProvider.Reply) r).text();
        if (type instanceof Askable.Text x) {
            long bytes = text.getBytes(StandardCharsets.UTF_8).length;
            return x.maxBytes().isPresent() && bytes > x.maxBytes().getAsLong() ? failure("Invalid", text) : ResultValue.ok(text);
        }
        Validate.Validated v = Validate.validate(text, type);
        return v.ok() ? ResultValue.ok(v.value().get()) : failure("Invalid", text);
    }

    private static ResultValue failure(String tag, String text) {
        return ResultValue.err(new VariantValue(tag, text == null ? Unit.INSTANCE : new RecordValue(new Object[] {text})));
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

    static long tokens(long bytes) { return (bytes + 3) / 4; }

    static long tokens(String text) { return tokens(text.getBytes(StandardCharsets.UTF_8).length); }

    /** The longest JSON text of a value of {@code t} its bounds allow, in bytes; empty when unbounded. */
    static Optional<Long> maxBytes(Askable t) {
        if (t instanceof Askable.Text x) return x.maxBytes().isPresent() ? Optional.of(x.maxBytes().getAsLong() + 2) : Optional.empty();
        if (t instanceof Askable.Num) return Optional.of(24L);
        if (t instanceof Askable.Bool) return Optional.of(5L);
        if (t instanceof Askable.Sym) return Optional.empty();
        if (t instanceof Askable.ListOf l) {
            if (l.maxItems().isEmpty()) return Optional.empty();
            return maxBytes(l.element()).map(e -> 2 + l.maxItems().getAsLong() * (e + 1));
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
            Optional<Long> b = maxBytes(f.getValue());
            if (b.isEmpty()) return Optional.empty();
            n += f.getKey().length() + 4 + b.get();
        }
        return Optional.of(n);
    }

    private static long field(Ast.Grant g, String key, long fallback) {
        for (Ast.HostEntry e : g.entries()) {
            if (e.key().equals(key) && e.value().isPresent() && e.value().get() instanceof Sx.Atom a) {
                try {
                    return Long.parseLong(a.text());
                } catch (NumberFormatException ignored) {
                    return fallback;
                }
            }
        }
        return fallback;
    }

    private static String modelId(Ast.Grant g) {
        for (Ast.HostEntry e : g.entries()) if (e.key().equals("id") && e.value().orElse(null) instanceof Sx.Str s) return s.value();
        return g.name();
    }

    // ---- scripts ------------------------------------------------------------------------------------------------

    /**
     * A script as a provider: per site, its entries in order — each a {@code (reply "…")} or
     * {@code (provider-error "…")} followed by its {@code (out n)} and {@code (latency d)}. A fresh instance is a
     * rewound script; asking a site with no entries left is a checked run-time error.
     */
    public static final class Script implements ModelProvider {
        private record Entry(boolean error, String text, long out, long latency) { }

        private final String name;
        private final Map<String, List<Entry>> sites = new HashMap<>();
        private final Map<String, Integer> next = new HashMap<>();

        public Script(Ast.Script script) {
            this.name = script.name();
            for (Ast.SiteScript s : script.sites()) {
                List<Entry> entries = new ArrayList<>();
                Entry cur = null;
                for (Ast.ScriptStep st : s.steps()) {
                    String arg = st.argument().map(Script::text).orElse("");
                    switch (st.kind()) {
                        case "reply", "provider-error", "result" -> {
                            if (cur != null) entries.add(cur);
                            cur = new Entry(st.kind().equals("provider-error"), arg, -1, 0);
                        }
                        case "out" -> { if (cur != null) cur = new Entry(cur.error, cur.text, Long.parseLong(arg), cur.latency); }
                        case "latency" -> { if (cur != null) cur = new Entry(cur.error, cur.text, cur.out, millis(arg)); }
                        default -> { }
                    }
                }
                if (cur != null) entries.add(cur);
                sites.put(s.key(), entries);
            }
        }

        private static String text(Sx x) { return x instanceof Sx.Str s ? s.value() : x instanceof Sx.Atom a ? a.text() : ""; }

        private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|min|h)");

        static long millis(String d) {
            Matcher m = DURATION.matcher(d);
            if (!m.matches()) return 0;
            long unit = switch (m.group(2)) { case "ms" -> 1; case "s" -> 1000; case "min" -> 60_000; default -> 3_600_000; };
            return new java.math.BigDecimal(m.group(1)).multiply(java.math.BigDecimal.valueOf(unit)).longValue();
        }

        /** True when the script has entries for {@code key} (a site or {@code cap/op}). */
        boolean has(String key) { return sites.containsKey(key); }

        @Override public Response complete(Request r) {
            List<Entry> entries = sites.getOrDefault(r.site(), List.of());
            int i = next.getOrDefault(r.site(), 0);
            if (i >= entries.size()) {
                throw new Exhausted("script " + name + " is exhausted at site '" + r.site()
                        + " (" + entries.size() + " scripted entr" + (entries.size() == 1 ? "y" : "ies") + ", all used)");
            }
            next.put(r.site(), i + 1);
            Entry e = entries.get(i);
            return e.error ? new ProviderError(e.text, e.latency) : new Reply(e.text, e.out, "stop", e.latency);
        }
    }

    /** A scripted provider has nothing left to answer with: the checked run-time error of the ask. */
    public static final class Exhausted extends RuntimeException {
        public Exhausted(String message) { super(message, null, false, false); }
    }

    /** A provider for runs without a script: every ask is a checked run-time error. */
    public static final ModelProvider NO_SCRIPT = r -> {
        throw new Exhausted("the ask at site '" + r.site() + "' runs outside any script: "
                + "run it under ([script Name]) or install a model provider");
    };
}
