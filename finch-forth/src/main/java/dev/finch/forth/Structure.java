package dev.finch.forth;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.antlr.v4.runtime.Token;

/**
 * The structure check that runs on the token stream before the grammar: a stack of open constructs. It turns
 * what the grammar could only call a syntax error ("then" without "if", ";" without ":", an unclosed "[") into a
 * precise lower diagnostic, bounds the nesting depth (so nothing downstream can overflow the Java stack), and
 * tells {@link ForthBuffer} whether more input could still complete the program.
 *
 * <p>The nesting bound is the submission's {@code maxNesting} ({@code E-LIMIT-012}, thrown as soon as the stack of open
 * constructs passes it, so a 10^6-deep input costs one pass over the tokens and nothing recursive ever sees it), and
 * never more than {@link #HARD_DEPTH} ({@code E-FORTH-115}): the parser, the lowerer and the verifier recurse once per
 * level, and this keeps them far from any thread's stack even when an embedder raises the limit.
 */
final class Structure {
    /** The frontend's own bound on nesting, whatever the compile limits allow. */
    static final int HARD_DEPTH = 512;

    /** The construct a frame stands for. */
    enum Construct {
        DEFINITION(":", ";"), IF("if", "then"), BEGIN("begin", "repeat or until"), CASE("case", "endcase"),
        ARM("of", "endof"), CLOSURE("[:", ";]"), LIST("[", "]"), LIST_COMPAT("list{", "}list"), MAP("map{", "}map"),
        RECORD("{", "}");

        final String open;
        final String close;

        Construct(String open, String close) { this.open = open; this.close = close; }
    }

    /** One open construct; {@code middle} records else / while / otherwise. */
    static final class Frame {
        final Construct construct;
        final Token token;
        String name = "";
        boolean middle;

        Frame(Construct construct, Token token) { this.construct = construct; this.token = token; }
    }

    /** The outcome: at most one diagnostic (later ones would only cascade) and what is still open. */
    record Result(Optional<Diagnostic> error, List<Frame> open, boolean needsMore) { }

    private final String sourceId;
    private final CompileBudget budget;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private boolean needsMore;

    private Structure(String sourceId, CompileBudget budget) {
        this.sourceId = sourceId;
        this.budget = budget;
    }

    /** Scans the default-channel tokens (EOF excluded or not), with the hard nesting bound only. */
    static Result scan(List<? extends Token> tokens, String sourceId) { return scan(tokens, sourceId, null); }

    /**
     * Scans the default-channel tokens, refusing nesting past {@code budget}'s limit by throwing its
     * {@link dev.finch.ir.diag.DiagnosticException} ({@code budget} may be null: the hard bound only).
     */
    static Result scan(List<? extends Token> tokens, String sourceId, CompileBudget budget) {
        Structure s = new Structure(sourceId, budget);
        Diagnostic error = s.run(tokens);
        return new Result(Optional.ofNullable(error), List.copyOf(s.stack), s.needsMore);
    }

