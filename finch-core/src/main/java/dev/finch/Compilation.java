package dev.finch;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The compile step of a submission: its frontend lowers it and the verifier checks it against the committed state's
 * environment, under one budget (this Finch's compile limits, the submission's deadline, its cancellation), on the
 * calling thread when it has room and on a big-stack worker otherwise. Compiling has no effect.
 */
final class Compilation {
    /** A compile that only its deadline stops. A class, not a lambda: a fresh JVM's first submission links none. */
    private static final class NotCancelled implements java.util.function.BooleanSupplier {
        @Override
        public boolean getAsBoolean() { return false; }
    }

    /** A compile that stops when its submission is cancelled. */
    record CancelledBy(CancelToken token) implements java.util.function.BooleanSupplier {
        @Override
        public boolean getAsBoolean() { return token.isCancelled(); }
    }

    static final java.util.function.BooleanSupplier NOT_CANCELLED = new NotCancelled();

    private final Finch finch;

    Compilation(Finch finch) { this.finch = finch; }

    /** The lowered and verified module, or the diagnostics that stopped it. */
    record Prepared(CheckedModule module, List<Diagnostic> diagnostics) { }

    /**
     * Lowers and verifies on the calling thread when this Finch's nesting limit is one a default thread stack holds
     * many times over ({@link dev.finch.vm.engine.CallerThread#MAX_NESTING}: the frontends and the verifier recurse over
     * nesting, and nothing else in them is deep) and the calling thread has room on its stack
     * ({@link dev.finch.vm.engine.CallerThread#roomy}). Compiling has no effect, so a caller whose stack still runs out (the
     * frontends and the verifier report that as their internal or nesting code) starts again on a big-stack worker, with
     * a fresh budget on {@code at}; every other submission compiles on a worker. Each attempt's budget meters
     * {@code deadline} and {@code cancelled}.
     */
    Prepared prepare(Submission s, Environment at, long deadline, java.util.function.BooleanSupplier cancelled) {
        if (finch.compileLimits().maxNesting() <= dev.finch.vm.engine.CallerThread.MAX_NESTING && dev.finch.vm.engine.CallerThread.roomy()) {
            try {
                Prepared here = prepareHere(s, at.withBudget(budget(deadline, cancelled)));
                if (!mayBeOutOfStack(here)) return here;
            } catch (StackOverflowError smallStack) {
                // Fall through: the same work on a thread with room for it.
            }
        }
        return finch.vm().onWorker(() -> prepareHere(s, at.withBudget(budget(deadline, cancelled))));
    }

    /** The codes a frontend or the verifier reports when it ran out of stack (they catch it themselves). */
    private static final java.util.Set<String> OUT_OF_STACK = java.util.Set.of(dev.finch.lisp.LispCode.INTERNAL.code(),
            dev.finch.forth.ForthCode.INTERNAL.code(), dev.finch.verifier.VerifyCode.VERIFIER_LIMIT.code());

    /** Whether a failed preparation may have failed for want of the caller's stack (then a worker tries again). */
    private static boolean mayBeOutOfStack(Prepared p) {
        if (p.module() != null) return false;
        for (Diagnostic d : p.diagnostics()) if (OUT_OF_STACK.contains(d.code())) return true;
        return false;
    }

    private Prepared prepareHere(Submission s, Environment env) {
        Optional<Frontend> frontend = finch.frontend(s.resolvedLanguage());
        if (frontend.isEmpty()) {
            return new Prepared(null, List.of(SessionCode.LANGUAGE_UNAVAILABLE.at(Origin.of(s.sourceId(), 0, 0),
                    s.resolvedLanguage().spelling() + " is not available in this build of Finch yet; submit Lisp or Co-Forth")));
        }
        Diagnostic fenced = SubmissionCode.fenced(s.text(), s.sourceId());
        if (fenced != null) return new Prepared(null, List.of(fenced));
        try {
            Origin whole = Origin.of(s.sourceId(), 1, 1);
            env.budget().source(s.text(), whole);
            Lowering lowering = frontend.get().lower(s.text(), s.sourceId(), env);
            if (lowering.module().isEmpty() || !lowering.diagnostics().isEmpty()) {
                return new Prepared(null, nonEmpty(lowering.diagnostics(), s.sourceId(), "the frontend produced no module"));
            }
            env.budget().poll(dev.finch.ir.diag.Phase.LOWER, whole);
            Module module = lowering.module().get();
            Verification v = Verifier.verify(module, env);
            if (v.module().isEmpty() || !v.diagnostics().isEmpty()) {
                // µNorman's checks accept only programs that verify: a rejection is Finch's defect, said in µNorman terms
                List<Diagnostic> ds = s.resolvedLanguage() == Language.NORMAN ? dev.finch.norman.NormanCode.fromVerifier(v.diagnostics()) : v.diagnostics();
                return new Prepared(null, nonEmpty(ds, s.sourceId(), "the verifier produced no module"));
            }
            env.budget().poll(dev.finch.ir.diag.Phase.VERIFY, whole);
            return new Prepared(v.module().get(), List.of());
        } catch (dev.finch.ir.diag.DiagnosticException limit) {
            // A compile limit (or the deadline, or a cancellation) crossed inside a phase that did not catch it itself.
            return new Prepared(null, limit.diagnostics());
        }
    }

    /** One submission's meter of the compile phases: this Finch's compile limits, {@code deadline}, {@code cancelled}. */
    CompileBudget budget(long deadline, java.util.function.BooleanSupplier cancelled) {
        return CompileBudget.of(finch.compileLimits(), deadline, cancelled);
    }

    static List<Diagnostic> nonEmpty(List<Diagnostic> diagnostics, String sourceId, String fallback) {
        // A phase that returns neither a module nor a diagnostic is a defect; never report a silent failure.
        return diagnostics.isEmpty()
                ? List.of(SessionCode.INTERNAL.at(Origin.of(sourceId, 0, 0), "internal error: " + fallback))
                : diagnostics;
    }

    /**
     * The source module with every definition's verified signature spelled out, so the canonical Co-Forth also
     * runs where Co-Forth needs a declaration that Lisp could infer (recursive words).
     */
    static Module withSignatures(CheckedModule m) {
        java.util.Map<String, dev.finch.ir.type.Type.Fn> verified = new java.util.HashMap<>();
        for (CheckedWord w : m.words()) verified.put(w.name(), w.signature());
        List<WordDef> words = new ArrayList<>();
        for (WordDef d : m.source().words()) {
            words.add(d.declared().isPresent() || !verified.containsKey(d.name()) ? d
                    : new WordDef(d.name(), Optional.of(verified.get(d.name())), d.body(), d.origin()));
        }
        return new Module(m.source().source(), m.source().language(), words, m.source().main());
    }

    static List<String> capabilities(CheckedModule m) {
        if (m.inferredCapabilities().isEmpty()) return List.of();
        List<String> out = new ArrayList<>();
        for (Capability c : m.inferredCapabilities()) out.add(c.toString());
        return out;
    }
}
