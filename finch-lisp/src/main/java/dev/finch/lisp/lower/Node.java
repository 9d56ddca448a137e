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
    /** The expression kinds; each has one emitter case. */
    enum Kind { LIT, UNIT, LOCAL, CONST, QUOTE_WORD, CALL, CALL_VALUE, IF, SEQ, BIND, LAMBDA, WHILE, MATCH_OPTION, MATCH_RESULT, CASE, LIST, MAP, RECORD, PROPAGATE, NAMED_LET, LOOP_CALL }

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
}