    private Diagnostic run(List<? extends Token> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.getType() == Token.EOF || t.getChannel() != Token.DEFAULT_CHANNEL) continue;
            Token next = i + 1 < tokens.size() ? nextDefault(tokens, i + 1) : null;
            Frame top = stack.peek();
            if (top != null && top.construct == Construct.CASE && !top.middle) {
                Diagnostic d = insideCase(t, next);
                if (d != null) return d;
                continue;
            }
            if (top != null && top.construct == Construct.RECORD && previousIs(tokens, i, CoForthLexer.LBRACE)
                    && (t.getType() == CoForthLexer.STRING || t.getType() == CoForthLexer.UNTERMINATED_STRING)) {
                // '{' then a quoted key that the lexer could not close into one JSON object: more input may close it.
                needsMore = true;
                return ForthCode.UNCLOSED.at(origin(top.token), "JSON object '{' is not closed with '}'", "}", "end of input");
            }
            if (top != null && top.construct == Construct.RECORD && previousIs(tokens, i, CoForthLexer.LBRACE)
                    && t.getType() != CoForthLexer.FIELD && t.getType() != CoForthLexer.RBRACE) {
                return ForthCode.MISPLACED_FIELD.at(origin(t), "a record starts with a field label 'name:', found '" + t.getText() + "'");
            }
            Diagnostic d = step(t, next, top);
            if (d != null) return d;
            d = depth(t);
            if (d != null) return d;
        }
        return null;
    }

    private Diagnostic step(Token t, Token next, Frame top) {
        switch (t.getType()) {
            case CoForthLexer.UNTERMINATED_STRING:
                return ForthCode.UNTERMINATED_STRING.at(origin(t), "string is not closed with \" on its line");
            case CoForthParser.UNCLOSED_PAREN:
                return ForthCode.UNCLOSED_COMMENT.at(origin(t), "'(' is not closed with ')'");
            case CoForthLexer.COLON:
                if (!stack.isEmpty()) {
                    return ForthCode.NESTED_DEFINITION.at(origin(t), "':' inside '" + top.construct.open + "' (opened at "
                            + where(top.token) + "); definitions are top-level only");
                }
                return named(t, next, Construct.DEFINITION);
            case CoForthParser.TYPE_DEF:
                if (!stack.isEmpty()) {
                    return ForthCode.NESTED_DEFINITION.at(origin(t), "'type<…>' inside '" + top.construct.open + "' (opened at "
                            + where(top.token) + "); named types are top-level only");
                }
                return named(t, next, null);
            case CoForthLexer.LOCAL_STORE: case CoForthLexer.CONSTANT: case CoForthParser.CONSTANT_TYPED: case CoForthLexer.TICK:
                return named(t, next, null);
            case CoForthLexer.IF: case CoForthLexer.IF_SOME: case CoForthLexer.IF_OK: return push(Construct.IF, t);
            case CoForthLexer.BEGIN: return push(Construct.BEGIN, t);
            case CoForthLexer.CASE: return push(Construct.CASE, t);
            case CoForthLexer.CLOSURE_OPEN: return push(Construct.CLOSURE, t);
            case CoForthLexer.LBRACKET: return push(Construct.LIST, t);
            case CoForthLexer.LIST_OPEN: return push(Construct.LIST_COMPAT, t);
            case CoForthLexer.MAP_OPEN: return push(Construct.MAP, t);
            case CoForthLexer.LBRACE: return push(Construct.RECORD, t);
            case CoForthLexer.ELSE:
                if (top != null && top.construct == Construct.IF && top.middle) {
                    return ForthCode.MISPLACED_WORD.at(origin(t), "'" + top.token.getText() + "' (opened at " + where(top.token)
                            + ") already has an 'else'; close it with 'then'", "then", "else");
                }
                if (top == null || top.construct != Construct.IF || top.middle) return misplaced(t, Construct.IF, top);
                top.middle = true;
                return null;
            case CoForthLexer.THEN: return close(t, Construct.IF, top);
            case CoForthLexer.WHILE:
                if (top != null && top.construct == Construct.BEGIN && top.middle) {
                    return ForthCode.MISPLACED_WORD.at(origin(t), "'begin' (opened at " + where(top.token)
                            + ") already has a 'while'; close it with 'repeat'", "repeat", "while");
                }
                if (top == null || top.construct != Construct.BEGIN || top.middle) return misplaced(t, Construct.BEGIN, top);
                top.middle = true;
                return null;
            case CoForthLexer.REPEAT:
                if (top != null && top.construct == Construct.BEGIN && !top.middle) {
                    return ForthCode.MISPLACED_WORD.at(origin(t), "'repeat' needs 'while' first: begin … while … repeat");
                }
                return close(t, Construct.BEGIN, top);
            case CoForthLexer.UNTIL:
                if (top != null && top.construct == Construct.BEGIN && top.middle) {
                    return ForthCode.MISPLACED_WORD.at(origin(t), "'until' after 'while': use begin … while … repeat or begin … until");
                }
                return close(t, Construct.BEGIN, top);
            case CoForthLexer.ENDOF: return close(t, Construct.ARM, top);
            case CoForthLexer.OF: case CoForthLexer.OTHERWISE: return misplaced(t, Construct.CASE, top);
            case CoForthLexer.ENDCASE: return close(t, Construct.CASE, top);
            case CoForthLexer.SEMI: return close(t, Construct.DEFINITION, top);
            case CoForthLexer.CLOSURE_CLOSE: return close(t, Construct.CLOSURE, top);
            case CoForthLexer.RBRACKET: return close(t, Construct.LIST, top);
            case CoForthLexer.LIST_CLOSE: return close(t, Construct.LIST_COMPAT, top);
            case CoForthLexer.MAP_CLOSE: return close(t, Construct.MAP, top);
            case CoForthLexer.RBRACE: return close(t, Construct.RECORD, top);
            case CoForthLexer.FIELD:
                if (top == null || top.construct != Construct.RECORD) {
                    return ForthCode.MISPLACED_FIELD.at(origin(t), "field label '" + t.getText() + "' outside a record { … }");
                }
                return null;
            case CoForthLexer.COMMA:
                if (top == null || !(top.construct == Construct.LIST || top.construct == Construct.LIST_COMPAT
                        || top.construct == Construct.MAP || top.construct == Construct.RECORD)) {
                    return ForthCode.MISPLACED_COMMA.at(origin(t), "',' separates elements only inside [ ], list{ }list, map{ }map or { }");
                }
                return null;
            default:
                return null;
        }
    }

    /** Directly inside "case" only "N of", "otherwise" and "endcase" may appear. */
    private Diagnostic insideCase(Token t, Token next) {
        Frame top = stack.peek();
        switch (t.getType()) {
            case CoForthLexer.INT:
                if (next != null && next.getType() == CoForthLexer.OF) return null;
                break;
            case CoForthLexer.OF: {
                Frame arm = new Frame(Construct.ARM, t);
                stack.push(arm);
                return depth(t);
            }
            case CoForthLexer.OTHERWISE:
                top.middle = true;
                return null;
            case CoForthLexer.ENDCASE:
                stack.pop();
                return null;
            case CoForthLexer.ENDOF:
                return ForthCode.MISPLACED_WORD.at(origin(t), "'endof' without 'N of' in the case opened at " + where(top.token));
            default:
                break;
        }
        return ForthCode.MISPLACED_IN_CASE.at(origin(t), "'" + t.getText() + "' directly inside 'case' (opened at "
                + where(top.token) + "); write 'N of … endof' arms, then optionally 'otherwise …', then 'endcase'");
    }

    /** Checks the nesting after {@code t} (see the class comment). */
    private Diagnostic depth(Token t) {
        int depth = stack.size();
        if (budget != null) budget.nesting(Phase.PARSE, depth, origin(t));
        if (depth > HARD_DEPTH) return ForthCode.TOO_DEEP.at(origin(t), "constructs nest deeper than " + HARD_DEPTH + " levels");
        return null;
    }

    private Diagnostic named(Token t, Token next, Construct opens) {
        if (next == null || next.getType() != CoForthLexer.WORD) {
            return ForthCode.MISSING_NAME.at(origin(t), "'" + t.getText() + "' must be followed by a name",
                    "a name", next == null || next.getType() == Token.EOF ? "end of input" : next.getText());
        }
        if (opens == null) return null;
        push(opens, t);
        stack.peek().name = next.getText();
        return null;
    }

    private Diagnostic push(Construct c, Token t) {
        stack.push(new Frame(c, t));
        return null;
    }

    private Diagnostic close(Token t, Construct expected, Frame top) {
        if (top != null && top.construct == expected) {
            stack.pop();
            return null;
        }
        return misplaced(t, expected, top);
    }

    private Diagnostic misplaced(Token t, Construct expected, Frame top) {
        String word = t.getText();
        boolean anywhere = stack.stream().anyMatch(f -> f.construct == expected);
        if (!anywhere || top == null) {
            return ForthCode.MISPLACED_WORD.at(origin(t), "'" + word + "' without an open '" + expected.open + "'",
                    "'" + expected.open + "' before '" + word + "'", word);
        }
        return ForthCode.MISPLACED_WORD.at(origin(t), "'" + word + "' while '" + top.construct.open + "' (opened at "
                + where(top.token) + ") is still open; close it with '" + top.construct.close + "' first",
                top.construct.close, word);
    }

    private static Token nextDefault(List<? extends Token> tokens, int from) {
        for (int i = from; i < tokens.size(); i++) {
            if (tokens.get(i).getChannel() == Token.DEFAULT_CHANNEL) return tokens.get(i);
        }
        return null;
    }

    private static boolean previousIs(List<? extends Token> tokens, int index, int type) {
        for (int i = index - 1; i >= 0; i--) {
            if (tokens.get(i).getChannel() == Token.DEFAULT_CHANNEL) return tokens.get(i).getType() == type;
        }
        return false;
    }

    /** The diagnostic for a construct still open at the end of the input. */
    static Diagnostic unclosedAtEnd(Frame f, String sourceId) {
        String what = f.construct == Construct.DEFINITION ? "definition ': " + f.name + "' is not closed with ';'"
                : "'" + f.token.getText() + "' is not closed with '" + f.construct.close + "'";
        return ForthCode.UNCLOSED.at(origin(f.token, sourceId), what + " before the end of the program", f.construct.close, "end of input");
    }

    private Origin origin(Token t) { return origin(t, sourceId); }

    static Origin origin(Token t, String sourceId) { return Origin.of(sourceId, t.getLine(), t.getCharPositionInLine() + 1); }

    private static String where(Token t) { return t.getLine() + ":" + (t.getCharPositionInLine() + 1); }
}
