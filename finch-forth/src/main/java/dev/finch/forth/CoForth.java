package dev.finch.forth;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import dev.finch.ir.vocab.Vocabulary;
import java.util.List;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.InputMismatchException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * The Co-Forth frontend (decisions D7): text → tokens ({@link CoForthTokens}: {@code CoForth.g4}'s lexer plus linear
 * scans of the tokens that nest, counted against the submission's compile limits) → structure check
 * ({@link Structure}: precise diagnostics for words in a wrong place, bounded nesting) → parse tree →
 * {@link CoForthLowerer} → {@link Module}; a flat program ({@link CoForthLowerer#flat}: no construct) goes from its
 * tokens straight to the lowerer, as nothing in it can nest or be misplaced. Every problem is a {@code parse} or {@code lower} diagnostic
 * ({@link ForthCode}, or a compile limit's {@code E-LIMIT-…}); nothing throws out of {@link #lower}. The structure
 * check refuses deep nesting before the (recursive) parser and lowerer run, and the first syntax error ends parsing,
 * so every phase is linear in the text. Instances are stateless and thread-safe.
 */
public final class CoForth implements Frontend {
    /** The language name recorded in modules and outcomes. */
    public static final String LANGUAGE = "forth";

    @Override public String language() { return LANGUAGE; }

    @Override
    public Lowering lower(String text, String sourceId, Environment env) { return lower(text, sourceId, env, true); }

    /**
     * {@link #lower}, a {@link CoForthLowerer#flat} program straight from its tokens when {@code flatPath} (the
     * structure check and the parser have nothing to say about it), else through both (the tests compare the two).
     */
    Lowering lower(String text, String sourceId, Environment env, boolean flatPath) {
        String source = sourceId == null ? Origin.UNKNOWN.source() : sourceId;
        try {
            return run(text == null ? "" : text, source, env == null ? Environment.of(Vocabulary.EMPTY) : env, flatPath);
        } catch (DiagnosticException limit) {
            return Lowering.failed(limit.diagnostics());
        } catch (RuntimeException | StackOverflowError e) {
            return Lowering.failed(List.of(ForthCode.INTERNAL.at(Origin.of(source, 1, 1), "internal error in the Co-Forth frontend: " + e)));
        }
    }

    private static Lowering run(String text, String source, Environment env, boolean flatPath) {
        Vocabulary vocabulary = env.vocabulary();
        CompileBudget budget = env.budget();
        DiagnosticListener listener = new DiagnosticListener(source);
        CoForthLexer lexer = new CoForthTokens(CharStreams.fromString(text, source), budget, source);
        lexer.removeErrorListeners();
        lexer.addErrorListener(listener);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        if (!listener.diagnostics().isEmpty()) return Lowering.failed(listener.diagnostics());

        if (flatPath && CoForthLowerer.flat(tokens.getTokens())) {
            budget.poll(Phase.PARSE, Origin.of(source, 1, 1));
            return lowered(new CoForthLowerer(source, tokens, env), null);
        }
        Structure.Result structure = Structure.scan(tokens.getTokens(), source, budget);
        if (structure.error().isPresent()) return Lowering.failed(List.of(structure.error().get()));
        if (!structure.open().isEmpty()) {
            return Lowering.failed(List.of(Structure.unclosedAtEnd(structure.open().get(0), source)));
        }

        CoForthParser.ProgramContext tree;
        try {
            // Two stages, as ANTLR's authors advise: the fast SLL prediction with no error recovery parses every text
            // that has no syntax error; only a text it gives up on is parsed again, fully, to report what is wrong.
            CoForthParser fast = new CoForthParser(tokens);
            fast.removeErrorListeners();
            fast.setErrorHandler(new BailErrorStrategy());
            fast.getInterpreter().setPredictionMode(PredictionMode.SLL);
            tree = fast.program();
        } catch (ParseCancellationException syntaxError) {
            tokens.seek(0);
            CoForthParser parser = new CoForthParser(tokens);
            parser.removeErrorListeners();
            parser.addErrorListener(listener);
            parser.setErrorHandler(new FirstError());
            try {
                tree = parser.program();
            } catch (ParseCancellationException stop) {
                return Lowering.failed(listener.diagnostics());
            }
        }
        if (!listener.diagnostics().isEmpty()) return Lowering.failed(listener.diagnostics());
        budget.poll(Phase.PARSE, Origin.of(source, 1, 1));

        return lowered(new CoForthLowerer(source, tokens, env), tree);
    }

    /** The lowering of {@code tree}, or of the lowerer's flat program when there is no tree. */
    private static Lowering lowered(CoForthLowerer lowerer, CoForthParser.ProgramContext tree) {
        Module module = tree == null ? lowerer.lowerFlat() : lowerer.lower(tree);
        List<Diagnostic> diagnostics = lowerer.diagnostics();
        return diagnostics.isEmpty() ? Lowering.of(module) : Lowering.failed(diagnostics);
    }

    /**
     * Reports the first syntax error and stops: the structure check has already caught what a person or a model
     * gets wrong, and ANTLR's recovery after an error would only add cascades (and work) to it.
     */
    private static final class FirstError extends DefaultErrorStrategy {
        @Override public void recover(Parser recognizer, RecognitionException e) { throw new ParseCancellationException(e); }

        @Override public Token recoverInline(Parser recognizer) {
            InputMismatchException e = new InputMismatchException(recognizer);
            reportError(recognizer, e);
            throw new ParseCancellationException(e);
        }
    }

    /** The tokens of {@code text} (for tools such as {@link ForthBuffer}); never throws. */
    static List<Token> tokens(String text) {
        CoForthLexer lexer = new CoForthTokens(CharStreams.fromString(text), null, Origin.UNKNOWN.source());
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        return tokens.getTokens();
    }
}
