package dev.finch.forth;

import dev.finch.frontend.lex.EndOfInputEdges;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.type.TypeSyntax;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.Token;

/**
 * The Co-Forth token source: the generated {@link CoForthLexer} for the flat tokens, and one linear scan each for the
 * tokens that nest, which are (in the grammar's notation, with ANTLR's longest-match-then-first-rule choice):
 * <pre>
 * PAREN          : '(' ( [ \t\f\r\n] ( NESTED_PAREN | ~[()] )* )? ')' -&gt; channel(HIDDEN) ;   NESTED_PAREN : '(' ( NESTED_PAREN | ~[()] )* ')'
 * UNCLOSED_PAREN : '(' [ \t\f\r\n] … to the end of the text, when it never closes
 * JSON_OBJECT    : '{' [ \t\f\r\n]* JSON_STRING ( JSON_STRING | JSON_NESTED | ~["{}] )* '}'
 * CONSTANT_TYPED : 'constant' ANGLE ;     TYPE_DEF : 'type' ANGLE ;     PARAM_WORD : [a-z] [a-z0-9-]* ANGLE ;   ANGLE : '&lt;' ( ANGLE | '-&gt;' | ~[&lt;&gt;\r\n] )+ '&gt;'
 * </pre>
 * ({@code ->} inside an ANGLE is read as an arrow; reading its {@code >} as a closer instead only ever yields a type
 * ending in {@code -}, which is malformed either way.) A PAREN or a PARAM_WORD still loses to a longer WORD, as in the
 * grammar ({@code ()x}, {@code list<int>x}).
 *
 * <p>With a budget it also meters the text as it goes: each token counts against {@code maxTokens}
 * ({@code E-LIMIT-011}) and is charged as work (so the deadline and cancellation are polled), constructs
 * ({@code : [ { if begin case [: list{ map{}} and their closers) and a {@code <…>} group may nest only
 * {@code maxNesting} deep ({@code E-LIMIT-012}), and a name may have at most {@link #MAX_NAME} characters
 * ({@code E-FORTH-008}); crossing one throws a {@link DiagnosticException} at once, before anything is built from
 * the tokens: a 10^6-deep input stops at its 257th opener. (The nesting count here is a quick upper bound of what
 * {@link Structure} measures exactly; it skips case arms, which Structure counts too.)
 */
final class CoForthTokens extends CoForthLexer {
    /** The longest word, local, constant, field or symbol name, in characters. */
    static final int MAX_NAME = 256;
    /** The grammar's DFA transitions on end of input, which ANTLR's lexer does not keep itself. */
    private static final EndOfInputEdges END_OF_INPUT = new EndOfInputEdges();

    private final CompileBudget budget;
    private final String sourceId;
    private final int maxAngle;
    private long count;
    /** Openers minus closers so far (see the class comment). */
    private int open;

    /** A token source for {@code input}; {@code budget} may be null (tools that only look at the tokens). */
    CoForthTokens(CharStream input, CompileBudget budget, String sourceId) {
        super(input);
        END_OF_INPUT.install(this);
        this.budget = budget;
        this.sourceId = sourceId;
        this.maxAngle = budget == null ? TypeSyntax.MAX_NESTING : Math.min(budget.limits().maxNesting(), TypeSyntax.MAX_NESTING);
    }

    @Override public Token nextToken() {
        skipSpace();
        Token t = nested();
        if (t == null) t = super.nextToken();
        if (budget != null && t.getType() != Token.EOF) meter(t);
        return t;
    }

    private void meter(Token t) {
        Origin at = Structure.origin(t, sourceId);
        budget.tokens(++count, at);
        budget.charge(Phase.PARSE, 1, at);
        switch (t.getType()) {
            case COLON, IF, IF_SOME, IF_OK, BEGIN, CASE, CLOSURE_OPEN, LBRACKET, LIST_OPEN, MAP_OPEN, LBRACE -> budget.nesting(Phase.PARSE, ++open, at);
            case SEMI, THEN, REPEAT, UNTIL, ENDCASE, CLOSURE_CLOSE, RBRACKET, LIST_CLOSE, MAP_CLOSE, RBRACE -> open--;
            default -> { }
        }
        int length = t.getStopIndex() - t.getStartIndex() + 1;
        int name = switch (t.getType()) {
            case WORD -> length;
            case SYMBOL, FIELD -> length - 1; // without the quote of 'name or the colon of name:
            case CoForthParser.PARAM_WORD, CoForthParser.CONSTANT_TYPED, CoForthParser.TYPE_DEF -> t.getText().indexOf('<');
            default -> 0;
        };
        if (name > MAX_NAME) {
            throw new DiagnosticException(ForthCode.NAME_TOO_LONG.at(at, "a name of " + name + " characters; names have at most " + MAX_NAME,
                    "at most " + MAX_NAME + " characters", name + " characters"));
        }
    }

