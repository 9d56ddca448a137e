package dev.finch.norman;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.instr.Module;
import dev.finch.ir.limit.CompileBudget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The µNorman frontend (language {@code norman}): reads a file and the files it uses, checks it, infers its types
 * (decisions D10) and lowers it to the shared IR. {@link #check} returns the typed program with its unit tests as
 * data; {@link #lower} the module a session runs; {@link #lowerTests} the module a test harness runs.
 */
public final class Norman implements Frontend {
    /**
     * The names of µNorman's forms: its reserved words (the reference's) and the expression forms {@code list},
     * {@code cons} and {@code .}, as {@code Syntax} reads them. Discovery must describe each.
     */
    public static java.util.Set<String> forms() {
        java.util.Set<String> all = new java.util.TreeSet<>(Syntax.RESERVED);
        all.addAll(java.util.List.of("list", "cons", "."));
        return java.util.Collections.unmodifiableSet(all);
    }

    private static final String BASIS = "basis.nm";
    private final SourceLoader loader;

    /** A frontend that resolves uses on the file system. */
    public Norman() { this(SourceLoader.fileSystem()); }

    /** A frontend that resolves uses through {@code loader}. */
    public Norman(SourceLoader loader) { this.loader = loader; }

    @Override public String language() { return "norman"; }

    @Override
    public Lowering lower(String text, String sourceId, Environment env) {
        NormanProgram p = check(text, sourceId, env.vocabulary(), env.words(), env.budget());
        if (!p.ok()) return Lowering.failed(p.diagnostics());
        Lowerer lowerer = new Lowerer(p.inference, p.basis, language(), env.vocabulary(), env.words());
        try {
            Module m = lowerer.program(p.definitions(), sourceId);
            return lowerer.diagnostics().isEmpty() ? Lowering.of(m) : Lowering.failed(lowerer.diagnostics());
        } catch (DiagnosticException e) {
            return Lowering.failed(e.diagnostics());
        }
    }

    /** Lowers the unit tests of a checked program for the harness (see {@link NormanTests}), over {@code vocabulary}. */
    public NormanTests lowerTests(NormanProgram p, dev.finch.ir.vocab.Vocabulary vocabulary) { return lowerTests(p, vocabulary, false); }

    /**
     * {@link #lowerTests(NormanProgram, dev.finch.ir.vocab.Vocabulary)}; with {@code reportTopLevel}, each top-level
     * expression leaves its {@code result<T,Failure>} and a failing one does not stop the file, so that a run can
     * report every top-level form ({@link NormanTests#topLevel()}).
     */
    public NormanTests lowerTests(NormanProgram p, dev.finch.ir.vocab.Vocabulary vocabulary, boolean reportTopLevel) {
        if (!p.ok()) return new NormanTests(Optional.empty(), List.of(), List.of(), p.diagnostics());
        try {
            return lowered(p, vocabulary, reportTopLevel);
        } catch (DiagnosticException e) {
            // A compile limit crossed while lowering (the program's budget is the one its check used).
            if (!Budgets.crossed(e)) throw e;
            return new NormanTests(Optional.empty(), List.of(), List.of(), e.diagnostics());
        }
    }

    private NormanTests lowered(NormanProgram p, dev.finch.ir.vocab.Vocabulary vocabulary, boolean reportTopLevel) {
        Lowerer lowerer = new Lowerer(p.inference, p.basis, language(), vocabulary);
        if (reportTopLevel) lowerer.reportingTopLevel();
        Map<Ast.Test, List<String>> words = new IdentityHashMap<>();
        Map<Ast.Test, String> matchers = new IdentityHashMap<>();
        Map<Ast.Test, List<Optional<String>>> handlers = new IdentityHashMap<>();
        // An under's limit that is an expression becomes a word the harness runs before the test (literals are read).
        Map<Ast.Exp, String> limits = new IdentityHashMap<>();
        for (UnitTest u : p.tests()) {
            for (Optional<Ast.Exp> lim : List.of(u.cost(), u.time())) {
                if (lim.isPresent() && !isLiteralLimit(lim.get())) limits.computeIfAbsent(lim.get(), e -> "nm.limit." + (limits.size() + 1));
            }
        }
        Module m = lowerer.tests(p.definitions(), p.testDefs, words, matchers, handlers, limits, p.source());
        List<NormanTests.Lowered> out = new ArrayList<>();
        for (int i = 0; i < p.testDefs.size(); i++) {
            Ast.Test t = p.testDefs.get(i);
            UnitTest u = p.tests().get(i);
            out.add(new NormanTests.Lowered(u, words.getOrDefault(t, List.of()), Optional.ofNullable(matchers.get(t)),
                    handlers.getOrDefault(t, List.of()), u.cost().map(limits::get), u.time().map(limits::get)));
        }
        List<NormanTests.FailingVal> vals = new ArrayList<>();
        for (Ast.Val v : lowerer.failingVals(p.definitions())) vals.add(new NormanTests.FailingVal(lowerer.constName(v), v.origin()));
        if (!lowerer.diagnostics().isEmpty()) return new NormanTests(Optional.empty(), out, vals, lowerer.diagnostics());
        Map<String, Ast.Grant> grants = new java.util.LinkedHashMap<>();
        Map<String, Ast.Script> scripts = new java.util.LinkedHashMap<>();
        for (Ast.Def d : p.definitions()) {
            if (d instanceof Ast.Grant g) grants.put(g.name(), g);
            if (d instanceof Ast.Script s) scripts.put(s.name(), s);
        }
        List<NormanTests.TopLevel> top = reportTopLevel ? lowerer.topLevel() : List.of();
        return new NormanTests(Optional.of(m), out, vals, List.of(), new NormanTests.Agents(grants, scripts), top);
    }

    /** Reads, checks and types {@code text} (identity {@code sourceId}, against which uses resolve). */
    public NormanProgram check(String text, String sourceId) { return check(text, sourceId, dev.finch.ir.vocab.Vocabulary.EMPTY); }

    /**
     * Reads, checks and types {@code text} where the host installed words of its own: each of {@code vocabulary}'s
     * host words whose signature µNorman can spell is a predefined function (see {@link Infer}).
     */
    public NormanProgram check(String text, String sourceId, dev.finch.ir.vocab.Vocabulary vocabulary) {
        return check(text, sourceId, vocabulary, Map.of());
    }

    /**
     * Reads, checks and types {@code text} as a later turn of a session whose earlier turns defined {@code sessionWords}
     * (in any language): those µNorman can spell are predefined functions and vals here (see {@link Infer}).
     */
    public NormanProgram check(String text, String sourceId, dev.finch.ir.vocab.Vocabulary vocabulary,
                               Map<String, dev.finch.ir.type.Type.Fn> sessionWords) {
        return check(text, sourceId, vocabulary, sessionWords, CompileBudget.standard());
    }

    /**
     * As {@link #check(String, String, dev.finch.ir.vocab.Vocabulary, Map)}, within {@code budget}: the text and every
     * file it uses are bounded in size, tokens and nesting, and inference is charged as it works and bounded in the
     * size of the types it infers (see {@link dev.finch.ir.limit.CompileLimits}). A crossed limit is the program's one
     * diagnostic; nothing after it is checked.
     */
    public NormanProgram check(String text, String sourceId, dev.finch.ir.vocab.Vocabulary vocabulary,
                               Map<String, dev.finch.ir.type.Type.Fn> sessionWords, CompileBudget budget) {
        Set<Ast.Def> basis = Collections.newSetFromMap(new IdentityHashMap<>());
        Infer inf = new Infer(new Decls(budget), vocabulary, sessionWords, budget);
        try {
            return checked(text, sourceId, budget, basis, inf);
        } catch (DiagnosticException e) {
            if (!Budgets.crossed(e)) throw e;
            return new NormanProgram(sourceId, List.of(), Map.of(), List.of(), e.diagnostics(), inf, basis, List.of());
        }
    }

    private NormanProgram checked(String text, String sourceId, CompileBudget budget, Set<Ast.Def> basis, Infer inf) {
        List<Diagnostic> diagnostics = new ArrayList<>();
        budget.source(text, dev.finch.ir.diag.Origin.of(sourceId, 1, 1));
        Syntax syntax = new Syntax();
        // The basis is Finch's own text: it is read under a budget of its own, and only the submission's tokens count.
        List<Sx> basisDatums = Reader.read(basisText(), "<basis>");
        Loader load = new Loader(loader, budget);
        load.root(text, sourceId);
        diagnostics.addAll(load.diagnostics);
        syntax.declare(basisDatums);
        syntax.declare(load.datums);
        List<Ast.Def> basisDefs = defs(syntax, basisDatums);
        List<Ast.Def> defs = defs(syntax, load.datums);
        diagnostics.addAll(syntax.diagnostics());
        diagnostics.addAll(ScriptChecks.check(defs));
        basis.addAll(basisDefs);
        List<Ast.Test> testDefs = new ArrayList<>();
        List<UnitTest> tests = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        if (diagnostics.isEmpty()) {
            try {
                List<Ast.Def> all = new ArrayList<>(basisDefs);
                all.addAll(defs);
                inf.decls.declareAll(all);
                inf.basis(basisDefs);
                inf.program(defs, true);
                inf.finish();
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                inf.diagnostics.addAll(e.diagnostics());
            }
            diagnostics.addAll(inf.diagnostics);
            for (Ast.Def d : defs) {
                if (d instanceof Ast.Define f) types.put(f.name(), inf.globals.get(f.name()).toString());
                if (d instanceof Ast.Val v) types.put(v.name(), inf.globals.get(v.name()).toString());
            }
        }
        for (Ast.Def d : defs) {
            if (d instanceof Ast.Test t) { testDefs.add(t); tests.add(unit(t, Optional.empty(), inf)); }
            if (d instanceof Ast.Under u) for (Ast.Test t : u.tests()) { testDefs.add(t); tests.add(unit(t, Optional.of(u), inf)); }
        }
        return new NormanProgram(sourceId, defs, types, tests, diagnostics, inf, basis, testDefs);
    }

    /** A limit written as a literal ($1.00, 1min, ∞), which the harness reads without running anything. */
    public static boolean isLiteralLimit(Ast.Exp e) { return e instanceof Ast.Money || e instanceof Ast.Duration || e instanceof Ast.Infinity; }

    private static UnitTest unit(Ast.Test t, Optional<Ast.Under> u, Infer inf) {
        return new UnitTest(t.testKind(), t.origin(), t.exps(), t.pattern(), t.grade(), u.flatMap(Ast.Under::script),
                u.flatMap(Ast.Under::cost), u.flatMap(Ast.Under::time), Optional.ofNullable(inf.staticErrors.get(t)));
    }

    private static List<Ast.Def> defs(Syntax syntax, List<Sx> datums) {
        List<Ast.Def> out = new ArrayList<>();
        for (Sx d : datums) syntax.def(d).ifPresent(out::add);
        return out;
    }

    private static String basisText() {
        try (InputStream in = Norman.class.getResourceAsStream(BASIS)) {
            if (in == null) throw new IllegalStateException("the µNorman basis resource is missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the µNorman basis", e);
        }
    }
}
