package dev.finch.lisp;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import dev.finch.lisp.expand.MacroExpander;
import dev.finch.lisp.lower.Lowerer;
import dev.finch.lisp.syntax.Sx;
import dev.finch.lisp.syntax.SyntaxReader;
import java.util.List;

/**
 * The Lisp frontend (decisions D8): Scheme-style source lowered straight into the shared typed stack IR.
 * <p>
 * The pipeline, one package per phase:
 * <ol>
 *   <li>{@code syntax}: {@link dev.finch.lisp.syntax.DelimiterScan} checks balance (an unclosed form points at its
 *       opener), the ANTLR grammar {@code Lisp.g4} reads datums ({@link Sx}) with origins;</li>
 *   <li>{@code expand}: bounded {@code define-syntax}/{@code syntax-rules} expansion, binders renamed for hygiene;</li>
 *   <li>{@code types}: Hindley–Milner inference types, unification, schemes and effect classes;</li>
 *   <li>{@code lower}: the analyzer resolves names, types every form and groups top-level definitions by
 *       dependency (mutual recursion, let-polymorphism); the emitter produces {@link Module} with a declared
 *       signature for every word and a full type for every closure.</li>
 * </ol>
 * Every problem is a diagnostic in the {@link Lowering}; no exception escapes. Instances are stateless and thread-safe.
 */
public final class Lisp implements Frontend {
    private final int maxExpansionSteps;
    private final int maxExpansionDepth;

    /** A frontend with the default macro limits (10,000 expansion steps, depth 100). */
    public Lisp() { this(MacroExpander.DEFAULT_MAX_STEPS, MacroExpander.DEFAULT_MAX_DEPTH); }

    /** A frontend with explicit macro expansion limits. */
    public Lisp(int maxExpansionSteps, int maxExpansionDepth) {
        this.maxExpansionSteps = maxExpansionSteps;
        this.maxExpansionDepth = maxExpansionDepth;
    }

    @Override public String language() { return "lisp"; }

    @Override public Lowering lower(String text, String sourceId, Environment env) {
        try {
            List<Sx> forms = SyntaxReader.read(text, sourceId);
            List<Sx> expanded = new MacroExpander(maxExpansionSteps, maxExpansionDepth).expand(forms);
            Module module = Lowerer.lower(expanded, sourceId, env == null ? Environment.of(dev.finch.ir.vocab.Vocabulary.EMPTY) : env);
            return Lowering.of(module);
        } catch (DiagnosticException e) {
            return Lowering.failed(e.diagnostics());
        } catch (StackOverflowError e) {
            return Lowering.failed(List.of(LispCode.INTERNAL.at(Origin.of(sourceId, 1, 1), "the program is nested too deeply to lower")));
        } catch (RuntimeException e) {
            return Lowering.failed(List.of(LispCode.INTERNAL.at(Origin.of(sourceId, 1, 1), "internal error of the Lisp frontend: " + e)));
        }
    }
}
