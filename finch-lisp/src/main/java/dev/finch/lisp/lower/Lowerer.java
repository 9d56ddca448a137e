package dev.finch.lisp.lower;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.instr.Module;
import dev.finch.lisp.syntax.Sx;
import java.util.List;

/** Expanded datums to an IR module: analysis with type inference, then emission. */
public final class Lowerer {
    /** At most this many diagnostics are reported for one submission. */
    public static final int MAX_DIAGNOSTICS = 20;

    private Lowerer() { }

    /** The names of Lisp's special forms (decisions D8), as the analyzer dispatches them: discovery must describe each. */
    public static java.util.Set<String> specialForms() { return Forms.NAMES; }

    /** Lowers a submission's expanded top-level forms, or throws every diagnostic found. */
    public static Module lower(List<Sx> forms, String sourceId, Environment env) {
        Analyzer a = new Analyzer(sourceId, env);
        a.analyze(forms);
        if (!a.diagnostics.isEmpty()) {
            throw new DiagnosticException(a.diagnostics.subList(0, Math.min(MAX_DIAGNOSTICS, a.diagnostics.size())));
        }
        return Emitter.emit(a, sourceId);
    }
}
