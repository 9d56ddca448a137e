package dev.finch.lisp;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
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
 *       opener) and nesting, the ANTLR lexer ({@code LispLexer.g4}) tokenizes, and the reader builds datums
 *       ({@link Sx}) with origins straight from the tokens;</li>
 *   <li>{@code expand}: bounded {@code define-syntax}/{@code syntax-rules} expansion, binders renamed for hygiene;</li>
 *   <li>{@code types}: Hindley–Milner inference types, unification, schemes and effect classes;</li>
 *   <li>{@code lower}: the analyzer resolves names, types every form and groups top-level definitions by
 *       dependency (mutual recursion, let-polymorphism); the emitter produces {@link Module} with a declared
 *       signature for every word and a full type for every closure.</li>
 * </ol>
 * Every problem is a diagnostic in the {@link Lowering}; no exception escapes. Every phase works within the
 * submission's {@link dev.finch.ir.limit.CompileBudget} ({@link Environment#budget()}): the reader refuses nesting
 * and token counts over the limits before it builds anything, expansion is charged per produced datum, inference per
 * unification step with every inferred type bounded in size and depth, and lowering refuses IR nested past the limit
 * — so no input, however it was built, costs more than the limits before it runs, and no pass recurses deeper than
 * the nesting limit. Instances are stateless and thread-safe.
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

    /** Longest message (and expected/found text) a diagnostic carries; names and types in messages are cut earlier. */
    static final int MAX_MESSAGE_CHARS = 1_000;

    /** The diagnostics with every text cut to {@link #MAX_MESSAGE_CHARS}, so no input makes an outcome large. */
    private static List<Diagnostic> bounded(List<Diagnostic> ds) {
        List<Diagnostic> out = new java.util.ArrayList<>(ds.size());
        for (Diagnostic d : ds) out.add(new Diagnostic(d.phase(), d.code(), cut(d.message()), d.origin(), cut(d.expected()), cut(d.found())));
        return out;
    }

    private static String cut(String text) {
        return text == null || text.length() <= MAX_MESSAGE_CHARS ? text : text.substring(0, MAX_MESSAGE_CHARS - 1) + "…";
    }

    @Override public Lowering lower(String text, String sourceId, Environment env) {
        Environment against = env == null ? Environment.of(dev.finch.ir.vocab.Vocabulary.EMPTY) : env;
        try {
            List<Sx> forms = SyntaxReader.read(text, sourceId, against.budget());
            List<Sx> expanded = new MacroExpander(maxExpansionSteps, maxExpansionDepth, against.budget()).expand(forms);
            Module module = Lowerer.lower(expanded, sourceId, against);
            return Lowering.of(module);
        } catch (DiagnosticException e) {
            return Lowering.failed(bounded(e.diagnostics()));
        } catch (StackOverflowError e) {
            return Lowering.failed(List.of(LispCode.INTERNAL.at(Origin.of(sourceId, 1, 1), "the program is nested too deeply to lower")));
        } catch (RuntimeException e) {
            return Lowering.failed(List.of(LispCode.INTERNAL.at(Origin.of(sourceId, 1, 1), "internal error of the Lisp frontend: " + e)));
        }
    }
}
