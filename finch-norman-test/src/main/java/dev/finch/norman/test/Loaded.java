package dev.finch.norman.test;

import dev.finch.norman.harness.ScriptedModels;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.norman.Ast;
import dev.finch.norman.NormanTests;
import dev.finch.norman.UnitTest;
import dev.finch.vm.OutputSink;
import dev.finch.vm.TypedValue;
import dev.finch.vm.value.ResultValue;
import java.util.List;
import java.util.Optional;

/**
 * A loaded µNorman file (or the diagnostics that stopped it loading) whose unit tests run one at a time, each in
 * a fresh world: a {@link Session#call} of its word from the loaded state, against that world's scripted models and
 * tools. Used by {@code finch test} and by the JUnit engine, which
 * reports each test separately.
 */
public final class Loaded {
    private final Session session;
    private final String source;
    private final List<NormanTests.Lowered> tests;
    private final List<String> valFailures;
    private final List<Diagnostic> diagnostics;
    private final NormanTests.Agents agents;

    Loaded(Session session, String source, List<NormanTests.Lowered> tests, List<String> valFailures, List<Diagnostic> diagnostics,
           NormanTests.Agents agents) {
        this.agents = agents;
        this.session = session;
        this.source = source;
        this.tests = List.copyOf(tests);
        this.valFailures = List.copyOf(valFailures);
        this.diagnostics = List.copyOf(diagnostics);
    }

    static Loaded failed(List<Diagnostic> diagnostics) { return new Loaded(null, null, List.of(), List.of(), diagnostics, NormanTests.Agents.NONE); }

    /** True when the file loaded; otherwise {@link #diagnostics()} say why. */
    public boolean ok() { return diagnostics.isEmpty(); }

    /** Why the file did not load; empty when it did. */
    public List<Diagnostic> diagnostics() { return diagnostics; }

    /** A line per val that failed while loading (file:line:col: val x failed, so it is not bound: …). */
    public List<String> valFailures() { return valFailures; }

    /** How many unit tests the file has. */
    public int size() { return tests.size(); }

    /** The {@code i}th unit test as data (its origin names it). */
    public UnitTest test(int i) { return tests.get(i).test(); }

    /**
     * Runs the {@code i}th unit test in a fresh world; its result carries the trace, spend and simulated time of the
     * tested expression's world.
     */
    public TestResult run(int i) {
        traced = null;
        TestResult r = runTest(i);
        return traced == null ? r : r.withWorld(traced);
    }

    /** The world of the tested expression's run (the first expression, or check-within's measured one). */
    private ScriptedModels traced;

    private TestResult runTest(int i) {
        NormanTests.Lowered l = tests.get(i);
        UnitTest t = l.test();
        Origin at = t.origin();
        Ast.TestKind kind = t.kind();
        current = t;
        // The under's limits: literals are read, expressions run first (in a world of their own, without a script).
        costLimit = -1;
        timeLimit = -1;
        for (int k = 0; k < 2; k++) {
            Optional<Ast.Exp> lim = k == 0 ? t.cost() : t.time();
            Optional<String> word = k == 0 ? l.costWord() : l.timeWord();
            long v;
            if (lim.isEmpty()) v = -1;
            else if (word.isEmpty()) v = literal(lim.get());
            else {
                Run r = call(word.get(), new ScriptedModels(ScriptedModels.NO_SCRIPT, -1, -1));
                String what = k == 0 ? "cost" : "time";
                if (r.stopped()) return TestResult.fail(at, kind, "the " + what + " limit of under stopped with a checked run-time error: " + r.error());
                ResultValue rv = (ResultValue) r.value().value();
                if (!rv.isOk()) return TestResult.fail(at, kind, "the " + what + " limit of under failed: " + Display.outcome(r.value()));
                // -1 is "unlimited" to a world, so a negative limit an expression computed is nothing, not unlimited
                v = rv.value() instanceof dev.finch.vm.value.Money m ? (m.unlimited() ? -1 : Math.max(0, m.micros()))
                        : ((dev.finch.vm.value.Duration) rv.value()).unlimited() ? -1 : Math.max(0, ((dev.finch.vm.value.Duration) rv.value()).millis());
            }
            if (k == 0) costLimit = v; else timeLimit = v;
        }
        try {
            switch (kind) {
                case CHECK_EXPECT: return same(l, "value");
                case CHECK_EQUIV: {
                    String grade = t.grade().orElse("value");
                    if (!List.of("exact", "resource", "value").contains(grade)) {
                        return TestResult.fail(at, kind, "unknown grade '" + grade + " (the grades are 'exact, 'resource and 'value)");
                    }
                    return same(l, grade);
                }
                case CHECK_ASSERT: return asserted(l);
                case CHECK_FAIL: return fails(l);
                case CHECK_ERROR: return errs(l);
                case CHECK_WITHIN:
                default:
                    return within(l);
            }
        } catch (RuntimeException e) {
            return TestResult.fail(at, kind, "the test harness failed (a defect of Finch, not of the program): " + e);
        }
    }

