package dev.finch.frontend.lex;

import java.util.concurrent.ConcurrentHashMap;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.atn.LexerATNSimulator;
import org.antlr.v4.runtime.dfa.DFAState;

/**
 * One lexer grammar's DFA transitions on end of input, shared by all its lexers as the grammar's DFA is.
 *
 * <p>ANTLR's lexer keeps a DFA edge only for the characters 0–127, so a transition on end of input was never kept: the
 * last token of every text — the one that ends where the text ends — was predicted by a full ATN simulation (a new
 * configuration set and its closure) each time, once per submission. {@link #install} gives a lexer a simulator that
 * keeps those transitions here, exactly as ANTLR keeps the others in its DFA (never for a configuration set with a
 * semantic predicate, whose edge ANTLR does not keep either); a lexer then matches the same tokens, without the
 * simulation after its first text. The map holds at most one entry per DFA state. It is keyed as ANTLR keys its DFA
 * states, by their configuration sets: a transition depends on nothing else, so two equal states of different lexer
 * modes may share one (the lexer stops at end of input, so it never extends a state it was handed).
 */
public final class EndOfInputEdges {
    private final ConcurrentHashMap<DFAState, DFAState> edges = new ConcurrentHashMap<>();

    /** Gives {@code lexer} a simulator over its grammar's shared DFA that keeps its transitions on end of input here. */
    public void install(Lexer lexer) {
        LexerATNSimulator generated = lexer.getInterpreter();
        lexer.setInterpreter(new Simulator(lexer, generated, this));
    }

    /** How many transitions on end of input are kept (for tests). */
    public int size() { return edges.size(); }

    private static final class Simulator extends LexerATNSimulator {
        private final EndOfInputEdges end;

        Simulator(Lexer lexer, LexerATNSimulator generated, EndOfInputEdges end) {
            super(lexer, generated.atn, generated.decisionToDFA, generated.getSharedContextCache());
            this.end = end;
        }

        @Override
        protected DFAState getExistingTargetState(DFAState s, int t) {
            return t == IntStream.EOF ? end.edges.get(s) : super.getExistingTargetState(s, t);
        }

        @Override
        protected void addDFAEdge(DFAState from, int t, DFAState to) {
            if (t == IntStream.EOF) {
                end.edges.putIfAbsent(from, to);
            } else {
                super.addDFAEdge(from, t, to);
            }
        }
    }
}
