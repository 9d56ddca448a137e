package dev.finch.norman.test;

import dev.finch.norman.harness.ScriptedModels;
import dev.finch.ir.diag.Origin;
import dev.finch.norman.Ast;

/**
 * The result of one µNorman unit test.
 *
 * @param origin  where the test is written (its name: {@code file:line:col})
 * @param kind    the test form
 * @param passed  whether it passed
 * @param message why it failed (expected and found displayed with {@code show}); empty when it passed
 * @param trace   every ask and call of the tested expression's world, in order (its first expression; check-within's
 *                measured run); empty when it asked and called nothing
 * @param spent   what that world spent, in micro-dollars
 * @param elapsed the simulated time that world took, in milliseconds
 */
public record TestResult(Origin origin, Ast.TestKind kind, boolean passed, String message, java.util.List<ScriptedModels.TraceEntry> trace,
                         long spent, long elapsed) {
    public TestResult { trace = java.util.List.copyOf(trace); }

    /** A result without a trace, spend or time. */
    public TestResult(Origin origin, Ast.TestKind kind, boolean passed, String message) { this(origin, kind, passed, message, java.util.List.of(), 0, 0); }

    /** This result with the trace, spend and time of {@code world}. */
    TestResult withWorld(ScriptedModels world) { return new TestResult(origin, kind, passed, message, world.trace(), world.spent(), world.elapsed()); }

    /** A passing result. */
    static TestResult pass(Origin origin, Ast.TestKind kind) { return new TestResult(origin, kind, true, ""); }

    /** A failing result with its reason. */
    static TestResult fail(Origin origin, Ast.TestKind kind, String message) { return new TestResult(origin, kind, false, message); }

    /** The test's name: its source location and form, e.g. {@code basics.nm:3:1 check-expect}. */
    public String name() { return origin + " " + kind.spelling(); }
}
