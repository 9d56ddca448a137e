package dev.finch.norman.harness;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Ast;

/**
 * The result of one µNorman unit test.
 *
 * @param origin  where the test is written (its name: {@code file:line:col})
 * @param kind    the test form
 * @param passed  whether it passed
 * @param message why it failed (expected and found displayed with {@code show}); empty when it passed
 */
public record TestResult(Origin origin, Ast.TestKind kind, boolean passed, String message) {
    /** A passing result. */
    static TestResult pass(Origin origin, Ast.TestKind kind) { return new TestResult(origin, kind, true, ""); }

    /** A failing result with its reason. */
    static TestResult fail(Origin origin, Ast.TestKind kind, String message) { return new TestResult(origin, kind, false, message); }

    /** The test's name: its source location and form, e.g. {@code basics.nm:3:1 check-expect}. */
    public String name() { return origin + " " + kind.spelling(); }
}
