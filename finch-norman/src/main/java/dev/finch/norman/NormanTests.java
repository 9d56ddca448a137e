package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import java.util.List;
import java.util.Optional;

/**
 * The unit tests of a program lowered for the harness: one module holding the program (its words, and a main
 * that loads it: vals, top-level expressions) and, per test, words of no inputs answering {@code result<T,Failure>}
 * (one per test expression, in order), plus for check-fail a word {@code Failure -> bool} that matches the pattern.
 * A check-error whose expression has a static error gets one word that raises that error as a checked run-time
 * error ({@code program-error}). {@link #failingVals()} names the vals whose initializer may fail: each is a
 * constant of type {@code result<T,Failure>} after loading, an err when the val failed and bound nothing.
 * {@link #topLevel()} lists the forms that run when the file loads — its vals and top-level expressions, in file order —
 * when the program was lowered to report each ({@link Norman#lowerTests(NormanProgram, dev.finch.ir.vocab.Vocabulary, boolean)}):
 * then each expression leaves its {@code result<T,Failure>}, in this order, and a failure does not stop the rest.
 */
public record NormanTests(Optional<Module> module, List<Lowered> tests, List<FailingVal> failingVals, List<Diagnostic> diagnostics, Agents agents,
                          List<TopLevel> topLevel) {
    public NormanTests {
        tests = List.copyOf(tests);
        failingVals = List.copyOf(failingVals);
        diagnostics = List.copyOf(diagnostics);
        topLevel = List.copyOf(topLevel);
    }

    /** Lowered tests whose top-level expressions are not listed. */
    public NormanTests(Optional<Module> module, List<Lowered> tests, List<FailingVal> failingVals, List<Diagnostic> diagnostics, Agents agents) {
        this(module, tests, failingVals, diagnostics, agents, List.of());
    }

    /** Lowered tests of a program that declares no model grants, scripts or asks. */
    public NormanTests(Optional<Module> module, List<Lowered> tests, List<FailingVal> failingVals, List<Diagnostic> diagnostics) {
        this(module, tests, failingVals, diagnostics, Agents.NONE);
    }

    /**
     * What the test harness needs from the program besides its module: the grants it declares (each becomes the
     * harness's grant of {@code model.ask(NAME)} or {@code tool.call(NAME,*)}) and its scripts. Asks and calls carry
     * their own types ({@link SiteKey}).
     */
    public record Agents(java.util.Map<String, Ast.Grant> grants, java.util.Map<String, Ast.Script> scripts) {
        public static final Agents NONE = new Agents(java.util.Map.of(), java.util.Map.of());

        public Agents { grants = java.util.Map.copyOf(grants); scripts = java.util.Map.copyOf(scripts); }
    }

    /**
     * One test with the names of its words in {@link #module()}. {@code costWord} and {@code timeWord} compute its
     * under's limits when they are expressions rather than literals ({@code result<money|duration,Failure>}).
     * {@code handlers} is aligned with {@code words}: for a
     * compared side that is a catch whose handler answers another type (see {@code Infer}), the word is the caught
     * expression and the handler is a word {@code Failure -> result<T,Failure>} the harness runs, in the same world,
     * only when the expression failed.
     */
    public record Lowered(UnitTest test, List<String> words, Optional<String> matcher, List<Optional<String>> handlers,
                          Optional<String> costWord, Optional<String> timeWord) {
        public Lowered {
            words = List.copyOf(words);
            List<Optional<String>> h = new java.util.ArrayList<>(handlers);
            while (h.size() < words.size()) h.add(Optional.empty());
            handlers = List.copyOf(h);
        }

        public Lowered(UnitTest test, List<String> words, Optional<String> matcher) {
            this(test, words, matcher, List.of(), Optional.empty(), Optional.empty());
        }
    }

    /** A val whose initializer may fail: the constant {@code name} holds its result once the program has loaded. */
    public record FailingVal(String name, Origin origin) { }

    /**
     * A form that runs when the file loads: a val (its name, and the constant holding its result when it may fail) or
     * a top-level expression (no name).
     */
    public record TopLevel(Origin origin, Optional<String> val, Optional<String> resultConstant) {
        public boolean isVal() { return val.isPresent(); }
    }
}
