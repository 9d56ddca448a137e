package dev.finch.lisp.lower;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Literal;
import dev.finch.lisp.types.Ty;
import java.util.ArrayList;
import java.util.List;

/**
 * A resolved, typed expression: what the analyzer builds from datums and the emitter turns into IR. Mutable only
 * while the analyzer builds it; the emitter reads types after inference has finished.
 */
final class Node {
    /**
     * The expression kinds; each has one emitter case. A {@code CHAIN} runs its kids in order, each after the first
     * taking the value the one before left on the stack through its {@code STACKED} part: an n-ary {@code (+ a b c …)}
     * or {@code (and a b c …)} is a flat chain of binary steps, not a tree as deep as its arguments are many.
     */
    enum Kind { LIT, UNIT, LOCAL, CONST, QUOTE_WORD, CALL, CALL_VALUE, IF, SEQ, BIND, LAMBDA, WHILE, MATCH_OPTION, MATCH_RESULT, CASE, LIST, MAP, RECORD, PROPAGATE, NAMED_LET, LOOP_CALL, CHAIN, STACKED }

    final Kind kind;
    final Origin origin;
    Ty type;
    Literal lit;
    String name;
    Local local;
    Local local2;
    List<Node> kids = new ArrayList<>();
    /** CALL immediates: a String is a name, a Ty a type. */
    List<Object> immediates = new ArrayList<>();
    /** CALL: how many values the word leaves (0 or 1). */
    int outs = 1;
    List<Local> params = new ArrayList<>();
    List<Long> caseValues = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    boolean hasDefault;

    Node(Kind kind, Origin origin, Ty type) {
        this.kind = kind;
        this.origin = origin;
        this.type = type;
    }

    Node kid(int i) { return kids.get(i); }

    /** The value the previous link of a chain left on the stack, as the next link's first part. */
    static Node stacked(Node previous) { return new Node(Kind.STACKED, previous.origin, previous.type); }
}
