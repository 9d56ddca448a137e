package dev.finch.forth;

import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import dev.finch.ir.vocab.Vocabulary;
import java.util.List;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;

/**
 * The Co-Forth frontend (decisions D7): text → tokens ({@code CoForth.g4}, no actions) → structure check
 * ({@link Structure}: precise diagnostics for words in a wrong place, bounded nesting) → parse tree →
 * {@link CoForthLowerer} → {@link Module}. Every problem is a {@code parse} or {@code lower} diagnostic
 * ({@link ForthCode}); nothing throws out of {@link #lower}. Instances are stateless and thread-safe.
 */
public final class CoForth implements Frontend {
    /** The language name recorded in modules and outcomes. */
    public static final String LANGUAGE = "forth";

    @Override public String language() { return LANGUAGE; }

    @Override
    public Lowering lower(String text, String sourceId, Environment env) {
        String source = sourceId == null ? Origin.UNKNOWN.source() : sourceId;
        try {
            return run(text == null ? "" : text, source, env == null ? Vocabulary.EMPTY : env.vocabulary());
        } catch (RuntimeException | StackOverflowError e) {
            return Lowering.failed(List.of(ForthCode.INTERNAL.at(Origin.of(source, 1, 1), "internal error in the Co-Forth frontend: " + e)));
        }
    }

    private static Lowering run(String text, String source, Vocabulary vocabulary) {
        DiagnosticListener listener = new DiagnosticListener(source);
        CoForthLexer lexer = new CoForthLexer(CharStreams.fromString(text, source));
        lexer.removeErrorListeners();
        lexer.addErrorListener(listener);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        if (!listener.diagnostics().isEmpty()) return Lowering.failed(listener.diagnostics());

        Structure.Result structure = Structure.scan(tokens.getTokens(), source);
        if (structure.error().isPresent()) return Lowering.failed(List.of(structure.error().get()));
        if (!structure.open().isEmpty()) {
            return Lowering.failed(List.of(Structure.unclosedAtEnd(structure.open().get(0), source)));
        }

        CoForthParser parser = new CoForthParser(tokens);
        parser.removeErrorListeners();
        parser.addErrorListener(listener);
        CoForthParser.ProgramContext tree = parser.program();
        if (!listener.diagnostics().isEmpty()) return Lowering.failed(listener.diagnostics());

        CoForthLowerer lowerer = new CoForthLowerer(source, tokens, vocabulary);
        Module module = lowerer.lower(tree);
        List<Diagnostic> diagnostics = lowerer.diagnostics();
        return diagnostics.isEmpty() ? Lowering.of(module) : Lowering.failed(diagnostics);
    }

    /** The default-channel tokens of {@code text} (for tools such as {@link ForthBuffer}); never throws. */
    static List<Token> tokens(String text) {
        CoForthLexer lexer = new CoForthLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        return tokens.getTokens();
    }
}
