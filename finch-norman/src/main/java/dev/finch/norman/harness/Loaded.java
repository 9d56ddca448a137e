package dev.finch.norman.harness;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.norman.Ast;
import dev.finch.norman.NormanTests;
import dev.finch.norman.UnitTest;
import dev.finch.vm.RunResult;
import dev.finch.vm.TypedValue;
import dev.finch.vm.VmState;
import dev.finch.vm.value.ResultValue;
import java.util.List;
import java.util.Optional;

/**
 * A loaded µNorman file (or the diagnostics that stopped it loading) whose unit tests run one at a time, each in
 * a fresh world: a new VM run from the loaded state. Used by {@code finch test} and by the JUnit engine, which
 * reports each test separately.
 */
public final class Loaded {
    private final TestHarness harness;
    private final String source;
    private final VmState base;
    private final List<NormanTests.Lowered> tests;
    private final List<String> valFailures;
    private final List<Diagnostic> diagnostics;

    Loaded(TestHarness harness, String source, VmState base, List<NormanTests.Lowered> tests, List<String> valFailures, List<Diagnostic> diagnostics) {
        this.harness = harness;
        this.source = source;
        this.base = base;
        this.tests = List.copyOf(tests);
        this.valFailures = List.copyOf(valFailures);
        this.diagnostics = List.copyOf(diagnostics);
    }

    static Loaded failed(List<Diagnostic> diagnostics) { return new Loaded(null, null, null, List.of(), List.of(), diagnostics); }

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

    /** Runs the {@code i}th unit test in a fresh world. */
    public TestResult run(int i) {
        NormanTests.Lowered l = tests.get(i);
        UnitTest t = l.test();
        Origin at = t.origin();
        Ast.TestKind kind = t.kind();
        try {
            switch (kind) {
                case CHECK_EXPECT: return same(l, "expected");
                case CHECK_EQUIV:
                    if (!t.grade().orElse("").equals("value")) {
                        return TestResult.fail(at, kind, "grade '" + t.grade().orElse("?") + " needs issue 8 (the agentic forms: the world, the trace "
                                + "and spending); only 'value is checked so far");
                    }
                    return same(l, "equivalent to");
                case CHECK_ASSERT: return asserted(l);
                case CHECK_FAIL: return fails(l);
                case CHECK_ERROR: return errs(l);
                case CHECK_WITHIN:
                default:
                    return TestResult.fail(at, kind, kind.spelling() + " needs issue 8 (budgets and the simulated clock)");
            }
        } catch (RuntimeException e) {
            return TestResult.fail(at, kind, "the test harness failed (a defect of Finch, not of the program): " + e);
        }
    }

    /** One expression run on its own: its result, or the diagnostics of the run that stopped. */
    private record Run(TypedValue value, Object extra, List<Diagnostic> errors) {
        boolean stopped() { return value == null; }

        String error() {
            Diagnostic d = errors.isEmpty() ? null : errors.get(0);
            return d == null ? "the run stopped" : d.code() + " " + d.message();
        }
    }

    private Run call(String word, Origin at, Instr... after) {
        List<Instr> main = new java.util.ArrayList<>();
        main.add(new Instr.Call(word, at));
        main.addAll(List.of(after));
        RunResult r = harness.run(new Module(source, "norman", List.of(), new Block(main)), base);
        if (r instanceof RunResult.Completed c) {
            List<TypedValue> stack = c.state().stack();
            return new Run(stack.get(0), stack.size() > 1 ? stack.get(1).value() : null, List.of());
        }
        return new Run(null, null, TestHarness.problems(r, source));
    }

    private TestResult same(NormanTests.Lowered l, String relation) {
        UnitTest t = l.test();
        Run found = call(l.words().get(0), t.exps().get(0).origin());
        if (found.stopped()) return TestResult.fail(t.origin(), t.kind(), "the expression stopped with a checked run-time error: " + found.error());
        Run expected = call(l.words().get(1), t.exps().get(1).origin());
        if (expected.stopped()) return TestResult.fail(t.origin(), t.kind(), "the expected expression stopped with a checked run-time error: " + expected.error());
        ResultValue a = (ResultValue) found.value().value();
        ResultValue b = (ResultValue) expected.value().value();
        var ta = (dev.finch.ir.type.Type.ResultT) found.value().type();
        var tb = (dev.finch.ir.type.Type.ResultT) expected.value().type();
        boolean equal = a.isOk() == b.isOk()
                && (a.isOk() ? Display.same(ta.ok(), a.value(), tb.ok(), b.value()) : Display.same(ta.err(), a.value(), tb.err(), b.value()));
        if (equal) return TestResult.pass(t.origin(), t.kind());
        return TestResult.fail(t.origin(), t.kind(), relation + " " + Display.outcome(expected.value()) + " but found " + Display.outcome(found.value()));
    }

    private TestResult asserted(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Run r = call(l.words().get(0), t.exps().get(0).origin());
        if (r.stopped()) return TestResult.fail(t.origin(), t.kind(), "the expression stopped with a checked run-time error: " + r.error());
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk() && Boolean.TRUE.equals(v.value())) return TestResult.pass(t.origin(), t.kind());
        return TestResult.fail(t.origin(), t.kind(), "expected true but found " + Display.outcome(r.value()));
    }

    private TestResult fails(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Origin at = t.origin();
        String pattern = t.pattern().map(Display::pattern).orElse("_");
        // The expression's result stays below the verdict of the pattern matcher, for the message.
        Run r = call(l.words().get(0), t.exps().get(0).origin(), new Instr.Call("dup", at),
                new Instr.IfOk(Block.of(new Instr.Call("drop", at), new Instr.Push(new Literal.BoolLit(false), at)),
                        Block.of(new Instr.Call(l.matcher().orElseThrow(), at)), at));
        if (r.stopped()) return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but the expression stopped with a checked run-time error: " + r.error());
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk()) return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but found the value " + Display.outcome(r.value()));
        if (Boolean.TRUE.equals(r.extra())) return TestResult.pass(at, t.kind());
        return TestResult.fail(at, t.kind(), "expected a failure matching " + pattern + " but found " + Display.outcome(r.value()));
    }

    private TestResult errs(NormanTests.Lowered l) {
        UnitTest t = l.test();
        Origin at = t.origin();
        Run r = call(l.words().get(0), t.exps().isEmpty() ? at : t.exps().get(0).origin());
        if (r.stopped()) {
            Optional<Diagnostic> checked = r.errors().stream().filter(TestHarness::isCheckedRuntimeError).findFirst();
            if (checked.isPresent()) return TestResult.pass(at, t.kind());
            return TestResult.fail(at, t.kind(), "expected a checked run-time error but the run stopped otherwise: " + r.error());
        }
        ResultValue v = (ResultValue) r.value().value();
        if (v.isOk()) return TestResult.fail(at, t.kind(), "expected a checked run-time error but found the value " + Display.outcome(r.value()));
        return TestResult.fail(at, t.kind(), "expected a checked run-time error but found " + Display.outcome(r.value())
                + " (a failure is a value, not an error)");
    }
}
