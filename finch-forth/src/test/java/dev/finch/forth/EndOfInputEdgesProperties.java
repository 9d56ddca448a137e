package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.frontend.lex.EndOfInputEdges;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;
import org.junit.jupiter.api.Test;

/** A lexer that keeps its transitions on end of input reads every text exactly as ANTLR's own simulator does. */
class EndOfInputEdgesProperties {
    private static final EndOfInputEdges EDGES = new EndOfInputEdges();

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> token = Arbitraries.of(":", ";", ":>", "if", "if-some", "then", "[", "]", "[:", ";]", "{", "}", ",",
                "\"", "\"s\"", "s\"", "\"a\\", "\\", "\\ c", "x:", "[']", "constant", "true", "1", "-12", "0x1f", "1.5", "2e9",
                "1e", "+nan.0", "'sym", "'", "?", "dup", "list{", "}list", "map{", "-", "+inf.0", "é", "\t", "\n");
        return token.list().ofMaxSize(12).map(ts -> String.join(" ", ts)).map(s -> s.isEmpty() ? s : s.trim());
    }

    @Property(tries = 2000)
    void keptTransitionsOnEndOfInputReadTheSameTokens(@ForAll("texts") String text) {
        CoForthLexer cached = new CoForthLexer(CharStreams.fromString(text));
        EDGES.install(cached);
        // Twice with the kept transitions (the second lex of a text takes them all from the map), once without.
        assertThat(tokens(cached)).as(text).isEqualTo(tokens(new CoForthLexer(CharStreams.fromString(text))));
        CoForthLexer again = new CoForthLexer(CharStreams.fromString(text));
        EDGES.install(again);
        assertThat(tokens(again)).as(text).isEqualTo(tokens(new CoForthLexer(CharStreams.fromString(text))));
    }

    @Test
    void aTextEndingInAWordIsPredictedOnceThenRead() {
        EndOfInputEdges edges = new EndOfInputEdges();
        for (int i = 0; i < 100; i++) {
            CoForthLexer lexer = new CoForthLexer(CharStreams.fromString((1_000_000 + i) + " :> x x 2 * 1 +"));
            edges.install(lexer);
            tokens(lexer);
        }
        // One kept transition: the DFA state after a final `+`, on end of input — not one per text.
        assertThat(edges.size()).isEqualTo(1);
    }

    private static List<String> tokens(Lexer lexer) {
        lexer.removeErrorListeners();
        List<String> out = new ArrayList<>();
        for (Token t = lexer.nextToken(); ; t = lexer.nextToken()) {
            out.add(t.getType() + "@" + t.getStartIndex() + ".." + t.getStopIndex() + "/" + t.getChannel());
            if (t.getType() == Token.EOF) return out;
        }
    }
}
