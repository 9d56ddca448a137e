package dev.finch.norman.harness;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Module;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanCode;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.RunResult;
import dev.finch.vm.TypedValue;
import dev.finch.vm.Vm;
import dev.finch.vm.VmState;
import dev.finch.vm.value.ResultValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs µNorman unit tests: the file loads first, whole (its words compiled and its top level run once, through the
 * same verifier and VM as every Finch program), then each test runs in a fresh world — a new run from the loaded
 * state, so no test sees another's effects. One harness owns one {@link Vm}; close it when done.
 */
public final class TestHarness implements AutoCloseable {
    /** Per-run limits of the load and of each test expression. */
    public static final Limits LIMITS = Limits.DEFAULT.withTimeout(Duration.ofSeconds(20));

    private static final AtomicLong RUNS = new AtomicLong();
    private final Norman frontend;
    private final Vm vm = new Vm();

    /** A harness whose frontend resolves {@code use} through {@code loader}. */
    public TestHarness(SourceLoader loader) { this.frontend = new Norman(loader); }

    /** A harness resolving {@code use} on the file system. */
    public TestHarness() { this(SourceLoader.fileSystem()); }

    /** Loads {@code text} (identity {@code sourceId}) and runs every unit test; never throws for a program's faults. */
    public FileReport runAll(String text, String sourceId) {
        Loaded l = load(text, sourceId);
        if (!l.ok()) return new FileReport(sourceId, l.diagnostics(), List.of(), List.of());
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) results.add(l.run(i));
        return new FileReport(sourceId, List.of(), results, l.valFailures());
    }

    /** Checks, lowers, verifies and runs the file's top level once; its tests can then run one by one. */
    public Loaded load(String text, String sourceId) {
        NormanProgram program;
        NormanTests lowered;
        try {
            program = frontend.check(text, sourceId);
            lowered = frontend.lowerTests(program, VmState.EMPTY.library().vocabulary());
        } catch (RuntimeException | StackOverflowError e) {
            return Loaded.failed(List.of(NormanCode.HARNESS_INTERNAL.at(Origin.of(sourceId, 0, 0), "the µNorman frontend failed on this file: " + e)));
        }
        if (!lowered.diagnostics().isEmpty() || lowered.module().isEmpty()) {
            return Loaded.failed(lowered.diagnostics().isEmpty() ? program.diagnostics() : lowered.diagnostics());
        }
        Module module = lowered.module().get();
        Verification v = Verifier.verify(module, VmState.EMPTY.environment());
        if (!v.ok()) return Loaded.failed(NormanCode.fromVerifier(v.diagnostics()));
        RunResult r = vm.run(executionId(), v.module().get(), VmState.EMPTY, LIMITS, OutputSink.NONE, new CancelToken());
        if (!(r instanceof RunResult.Completed c)) return Loaded.failed(problems(r, sourceId));
        // The tests start from the loaded definitions with an empty stack: top-level values are not their input.
        VmState base = c.state().withStack(List.of());
        List<String> valFailures = new ArrayList<>();
        for (NormanTests.FailingVal fv : lowered.failingVals()) {
            TypedValue tv = base.constants().get(fv.name());
            if (tv != null && tv.value() instanceof ResultValue rv && !rv.isOk()) {
                valFailures.add(fv.origin() + ": val " + fv.name() + " failed, so it is not bound: " + Display.failure(tv));
            }
        }
        return new Loaded(this, sourceId, base, lowered.tests(), valFailures, List.of(), lowered.agents());
    }

    /**
     * What running a file's top level under one of its scripts came to: the diagnostics that stopped it (empty when it
     * completed) and the world it ran in (its trace, spend and simulated time).
     */
    public record ScriptedRun(List<Diagnostic> diagnostics, ScriptedModels world) {
        public ScriptedRun { diagnostics = List.copyOf(diagnostics); }

        /** True when the top level ran to its end. */
        public boolean ok() { return diagnostics.isEmpty(); }
    }

    /**
     * Checks, lowers and verifies {@code text} and runs its top level once in a fresh world under its script
     * {@code script} (the file's grants granted, as in a test), its {@code say} output to {@code out}. Tests are not run.
     *
     * @throws IllegalArgumentException when the file loads but has no script of that name (the message names those it has)
     */
    public ScriptedRun runUnder(String text, String sourceId, String script, OutputSink out) {
        NormanProgram program;
        NormanTests lowered;
        try {
            program = frontend.check(text, sourceId);
            lowered = frontend.lowerTests(program, VmState.EMPTY.library().vocabulary());
        } catch (RuntimeException | StackOverflowError e) {
            return new ScriptedRun(List.of(NormanCode.HARNESS_INTERNAL.at(Origin.of(sourceId, 0, 0), "the µNorman frontend failed on this file: " + e)), null);
        }
        if (!lowered.diagnostics().isEmpty() || lowered.module().isEmpty()) {
            return new ScriptedRun(lowered.diagnostics().isEmpty() ? program.diagnostics() : lowered.diagnostics(), null);
        }
        dev.finch.norman.Ast.Script s = lowered.agents().scripts().get(script);
        if (s == null) {
            throw new IllegalArgumentException(sourceId + " has no script " + script + " (its scripts: "
                    + (lowered.agents().scripts().isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(lowered.agents().scripts().keySet()))) + ")");
        }
        ScriptedModels world = new ScriptedModels(new ScriptedModels.Script(s), -1, -1);
        Verification v = Verifier.verify(lowered.module().get(), VmState.EMPTY.environment());
        if (!v.ok()) return new ScriptedRun(NormanCode.fromVerifier(v.diagnostics()), world);
        RunResult r = vm.run(executionId(), v.module().get(), VmState.EMPTY, LIMITS, out, new CancelToken(),
                dev.finch.vm.host.HostConfig.NONE.withGrants(Loaded.grantsOf(lowered.agents())).withModels(world).withTools(world));
        return new ScriptedRun(r instanceof RunResult.Completed ? List.of() : problems(r, sourceId), world);
    }

    /** What a run that did not complete reports. */
    static List<Diagnostic> problems(RunResult r, String sourceId) {
        if (r instanceof RunResult.Failed f) return f.diagnostics();
        if (r instanceof RunResult.Cancelled x) return List.of(x.reason());
        return List.of(NormanCode.LOAD_SUSPENDED.at(Origin.of(sourceId, 0, 0), "the program suspended (yield) while loading; a µNorman file never yields"));
    }

    /**
     * True for a checked run-time error: an execute-phase diagnostic raised because the program is wrong
     * (program-error, unwrap of none, arithmetic, show refusing, an uncaught failure at the top level) — not a
     * resource limit, a cancellation or a defect of Finch.
     */
    static boolean isCheckedRuntimeError(Diagnostic d) {
        if (d.phase() != Phase.EXECUTE) return false;
        String c = d.code();
        return !c.startsWith("E-LIMIT-") && !c.equals("E-RUN-001") && !c.equals("E-RUN-002") && !c.equals("E-RUN-003") && !c.equals("E-RUN-004");
    }

    RunResult run(Module m, VmState base, dev.finch.vm.host.HostConfig host) {
        Verification v = Verifier.verify(m, base.environment());
        if (!v.ok()) return new RunResult.Failed(NormanCode.fromVerifier(v.diagnostics()), "");
        return vm.run(executionId(), v.module().get(), base, LIMITS, OutputSink.NONE, new CancelToken(), host);
    }

    private static String executionId() { return "norman-test-" + RUNS.incrementAndGet(); }

    @Override public void close() { vm.close(); }
}