    // ---------------------------------------------------------------------------------------------- scanning

    private int la(int i) { return _input.LA(i); }

    private static boolean space(int c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n'; }

    private static boolean wordChar(int c) {
        return c != IntStream.EOF && !space(c) && c != '[' && c != ']' && c != '{' && c != '}' && c != ',' && c != '"';
    }

    private void skipSpace() {
        while (space(la(1))) getInterpreter().consume(_input);
    }

    /** How many characters a WORD starting here would take. */
    private int wordRun() {
        int p = 1;
        while (wordChar(la(p))) p++;
        return p - 1;
    }

    /** The nesting token starting here, or null when the generated lexer reads what is here. */
    private Token nested() {
        int c = la(1);
        if (c == '(') {
            int n = paren();
            if (n > 0) return emit(CoForthParser.PAREN, n, HIDDEN);
            if (n < 0) return emit(CoForthParser.UNCLOSED_PAREN, -n, DEFAULT_TOKEN_CHANNEL);
        } else if (c == '{') {
            int n = json();
            if (n > 0) return emit(CoForthParser.JSON_OBJECT, n, DEFAULT_TOKEN_CHANNEL);
        } else if (c >= 'a' && c <= 'z') {
            int name = 1;
            while (nameChar(la(name + 1))) name++;
            if (la(name + 1) == '<') {
                int n = angle(name + 1);
                if (n > 0 && n >= wordRun()) {
                    int type = name == 8 && spells("constant") ? CoForthParser.CONSTANT_TYPED
                            : name == 4 && spells("type") ? CoForthParser.TYPE_DEF : CoForthParser.PARAM_WORD;
                    return emit(type, n, DEFAULT_TOKEN_CHANNEL);
                }
            }
        }
        return null;
    }

    private boolean spells(String word) {
        for (int i = 0; i < word.length(); i++) if (la(i + 1) != word.charAt(i)) return false;
        return true;
    }

    private static boolean nameChar(int c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

    /** A comment's length; its negation when it runs unclosed to the end; 0 when this is no comment. */
    private int paren() {
        int next = la(2);
        if (next == ')') return wordRun() == 2 ? 2 : 0;
        if (!space(next)) return 0;
        int depth = 1;
        for (int p = 3; ; p++) {
            int c = la(p);
            if (c == IntStream.EOF) return -(p - 1);
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return p;
        }
    }

    /** A pasted JSON object's length (its first key quoted), or 0 when there is none here. */
    private int json() {
        int p = 2;
        while (space(la(p))) p++;
        if (la(p) != '"') return 0;
        int depth = 0;
        while (true) {
            int c = la(p);
            if (c == IntStream.EOF) return 0;
            if (c == '"') {
                p++;
                while (true) {
                    int s = la(p);
                    if (s == IntStream.EOF) return 0;
                    if (s == '\\') {
                        if (la(p + 1) == IntStream.EOF) return 0;
                        p += 2;
                    } else {
                        p++;
                        if (s == '"') break;
                    }
                }
                continue;
            }
            if (c == '{') depth++;
            else if (c == '}' && depth-- == 0) return p;
            p++;
        }
    }

    /**
     * The length of a name glued to a balanced {@code <…>} group whose '&lt;' is at {@code at}, or 0 when the group
     * does not close on its line (or is empty, or nests deeper than the types may).
     */
    private int angle(int at) {
        int depth = 0;
        boolean empty = true;
        for (int p = at; ; ) {
            int c = la(p);
            if (c == '<') {
                if (++depth > maxAngle) {
                    if (budget != null) budget.nesting(Phase.PARSE, depth, origin());
                    return 0;
                }
                empty = true;
                p++;
            } else if (c == '>') {
                if (empty) return 0;
                p++;
                if (--depth == 0) return p - 1;
                empty = false; // the enclosing group now holds the one just closed
            } else if (c == IntStream.EOF || c == '\r' || c == '\n') {
                return 0;
            } else {
                empty = false;
                p += c == '-' && la(p + 1) == '>' ? 2 : 1;
            }
        }
    }

    private Origin origin() { return Origin.of(sourceId, getLine(), getCharPositionInLine() + 1); }

    /** Consumes {@code length} characters as one token of {@code type}. */
    private Token emit(int type, int length, int channel) {
        int start = _input.index();
        int line = getLine();
        int column = getCharPositionInLine();
        for (int i = 0; i < length; i++) getInterpreter().consume(_input);
        Token t = _factory.create(_tokenFactorySourcePair, type, null, channel, start, _input.index() - 1, line, column);
        setToken(t);
        return t;
    }
}