    /** One expression run on its own: its result, or the diagnostics of the run that stopped. */
    private record Run(TypedValue value, Object extra, List<Diagnostic> errors, Optional<Diagnostic> checkedError) {
        boolean stopped() { return value == null; }

        String error() {
            Diagnostic d = errors.isEmpty() ? null : errors.get(0);
            return d == null ? "the run stopped" : d.code() + " " + d.message();
        }
    }

    /** The current test's under limits, in micro-dollars and milliseconds (-1: unlimited). */
    private long costLimit = -1, timeLimit = -1;

    /** A fresh world for one run of the test's expressions: its under's script rewound, a fresh pool and clock. */
    private ScriptedModels world(UnitTest t) {
        ModelProvider p = t.script().map(n -> agents.scripts().get(n)).<ModelProvider>map(ScriptedModels.Script::new).orElse(ScriptedModels.NO_SCRIPT);
        return new ScriptedModels(p, costLimit, timeLimit);
    }

    /** A literal limit in micro-dollars or milliseconds; -1 for ∞. */
    private static long literal(Ast.Exp e) {
        if (e instanceof Ast.Money m) return m.micros();
        if (e instanceof Ast.Duration d) return d.millis();
        return -1;
    }

    private Run call(String word) { return call(word, world(current)); }

    /** The world of the last run. */
    private ScriptedModels last;

    private UnitTest current;

    private Run call(String word, ScriptedModels world) { return call(word, world, List.of()); }

    /**
     * Calls {@code word} in the loaded session with {@code below} as its inputs, in {@code world} (its models and its
     * tools). The inputs carry a caught failure into a test side's handler.
     */
    private Run call(String word, ScriptedModels world, List<TypedValue> below) {
        last = world;
        if (traced == null) traced = world;
        Outcome o = session.call(word, below.stream().map(TypedValue::toValue).toList(), OutputSink.NONE, world, world, world.memory());
        if (o instanceof Outcome.Completed) {
            List<dev.finch.vm.Value> out = o.values();
            return new Run(TypedValue.of(out.get(0)), out.size() > 1 ? TypedValue.of(out.get(1)).value() : null, List.of(), Optional.empty());
        }
        return new Run(null, null, TestHarness.problems(session, o, source), o.checkedRuntimeError());
    }

    /**
     * Both sides, each in its own fresh world, compared at {@code grade}: 'value compares the results, 'resource also
     * the spend, the simulated time and the host state (the script consumed, kernels forked), 'exact also the trace
     * of every ask and call.
     */
    private TestResult same(NormanTests.Lowered l, String grade) {
        UnitTest t = l.test();
        boolean equiv = t.kind() == Ast.TestKind.CHECK_EQUIV;
        Run found = side(l, 0);
        ScriptedModels wa = last;
        if (found.stopped()) {
            return TestResult.fail(t.origin(), t.kind(), (equiv ? "the first side" : "the expression") + " stopped with a checked run-time error: " + found.error());
        }
        Run expected = side(l, 1);
        ScriptedModels wb = last;
        if (expected.stopped()) {
            return TestResult.fail(t.origin(), t.kind(), (equiv ? "the second side" : "the expected expression") + " stopped with a checked run-time error: " + expected.error());
        }
        ResultValue a = (ResultValue) found.value().value();
        ResultValue b = (ResultValue) expected.value().value();
        var ta = (dev.finch.ir.type.Type.ResultT) found.value().type();
        var tb = (dev.finch.ir.type.Type.ResultT) expected.value().type();
        boolean equal = a.isOk() == b.isOk()
                && (a.isOk() ? Display.same(ta.ok(), a.value(), tb.ok(), b.value()) : Display.same(ta.err(), a.value(), tb.err(), b.value()));
        if (equal && !grade.equals("value")) {
            String what = null;
            // the sides in the order they are written: the first's, then the second's
            if (wa.spent() != wb.spent()) what = "spent " + dev.finch.vm.value.Money.ofMicros(wa.spent()) + " and " + dev.finch.vm.value.Money.ofMicros(wb.spent());
            else if (wa.elapsed() != wb.elapsed()) what = "took " + dev.finch.vm.value.Duration.ofMillis(wa.elapsed()) + " and " + dev.finch.vm.value.Duration.ofMillis(wb.elapsed());
            else if (!wa.hostState().equals(wb.hostState())) what = "left the host state " + wa.hostState() + " and " + wb.hostState();
            else if (grade.equals("exact") && !wa.trace().equals(wb.trace())) what = "traced " + wa.trace() + " and " + wb.trace();
            if (what != null) {
                return TestResult.fail(t.origin(), t.kind(), "the results agree (" + Display.outcome(found.value()) + ") but at grade '" + grade
                        + " the worlds differ: the sides " + what);
            }
        }
        if (equal) return TestResult.pass(t.origin(), t.kind());
        if (equiv) {
            return TestResult.fail(t.origin(), t.kind(), "the sides differ at grade '" + grade + ": the first gives " + Display.outcome(found.value(), wa)
                    + ", the second " + Display.outcome(expected.value(), wb));
        }
        return TestResult.fail(t.origin(), t.kind(), "expected " + Display.outcome(expected.value(), wb) + " but found " + Display.outcome(found.value(), wa));
    }

