package dev.finch.norman.test;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.CapabilitySpec;
import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanCode;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.norman.harness.WorldMemory;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.TypedValue;
import dev.finch.vm.value.ResultValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs µNorman unit tests: the file loads first, whole (its words compiled and its top level run once), then each test
 * runs in a fresh world — a call of the test's word from the loaded state, so no test sees another's effects. Every
 * program runs through finch-core's public pipeline: the file is one {@link Submission} to a {@link Session} of the
 * harness's {@link Finch} (whose µNorman frontend lowers the file together with its tests,
 * {@link Finch.Builder#frontend}), and each test a {@link Session#call} against the scripted models and tools of its
 * world. One harness owns one Finch; close it when done.
 */
public final class TestHarness implements AutoCloseable {
    /** Per-run limits of the load and of each test expression. */
    public static final Limits LIMITS = Limits.DEFAULT.withTimeout(Duration.ofSeconds(20));

    private final Norman frontend;
    private final WithTests lowering;
    private final Finch finch;

    /** A harness whose frontend resolves {@code use} through {@code loader}. */
    public TestHarness(SourceLoader loader) {
        this.frontend = new Norman(loader);
        this.lowering = new WithTests(frontend);
        this.finch = Finch.builder().timeout(LIMITS.timeout()).frontend(Language.NORMAN, lowering).build();
    }

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
        Lowered lowered = lower(text, sourceId);
        if (lowered.failed() != null) return Loaded.failed(lowered.failed());
        Session session = finch.newSession(lowered.options());
        Outcome o = lowering.submit(session, lowered, Submission.of(text, sourceId).withLanguage(Language.NORMAN), null);
        if (!(o instanceof Outcome.Completed)) return Loaded.failed(problems(session, o, sourceId));
        // The tests start from the loaded definitions; a call runs on its own arguments, never on the top level's values.
        List<String> valFailures = new ArrayList<>();
        for (NormanTests.FailingVal fv : lowered.tests().failingVals()) {
            Outcome v = session.call(fv.name());
            if (!(v instanceof Outcome.Completed) || v.values().isEmpty()) continue;
            TypedValue tv = TypedValue.of(v.values().get(0));
            if (tv.value() instanceof ResultValue rv && !rv.isOk()) {
                valFailures.add(fv.origin() + ": val " + fv.name() + " failed, so it is not bound: " + Display.failure(tv));
            }
        }
        return new Loaded(session, sourceId, lowered.tests().tests(), valFailures, List.of(), lowered.tests().agents());
    }

    /**
     * What running a file's top level under one of its scripts came to: the diagnostics that stopped it (empty when it
     * ran to its end), the world it ran in (its trace, spend and simulated time), the run's outcome (absent when the
     * file did not load) and, when it ran to its end, what each top-level expression came to, in file order.
     */
    public record ScriptedRun(List<Diagnostic> diagnostics, ScriptedModels world, Optional<Outcome> outcome, List<TopLevelForm> forms) {
        public ScriptedRun {
            diagnostics = List.copyOf(diagnostics);
            forms = List.copyOf(forms);
        }

        ScriptedRun(List<Diagnostic> diagnostics, ScriptedModels world) { this(diagnostics, world, Optional.empty(), List.of()); }

        /** True when the top level ran to its end and no top-level expression failed. */
        public boolean ok() { return diagnostics.isEmpty() && forms.stream().allMatch(TopLevelForm::ok); }
    }

    /**
     * One form that ran when the file loaded: a val, or a top-level expression with its value — the IR type and
     * {@code show}'s text — or the failure it ended with (which did not stop the rest of the file).
     *
     * @param origin where the form is
     * @param val the val's name, or empty for a top-level expression
     * @param ok true when it answered a value (a val: it was bound), false when it failed
     * @param type the IR type of an expression's value or of a failure ({@code Failure}'s); empty for a bound val
     * @param display µNorman's text of that value or failure ({@code show}'s, else the VM's rendering); empty for a bound val
     */
    public record TopLevelForm(Origin origin, Optional<String> val, boolean ok, String type, String display) { }

    /**
     * Checks, lowers and verifies {@code text} and runs its top level once in a fresh world under its script
     * {@code script} (the file's grants granted, as in a test), its {@code say} output to {@code out}. Tests are not run.
     *
     * @throws IllegalArgumentException when the file loads but has no script of that name (the message names those it has)
     */
    public ScriptedRun runUnder(String text, String sourceId, String script, OutputSink out) {
        Lowered lowered = lower(text, sourceId, true);
        if (lowered.failed() != null) return new ScriptedRun(lowered.failed(), null);
        Map<String, dev.finch.norman.Ast.Script> scripts = lowered.tests().agents().scripts();
        dev.finch.norman.Ast.Script s = scripts.get(script);
        if (s == null) {
            throw new IllegalArgumentException(sourceId + " has no script " + script + " (its scripts: "
                    + (scripts.isEmpty() ? "none" : String.join(", ", new TreeSet<>(scripts.keySet()))) + ")");
        }
        ScriptedModels world = new ScriptedModels(new ScriptedModels.Script(s), -1, -1);
        Session session = finch.newSession(lowered.options());
        Outcome o = lowering.submit(session, lowered, Submission.of(text, sourceId).withLanguage(Language.NORMAN).withSink(out), world);
        if (!(o instanceof Outcome.Completed)) return new ScriptedRun(problems(session, o, sourceId), world, Optional.of(o), List.of());
        // Each top-level expression left its result<T,Failure>, in file order, above nothing else of this fresh session;
        // a val that may fail holds its result in a constant.
        List<dev.finch.vm.Value> values = o.values();
        List<TopLevelForm> forms = new ArrayList<>();
        int next = 0;
        for (NormanTests.TopLevel f : lowered.tests().topLevel()) {
            if (f.isVal()) {
                TypedValue tv = f.resultConstant().map(c -> session.call(c)).filter(v -> v instanceof Outcome.Completed && !v.values().isEmpty())
                        .map(v -> TypedValue.of(v.values().get(0))).orElse(null);
                if (tv == null || ((ResultValue) tv.value()).isOk()) forms.add(new TopLevelForm(f.origin(), f.val(), true, "", ""));
                else forms.add(form(f, tv));
            } else if (next < values.size()) {
                forms.add(form(f, TypedValue.of(values.get(next++))));
            }
        }
        return new ScriptedRun(List.of(), world, Optional.of(o), forms);
    }

    /** A form whose result<T,Failure> is {@code tv}: its value, or its failure. */
    private static TopLevelForm form(NormanTests.TopLevel f, TypedValue tv) {
        ResultValue r = (ResultValue) tv.value();
        dev.finch.ir.type.Type.ResultT t = (dev.finch.ir.type.Type.ResultT) tv.type();
        dev.finch.ir.type.Type shown = r.isOk() ? t.ok() : t.err();
        return new TopLevelForm(f.origin(), f.val(), r.isOk(), shown.toString(), Display.value(shown, r.value()));
    }

    /** A file checked and lowered with its tests, and the session options its runs need; or why it was not. */
    record Lowered(String text, String sourceId, NormanTests tests, SessionOptions options, List<Diagnostic> failed) { }

    /** Checks and lowers {@code text} with its unit tests over this harness's vocabulary; never throws. */
    private Lowered lower(String text, String sourceId) { return lower(text, sourceId, false); }

    /** {@link #lower(String, String)}; with {@code reportTopLevel}, each top-level expression leaves its result (see {@link NormanTests#topLevel()}). */
    private Lowered lower(String text, String sourceId, boolean reportTopLevel) {
        NormanProgram program;
        NormanTests lowered;
        try {
            program = frontend.check(text, sourceId);
            lowered = frontend.lowerTests(program, finch.vocabulary(), reportTopLevel);
        } catch (RuntimeException | StackOverflowError e) {
            return new Lowered(text, sourceId, null, null,
                    List.of(NormanCode.HARNESS_INTERNAL.at(Origin.of(sourceId, 0, 0), "the µNorman frontend failed on this file: " + e)));
        }
        if (!lowered.diagnostics().isEmpty() || lowered.module().isEmpty()) {
            return new Lowered(text, sourceId, null, null, lowered.diagnostics().isEmpty() ? program.diagnostics() : lowered.diagnostics());
        }
        SessionOptions options = SessionOptions.DEFAULT;
        for (String grant : grantsOf(lowered.agents())) options = options.withGrant(grant);
        return new Lowered(text, sourceId, lowered, options, null);
    }

    /**
     * The host grants of a file's grants: {@code model.ask(name)} for each model, {@code tool.call(name,*)} for each tool,
     * {@code memory.read(tree=T,path=**)} and {@code memory.write(tree=T,path=**)} for each memory grant's tree, so an
     * ask passes the host boundary only for a model the program declared and memory only in the trees it declared (a
     * grant is the host–program contract, and in a test run the harness is the host that accepts it). A name the
     * capability grammar cannot spell is never granted.
     */
    static List<String> grantsOf(NormanTests.Agents agents) {
        List<String> out = new ArrayList<>();
        for (String name : new TreeSet<>(agents.grants().keySet())) {
            dev.finch.norman.Ast.Grant g = agents.grants().get(name);
            List<String> specs = g.isModel() ? List.of("model.ask(" + name + ")")
                    : g.isMemory() ? g.tree().map(t -> List.of("memory.read(tree=" + t + ",path=**)", "memory.write(tree=" + t + ",path=**)")).orElse(List.of())
                    : List.of("tool.call(" + name + ",*)");
            for (String spec : specs) if (CapabilitySpec.parse(spec).isOk() && !out.contains(spec)) out.add(spec);
        }
        return out;
    }

    /** What a run that did not complete reports; a suspended one is cancelled (a µNorman file never yields). */
    static List<Diagnostic> problems(Session session, Outcome o, String sourceId) {
        if (o instanceof Outcome.Suspended) {
            session.cancel(o.executionId());
            return List.of(NormanCode.LOAD_SUSPENDED.at(Origin.of(sourceId, 0, 0), "the program suspended (yield) while loading; a µNorman file never yields"));
        }
        return o.diagnostics();
    }

    /**
     * The harness's µNorman frontend: the file a harness submits is lowered with its unit tests — once, by
     * {@link #lower}, before the session opens (its grants are the session's) — and handed to the session here; any other
     * µNorman text is lowered with its tests afresh.
     */
    private static final class WithTests implements Frontend {
        private final Norman norman;
        private final Map<String, Lowered> handing = new ConcurrentHashMap<>();

        WithTests(Norman norman) { this.norman = norman; }

        @Override public String language() { return norman.language(); }

        /** Submits {@code sub} (the text {@code lowered} was lowered from) to {@code session}, in {@code world} when given. */
        Outcome submit(Session session, Lowered lowered, Submission sub, ScriptedModels world) {
            handing.put(session.id(), lowered);
            try {
                // Without a script the top level runs with no model or tool host (an ask or call there stops it) and
                // memory of its own: every test starts from empty memory, whatever the top level wrote.
                return world == null ? session.submit(sub, null, null, new WorldMemory()) : session.submit(sub, world, world, world.memory());
            } finally {
                handing.remove(session.id());
            }
        }

        @Override public Lowering lower(String text, String sourceId, Environment env) {
            NormanTests t = null;
            for (Lowered l : handing.values()) {
                if (l.text().equals(text) && l.sourceId().equals(sourceId)) t = l.tests();
            }
            try {
                if (t == null) t = norman.lowerTests(norman.check(text, sourceId), env.vocabulary());
            } catch (RuntimeException | StackOverflowError e) {
                return Lowering.failed(List.of(NormanCode.HARNESS_INTERNAL.at(Origin.of(sourceId, 0, 0), "the µNorman frontend failed on this file: " + e)));
            }
            return t.module().isPresent() && t.diagnostics().isEmpty() ? Lowering.of(t.module().get()) : Lowering.failed(t.diagnostics());
        }
    }

    @Override public void close() { finch.close(); }
}
