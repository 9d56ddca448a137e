package dev.finch.frontend.read;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one datum reader of the two Lisps: it builds s-expressions ({@code datum : OPEN datum* CLOSE | QUOTE datum |
 * ATOM}) from a language's tokens, in one pass, with an explicit stack of what is open — it never recurses in the
 * input's nesting — and counts every token and every level of nesting (groups and pending quotes) against the
 * submission's {@link CompileBudget} as they arrive: a text of a million open brackets is refused at the first bracket
 * past the limit ({@code E-LIMIT-012}), a flood of tokens at the first token past the limit ({@code E-LIMIT-011}). Below
 * the limits a datum nests at most {@code maxNesting} deep, which bounds the recursion of every later phase.
 *
 * <p>The reader knows no language. A {@link Dialect} makes the language's datums from atoms, groups and quotes, and
 * words its diagnostics; the reader finds the problems and hands them back sorted by kind in a {@link Reading}, for the
 * language to report in its own order:
 * <ul>
 *   <li>bad tokens (and the lexer's own messages), every one in source order;</li>
 *   <li>the first structural error — a closer with nothing open, a closer that does not match its opener, a quote
 *       with nothing to quote, a group still open at the end — after which nothing more is built (tokens are still
 *       counted, and bad tokens still found);</li>
 *   <li>the problems the dialect found in atoms (a malformed escape, a number out of range) before that.</li>
 * </ul>
 * At most {@code maxReported} bad tokens and atom problems are kept (a flood of them reports its first ones).
 *
 * <p>One reader serves one submission: the files a program uses are read by the same reader, so that their tokens
 * count toward one budget. Not thread-safe (one submission is read on one thread).
 */
public final class DatumReader {
    /** How a language makes its datums and words the reader's findings. */
    public interface Dialect<D> {
        /** The datum of an atom token; problems with it (an escape, a range) go to {@code problems}. Never null. */
        D atom(Token atom, Consumer<Diagnostic> problems);

        /** The datum of a group: its opener, its matching closer, and the datums between them. */
        D group(Token open, Token close, List<D> items);

        /** {@code 'datum}: the quote token and the datum it applies to. */
        D quote(Token quote, D datum);

        /** A {@link Token.Role#BAD} token, or a {@link Token.Role#LEXER_ERROR}. */
        Diagnostic badToken(Token bad);

        /** A closer with nothing open. */
        Diagnostic strayCloser(Token close);

        /** A closer that does not match the innermost open group. */
        Diagnostic mismatchedCloser(Token open, Token close);

        /** A quote followed by nothing it could quote: {@code next} is a closer or the end. */
        Diagnostic danglingQuote(Token quote, Token next);

        /** A group still open at the end of the text ({@code open} is the innermost, {@code depth} how many are open). */
        Diagnostic unclosed(Token open, Token end, int depth);
    }

    /**
     * What reading one text found.
     *
     * @param datums    the datums read, in order (those before a structural error)
     * @param badTokens the bad tokens and lexer messages, in order (at most {@code maxReported})
     * @param structure the first structural error, if any
     * @param problems  the problems found in atoms before it, in order (at most {@code maxReported})
     */
    public record Reading<D>(List<D> datums, List<Diagnostic> badTokens, Optional<Diagnostic> structure, List<Diagnostic> problems) {
        public Reading {
            datums = List.copyOf(datums);
            badTokens = List.copyOf(badTokens);
            problems = List.copyOf(problems);
        }

        /** True when nothing is wrong. */
        public boolean clean() { return badTokens.isEmpty() && structure.isEmpty() && problems.isEmpty(); }
    }

    private final CompileBudget budget;
    private final int maxReported;
    /** Tokens read so far, across every text of the submission. */
    private long tokens;

    /**
     * A reader whose tokens and nesting count against {@code budget}, across every text it reads, and that keeps at
     * most {@code maxReported} bad tokens and atom problems of a text.
     */
    public DatumReader(CompileBudget budget, int maxReported) {
        this.budget = Objects.requireNonNull(budget, "budget");
        if (maxReported < 1) throw new IllegalArgumentException("maxReported " + maxReported);
        this.maxReported = maxReported;
    }

    /** How many tokens this reader has counted so far. */
    public long tokens() { return tokens; }

    /**
     * Reads every datum of one text, counting against the budget; throws the budget's
     * {@link dev.finch.ir.diag.DiagnosticException} when a limit is crossed, and otherwise returns what it found.
     */
    public <D> Reading<D> read(TokenSource source, String sourceId, Dialect<D> dialect) {
        return new Pass<>(sourceId, dialect).run(source);
    }

    /** What is open: a group collecting its items, or a quote waiting for its datum. */
    private sealed interface Open<D> permits Group, Quoted { }

    private record Group<D>(Token open, List<D> items) implements Open<D> { }

    private record Quoted<D>(Token quote) implements Open<D> { }

    /** The state of reading one text. */
    private final class Pass<D> {
        private final String sourceId;
        private final Dialect<D> dialect;
        private final Deque<Open<D>> open = new ArrayDeque<>();
        private final List<D> datums = new ArrayList<>();
        private final List<Diagnostic> bad = new ArrayList<>();
        private final List<Diagnostic> problems = new ArrayList<>();
        private final Consumer<Diagnostic> problem = d -> { if (problems.size() < maxReported) problems.add(d); };
        private Diagnostic structure;
        private int groups;

        Pass(String sourceId, Dialect<D> dialect) {
            this.sourceId = sourceId;
            this.dialect = Objects.requireNonNull(dialect, "dialect");
        }

        Reading<D> run(TokenSource source) {
            int maxTokens = budget.limits().maxTokens();
            for (Token t = source.next(); ; t = source.next()) {
                switch (t.role()) {
                    case END -> {
                        if (structure == null && !open.isEmpty()) {
                            structure = open.peek() instanceof Quoted<D> q ? dialect.danglingQuote(q.quote(), t)
                                    : dialect.unclosed(((Group<D>) open.peek()).open(), t, groups);
                        }
                        return new Reading<>(datums, bad, Optional.ofNullable(structure), problems);
                    }
                    case LEXER_ERROR -> {
                        if (bad.size() < maxReported) bad.add(dialect.badToken(t));
                        continue;
                    }
                    default -> { }
                }
                if (++tokens > maxTokens) budget.tokens(tokens, t.at(sourceId)); // refuses; its origin made only then
                if (t.role() == Token.Role.BAD) {
                    if (bad.size() < maxReported) bad.add(dialect.badToken(t));
                } else if (structure == null) {
                    token(t);
                }
            }
        }

        private void token(Token t) {
            switch (t.role()) {
                case OPEN -> {
                    groups++;
                    push(new Group<>(t, new ArrayList<>()), t);
                }
                case QUOTE -> push(new Quoted<>(t), t);
                case CLOSE -> close(t);
                default -> complete(dialect.atom(t, problem));
            }
        }

        private void push(Open<D> o, Token t) {
            open.push(o);
            if (open.size() > budget.limits().maxNesting()) budget.nesting(Phase.PARSE, open.size(), t.at(sourceId));
        }

        private void close(Token t) {
            Open<D> top = open.peek();
            if (top == null) {
                structure = dialect.strayCloser(t);
            } else if (top instanceof Quoted<D> q) {
                structure = dialect.danglingQuote(q.quote(), t);
            } else {
                Group<D> g = (Group<D>) top;
                if (!Token.closerOf(g.open().text()).equals(t.text())) {
                    structure = dialect.mismatchedCloser(g.open(), t);
                    return;
                }
                open.pop();
                groups--;
                complete(dialect.group(g.open(), t, g.items()));
            }
        }

        /** A datum is complete: the quotes waiting for it wrap it (innermost first), and it joins its group or the text. */
        private void complete(D datum) {
            D d = datum;
            while (open.peek() instanceof Quoted<D> q) {
                open.pop();
                d = dialect.quote(q.quote(), d);
            }
            if (open.peek() instanceof Group<D> g) g.items().add(d);
            else datums.add(d);
        }
    }
}