    /**
     * One compared side in its own fresh world. A side that is a catch whose handler answers another type runs the
     * caught expression and, only when that failed, the handler on the failure in the same world.
     */
    private Run side(NormanTests.Lowered l, int i) {
        ScriptedModels world = world(current);
        Run body = call(l.words().get(i), world);
        Optional<String> handler = l.handlers().get(i);
        if (handler.isEmpty() || body.stopped() || ((ResultValue) body.value().value()).isOk()) return body;
        var failureType = ((dev.finch.ir.type.Type.ResultT) body.value().type()).err();
        return call(handler.get(), world, List.of(new TypedValue(failureType, ((ResultValue) body.value().value()).value())));
    }

    private TestResult asserted(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Run r = call(l.words().get(0));
        if (r.stopped()) return TestResult.fail(t.origin(), t.kind(), "the expression stopped with a checked run-time error: " + r.error());
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk() && Boolean.TRUE.equals(v.value())) return TestResult.pass(t.origin(), t.kind());
        return TestResult.fail(t.origin(), t.kind(), "expected true but found " + Display.outcome(r.value(), last));
    }

    private TestResult fails(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Origin at = t.origin();
        String pattern = t.pattern().map(Display::pattern).orElse("_");
        Run r = call(l.words().get(0));
        if (r.stopped()) return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but the expression stopped with a checked run-time error: " + r.error());
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk()) {
            // Expecting OverBudget and getting a value: say what each ask reserved, so the reservation is not a guess.
            String reserved = pattern.equals("OverBudget") && last != null ? reservations(last) : "";
            return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but found the value " + Display.outcome(r.value()) + reserved);
        }
        // The pattern's matcher takes the failure, in the expression's world, and answers whether it matches.
        var failureType = ((dev.finch.ir.type.Type.ResultT) r.value().type()).err();
        Run m = call(l.matcher().orElseThrow(), last, List.of(new TypedValue(failureType, v.value())));
        if (m.stopped()) return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but the pattern's match stopped with a checked run-time error: " + m.error());
        if (Boolean.TRUE.equals(m.value().value())) return TestResult.pass(at, t.kind());
        return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but found " + Display.outcome(r.value(), last));
    }

    /** {@code "; its asks reserved: site: reserved $… = …"} for every ask of {@code world} that reserved, or empty. */
    private static String reservations(dev.finch.norman.harness.ScriptedModels world) {
        StringBuilder b = new StringBuilder();
        for (var e : world.trace()) {
            if (e.reservation().isEmpty()) continue;
            b.append(b.length() == 0 ? "; its asks reserved: " : "; ").append(e.site()).append(": ").append(e.reservation());
        }
        return b.toString();
    }

    /** check-within: the expression, whatever its result, spends at most c and takes at most t of simulated time. */
    private TestResult within(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Origin at = t.origin();
        Run c = call(l.words().get(1));
        Run d = call(l.words().get(2));
        if (c.stopped() || d.stopped()) return TestResult.fail(at, t.kind(), "the limits stopped with a checked run-time error: " + (c.stopped() ? c : d).error());
        ResultValue cv = (ResultValue) c.value().value();
        ResultValue dv = (ResultValue) d.value().value();
        if (!cv.isOk() || !dv.isOk()) return TestResult.fail(at, t.kind(), "the limits of check-within failed");
        dev.finch.vm.value.Money cost = (dev.finch.vm.value.Money) cv.value();
        dev.finch.vm.value.Duration time = (dev.finch.vm.value.Duration) dv.value();
        ScriptedModels w = world(t);
        traced = w;
        Run r = call(l.words().get(0), w);
        if (r.stopped()) return TestResult.fail(at, t.kind(), "the expression stopped with a checked run-time error: " + r.error());
        boolean costOk = cost.unlimited() || w.spent() <= cost.micros();
        boolean timeOk = time.unlimited() || w.elapsed() <= time.millis();
        if (costOk && timeOk) return TestResult.pass(at, t.kind());
        return TestResult.fail(at, t.kind(), "expected at most " + String.valueOf(cost) + " and " + time + " but the expression spent "
                + dev.finch.vm.value.Money.ofMicros(w.spent()) + " and took " + dev.finch.vm.value.Duration.ofMillis(w.elapsed()));
    }

    private TestResult errs(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Origin at = t.origin();
        Run r = call(l.words().get(0));
        if (r.stopped()) {
            if (r.checkedError().isPresent()) return TestResult.pass(at, t.kind());
            return TestResult.fail(at, t.kind(), "expected a checked run-time error but the run stopped otherwise: " + r.error());
        }
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk()) return TestResult.fail(at, t.kind(), "expected a checked run-time error but found the value " + Display.outcome(r.value()));
        return TestResult.fail(at, t.kind(), "expected a checked run-time error but found " + Display.outcome(r.value())
                + " (a failure is a value, not an error)");
    }
}
