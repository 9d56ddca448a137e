package dev.finch.lisp.lower;

import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.syntax.Sx;
import dev.finch.lisp.types.Infer;
import dev.finch.lisp.types.Ty;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The special forms of decisions D8 and the contract, each typed and turned into {@link Node}s, plus the typing
 * of vocabulary calls (overloads, n-ary arithmetic) and of the special words whose types depend on an immediate.
 */
final class Forms {
    /** Every form name, for suggestions. */
    static final Set<String> NAMES = Set.of("define", "lambda", "let", "let*", "if", "when", "unless", "cond", "begin", "set!",
            "while", "and", "or", "quote", "match", "match-option", "match-result", "list", "map", "empty-list", "empty-map", "variant",
            "variant-get", "record-get", "record-set", "try", "yield", "defer", "define-syntax", "execute", "define-type");

    private Forms() { }

    /** The form {@code name}, or null when {@code name} is not a form. */
    static Node form(Analyzer a, String name, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        Origin o = l.origin();
        switch (name) {
            case "if": return ifForm(a, l, sc, b);
            case "when": case "unless": {
                if (it.size() < 3) throw a.malformed(l, "(" + name + " test body…)");
                Node test = a.expr(it.get(1), sc, b);
                a.unifyAt(test.origin, Infer.BOOL, test.type, () -> "the test of " + name);
                Node body = unitBody(a, it.subList(2, it.size()), sc, b, o);
                return name.equals("when") ? ifNode(test, body, unitNode(o), o, Infer.UNIT) : ifNode(test, unitNode(o), body, o, Infer.UNIT);
            }
            case "cond": return cond(a, l, sc, b);
            case "begin": return a.body(it.subList(1, it.size()), sc, b, o);
            case "let": case "let*": return let(a, name.equals("let*"), l, sc, b);
            case "lambda": {
                if (it.size() < 3 || !(it.get(1) instanceof Sx.SList ps)) throw a.malformed(l, "(lambda (params…) body…)");
                if (it.get(2).kind() == Sx.Kind.COLON) {
                    // (lambda (params…) : type body…): the declared result, as after a define's parameters.
                    if (it.size() < 5) throw a.malformed(l, "(lambda (params…) : type body…)");
                    return lambda(a, ps.items(), it.get(3), it.subList(4, it.size()), o, sc, b);
                }
                return lambda(a, ps.items(), null, it.subList(2, it.size()), o, sc, b);
            }
            case "set!": return set(a, l, sc, b);
            case "while": {
                if (it.size() < 2) throw a.malformed(l, "(while test body…)");
                Node test = a.expr(it.get(1), sc, b);
                a.unifyAt(test.origin, Infer.BOOL, test.type, "the test of while");
                Node n = new Node(Node.Kind.WHILE, o, Infer.UNIT);
                n.kids.add(test);
                n.kids.add(a.body(it.subList(2, it.size()), sc, b, o));
                return n;
            }
            case "and": case "or": return logic(a, name.equals("and"), it.subList(1, it.size()), sc, b, o);
            case "quote": {
                if (it.size() != 2) throw a.malformed(l, "(quote datum)");
                return a.quoted(it.get(1), o);
            }
            case "match-option": return matchOption(a, l, it.get(it.size() > 1 ? 1 : 0), it.subList(Math.min(2, it.size()), it.size()), sc, b);
            case "match-result": return matchResult(a, l, it.get(it.size() > 1 ? 1 : 0), it.subList(Math.min(2, it.size()), it.size()), sc, b);
            case "match": return match(a, l, sc, b);
            case "list": {
                if (it.size() == 1) throw new DiagnosticException(LispCode.EMPTY_LITERAL.at(o, "(list) has no element to type it; write (empty-list T)", "(empty-list T)", "(list)"));
                Ty el = a.inf.fresh();
                Node n = new Node(Node.Kind.LIST, o, Infer.con("list", el));
                for (Sx x : it.subList(1, it.size())) {
                    Node v = a.expr(x, sc, b);
                    a.unifyAt(v.origin, el, v.type, "list elements must have one type");
                    n.kids.add(v);
                }
                return n;
            }
            case "map": {
                if (it.size() == 1) throw new DiagnosticException(LispCode.EMPTY_LITERAL.at(o, "(map) has no entry to type it", "(map key value …)", "(map)"));
                if (it.size() % 2 == 0) throw a.malformed(l, "(map key value …) with a value for every key");
                Ty k = a.inf.fresh();
                Ty v = a.inf.fresh();
                Node n = new Node(Node.Kind.MAP, o, Infer.con("map", k, v));
                for (int i = 1; i < it.size(); i += 2) {
                    Node kn = a.expr(it.get(i), sc, b);
                    Node vn = a.expr(it.get(i + 1), sc, b);
                    a.unifyAt(kn.origin, k, kn.type, "map keys must have one type");
                    a.unifyAt(vn.origin, v, vn.type, "map values must have one type");
                    n.kids.add(kn);
                    n.kids.add(vn);
                }
                return n;
            }
            case "empty-list": {
                if (it.size() != 2) throw a.malformed(l, "(empty-list T)");
                Ty t = a.annotation(Analyzer.typeText(it.get(1)), it.get(1).origin(), b.annotationVars);
                Node n = special(a, "empty-list", o, Infer.con("list", t), List.of(), b);
                n.immediates.add(t);
                return n;
            }
            case "empty-map": {
                if (it.size() != 3) throw a.malformed(l, "(empty-map K V)");
                Ty k = a.annotation(Analyzer.typeText(it.get(1)), it.get(1).origin(), b.annotationVars);
                Ty v = a.annotation(Analyzer.typeText(it.get(2)), it.get(2).origin(), b.annotationVars);
                Node n = special(a, "empty-map", o, Infer.con("map", k, v), List.of(), b);
                n.immediates.add(k);
                n.immediates.add(v);
                return n;
            }
            case "variant": return variant(a, l, sc, b);
            case "variant-get": return variantGet(a, l, sc, b);
            case "record-get": {
                if (it.size() != 3) throw a.malformed(l, "(record-get record \"field\")");
                Node r = a.expr(it.get(1), sc, b);
                return recordGet(a, r, fieldName(a, it.get(2)), o, b);
            }
            case "record-set": return recordSet(a, l, sc, b);
            case "try": return tryForm(a, l, sc, b);
            case "yield": {
                // (yield) is the cooperative timeslice, unit yield; (yield v) publishes v.
                if (it.size() > 2) throw a.malformed(l, "(yield) or (yield value)");
                Node v = it.size() == 2 ? a.expr(it.get(1), sc, b) : unitNode(o);
                yieldIn(a, b, v.type, o);
                Node n = special(a, "yield", o, Infer.UNIT, List.of(v), b);
                n.outs = 0;
                return n;
            }
            case "execute": {
                // Co-Forth's word for calling a function value, spelled as a Lisp call: (execute f x …) is (f x …), so
                // that the word the vocabulary lists means the same in both frontends.
                if (it.size() < 2) throw a.malformed(l, "(execute f arg…)");
                return a.callValue(a.expr(it.get(1), sc, b), a.analyzeAll(it.subList(2, it.size()), sc, b), o, b);
            }
            case "define-type":
                throw a.malformedMsg(l, "define-type is allowed at the top level only");
            case "define":
                throw a.malformedMsg(l, "define is allowed at the top level or inside a body (lambda, let, define), not as an expression");
            case "define-syntax":
                throw new DiagnosticException(LispCode.BAD_MACRO.at(o, "define-syntax is only allowed at the top level"));
            case "defer": return deferForm(a, l, sc, b);
            case "do": case "case": case "quasiquote": case "call/cc": case "call-with-current-continuation": case "letrec": case "named-lambda":
                throw new DiagnosticException(LispCode.UNSUPPORTED.at(o, "'" + name + "' is not supported; use while, cond, match or a top-level define"));
            default: return null;
        }
    }

    // ---------------------------------------------------------------- control

    private static Node ifForm(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 3 && it.size() != 4) throw a.malformed(l, "(if test then else)");
        Node test = a.expr(it.get(1), sc, b);
        a.unifyAt(test.origin, Infer.BOOL, test.type, "the test of if");
        if (it.size() == 3) {
            return ifNode(test, unitBody(a, it.subList(2, 3), sc, b, l.origin()), unitNode(l.origin()), l.origin(), Infer.UNIT);
        }
        Node then = a.expr(it.get(2), sc, b);
        Node otherwise = a.expr(it.get(3), sc, b);
        a.unifyAt(otherwise.origin, then.type, otherwise.type, "both branches of if must have one type");
        return ifNode(test, then, otherwise, l.origin(), then.type);
    }

    static Node ifNode(Node test, Node then, Node otherwise, Origin o, Ty t) {
        Node n = new Node(Node.Kind.IF, o, t);
        n.kids.add(test);
        n.kids.add(then);
        n.kids.add(otherwise);
        return n;
    }

    static Node unitNode(Origin o) { return new Node(Node.Kind.UNIT, o, Infer.UNIT); }

    /** A body whose value is discarded: its type is unit whatever its last form is. */
    private static Node unitBody(Analyzer a, List<Sx> forms, Scope sc, Body b, Origin o) {
        Node body = a.body(forms, sc, b, o);
        body.kids.add(unitNode(o));
        body.type = Infer.UNIT;
        return body;
    }

    private static Node cond(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> clauses = l.items().subList(1, l.items().size());
        if (clauses.isEmpty()) throw a.malformed(l, "(cond (test body…) … (else body…))");
        boolean hasElse = false;
        for (int i = 0; i < clauses.size(); i++) {
            Sx c = clauses.get(i);
            if (!(c instanceof Sx.SList cl) || cl.items().size() < 2) throw a.malformed(c, "a cond clause (test body…)");
            if (Sx.isSymbol(cl.items().get(0), "else")) {
                if (i != clauses.size() - 1) throw a.malformedMsg(c, "else must be the last cond clause");
                hasElse = true;
            }
        }
        // Each clause nests the next in the else branch of its if: refuse before analysing what could not be lowered.
        a.env.budget().nesting(Phase.LOWER, clauses.size(), l.origin());
        Ty t = hasElse ? a.inf.fresh() : Infer.UNIT;
        List<Node[]> arms = new ArrayList<>();
        Node otherwise = unitNode(l.origin());
        for (Sx c : clauses) {
            List<Sx> ci = ((Sx.SList) c).items();
            List<Sx> forms = ci.subList(1, ci.size());
            if (Sx.isSymbol(ci.get(0), "else")) {
                otherwise = a.body(forms, sc, b, c.origin());
                a.unifyAt(c.origin(), t, otherwise.type, "every cond clause must have one type");
                continue;
            }
            Node test = a.expr(ci.get(0), sc, b);
            a.unifyAt(test.origin, Infer.BOOL, test.type, "a cond test");
            Node body = hasElse ? a.body(forms, sc, b, c.origin()) : unitBody(a, forms, sc, b, c.origin());
            if (hasElse) a.unifyAt(c.origin(), t, body.type, "every cond clause must have one type");
            arms.add(new Node[] {test, body});
        }
        Node acc = otherwise;
        for (int i = arms.size() - 1; i >= 0; i--) acc = ifNode(arms.get(i)[0], arms.get(i)[1], acc, arms.get(i)[0].origin, t);
        return acc;
    }

    /**
     * {@code (and a b c)} is the chain {@code a, if b else false, if c else false}: each test reads the value before
     * it, so a false stops every later argument from running (short-circuit) while the IR stays flat however many
     * arguments there are. {@code or} is the same with {@code if true else …}.
     */
    private static Node logic(Analyzer a, boolean and, List<Sx> args, Scope sc, Body b, Origin o) {
        if (args.isEmpty()) return bool(and, o);
        Node chain = new Node(Node.Kind.CHAIN, o, Infer.BOOL);
        for (Sx arg : args) {
            Node x = a.expr(arg, sc, b);
            a.unifyAt(x.origin, Infer.BOOL, x.type, (and ? "and" : "or") + " takes bools");
            if (chain.kids.isEmpty()) chain.kids.add(x);
            else {
                Node before = Node.stacked(chain.kid(chain.kids.size() - 1));
                chain.kids.add(and ? ifNode(before, x, bool(false, o), o, Infer.BOOL) : ifNode(before, bool(true, o), x, o, Infer.BOOL));
            }
        }
        return chain.kids.size() == 1 ? chain.kid(0) : chain;
    }

    private static Node bool(boolean v, Origin o) {
        Node n = new Node(Node.Kind.LIT, o, Infer.BOOL);
        n.lit = new Literal.BoolLit(v);
        return n;
    }

    // ---------------------------------------------------------------- bindings

    private static Node let(Analyzer a, boolean sequential, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        String name = sequential ? "let*" : "let";
        if (it.size() >= 2 && it.get(1) instanceof Sx.SSymbol) {
            if (sequential) throw new DiagnosticException(LispCode.UNSUPPORTED.at(l.origin(), "let* has no named form; use (let name (…) body…)"));
            return namedLet(a, l, sc, b);
        }
        if (it.size() < 3 || !(it.get(1) instanceof Sx.SList bindings)) throw a.malformed(l, "(" + name + " ((name value) …) body…)");
        Scope inner = new Scope(sc);
        Node seq = new Node(Node.Kind.SEQ, l.origin(), null);
        List<Local> declared = new ArrayList<>();
        for (Sx bs : bindings.items()) {
            if (!(bs instanceof Sx.SList bl) || bl.items().size() != 2) throw a.malformed(bs, "a binding (name value)");
            Node value = a.expr(bl.items().get(1), sequential ? inner : sc, b);
            Local local = a.declare(bl.items().get(0), b);
            a.unifyAt(value.origin, local.type, value.type, () -> "the value bound to '" + local.name + "'");
            seq.kids.add(a.bind(local, value, bs.origin()));
            if (sequential) inner.put(local);
            else declared.add(local);
        }
        for (Local d : declared) inner.put(d);
        Node body = a.body(it.subList(2, it.size()), inner, b, l.origin());
        seq.kids.add(body);
        seq.type = body.type;
        return seq;
    }

    /**
     * {@code (let loop ((x init) …) body…)} where every call of {@code loop} is in tail position: a loop, not a
     * recursion. The parameters are locals; a tail call stores new values into them and goes round again; any other
     * tail value is the result. It lowers to locals and a while loop (Loop, If), so it runs in constant stack space.
     */
    private static Node namedLet(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        String name = ((Sx.SSymbol) it.get(1)).name();
        if (it.size() < 4 || !(it.get(2) instanceof Sx.SList bindings)) throw a.malformed(l, "(let name ((var init) …) body…)");
        Node n = new Node(Node.Kind.NAMED_LET, l.origin(), a.inf.fresh());
        Scope inner = new Scope(sc);
        List<Ty> ins = new ArrayList<>();
        for (Sx bs : bindings.items()) {
            if (!(bs instanceof Sx.SList bl) || bl.items().size() != 2) throw a.malformed(bs, "a binding (name value)");
            Node init = a.expr(bl.items().get(1), sc, b);
            Local p = a.declare(bl.items().get(0), b);
            a.unifyAt(init.origin, p.type, init.type, () -> "the initial value of '" + p.name + "'");
            n.kids.add(init);
            n.params.add(p);
            ins.add(p.type);
        }
        for (Local p : n.params) inner.put(p);
        Local self = new Local(name, name, new Ty.Fn(ins, List.of(n.type), a.inf.eff()), b);
        self.loop = n;
        inner.put(self);
        n.local = a.newLocal("again", Infer.BOOL, b);
        // The result is kept as an option, so that the local is assigned (none) on every path before the loop.
        n.local2 = a.newLocal("result", Infer.con("option", n.type), b);
        Node body = a.body(it.subList(3, it.size()), inner, b, l.origin());
        a.unifyAt(l.origin(), n.type, body.type, () -> "the value of named let '" + name + "'");
        checkTail(body, n, true);
        n.kids.add(body);
        return n;
    }

    /**
     * The index of a sequence's tail form: its last form, or, in a for-effect body ({@code when}, {@code unless}, a
     * one-armed {@code if}) that ends in a loop call followed by the implicit unit, that call (its value is unit too).
     */
    static int tailIndex(Node seq) {
        int last = seq.kids.size() - 1;
        if (last >= 1 && seq.kid(last).kind == Node.Kind.UNIT && seq.kid(last - 1).kind == Node.Kind.LOOP_CALL) return last - 1;
        return last;
    }

    /** A call of a named let's name: new values for its parameters (the emitter stores them and loops). */
    static Node loopCall(Analyzer a, Local self, List<Node> args, Origin o, Body b) {
        Node loop = self.loop;
        if (self.owner != b) {
            throw new DiagnosticException(LispCode.UNSUPPORTED.at(o, "named let '" + self.name + "' cannot be called from inside a lambda; "
                    + "only tail calls in its own body loop"));
        }
        if (args.size() != loop.params.size()) {
            throw new DiagnosticException(LispCode.ARITY.at(o, "'" + self.name + "' takes " + loop.params.size() + " argument(s), given " + args.size(),
                    Integer.toString(loop.params.size()), Integer.toString(args.size())));
        }
        for (int i = 0; i < args.size(); i++) {
            a.unifyArgument(args.get(i).origin, loop.params.get(i).type, args.get(i).type, i, self.name);
        }
        Node n = new Node(Node.Kind.LOOP_CALL, o, loop.type);
        n.local = self;
        n.kids.addAll(args);
        return n;
    }

    /**
     * Every call of {@code loop} must be in tail position: through if, sequences, match arms and a chain's last link
     * only. A worklist, not recursion: the tree may be as deep as the lowered program nests.
     */
    private static void checkTail(Node root, Node loop, boolean rootTail) {
        record Visit(Node n, boolean tail) { }
        Deque<Visit> todo = new ArrayDeque<>();
        todo.push(new Visit(root, rootTail));
        List<Visit> kids = new ArrayList<>();
        while (!todo.isEmpty()) {
            Visit v = todo.pop();
            Node n = v.n();
            boolean tail = v.tail();
            kids.clear();
            switch (n.kind) {
                case LOOP_CALL:
                    if (n.local.loop == loop && !tail) {
                        throw new DiagnosticException(LispCode.UNSUPPORTED.at(n.origin, "'" + n.local.name + "' is called here but not in tail position; "
                                + "a named let is a loop, so its calls must be the last thing its body does"));
                    }
                    for (Node k : n.kids) kids.add(new Visit(k, false));
                    break;
                case IF: case MATCH_OPTION: case MATCH_RESULT: case CASE:
                    kids.add(new Visit(n.kid(0), false));
                    for (int i = 1; i < n.kids.size(); i++) kids.add(new Visit(n.kid(i), tail));
                    break;
                case SEQ: {
                    int last = tailIndex(n);
                    for (int i = 0; i < n.kids.size(); i++) kids.add(new Visit(n.kid(i), tail && i == last));
                    break;
                }
                case CHAIN:
                    for (int i = 0; i < n.kids.size(); i++) kids.add(new Visit(n.kid(i), tail && i == n.kids.size() - 1));
                    break;
                default:
                    for (Node k : n.kids) kids.add(new Visit(k, false));
            }
            // Pushed last first, so the walk meets calls in source order and reports the first.
            for (int i = kids.size() - 1; i >= 0; i--) todo.push(kids.get(i));
        }
    }

    /** A closure: parameters become locals of a new body that shares the word's local namespace. */
    static Node lambda(Analyzer a, List<Sx> params, Sx ret, List<Sx> forms, Origin o, Scope sc, Body b) {
        if (forms.isEmpty()) throw new DiagnosticException(LispCode.MALFORMED_FORM.at(o, "a lambda needs a body"));
        Ty declared = ret == null ? null : a.annotation(Analyzer.typeText(ret), ret.origin(), b.annotationVars);
        Body inner = new Body(b, a.inf.eff(), declared, true, b.irNames, b.annotationVars);
        Scope scope = new Scope(sc);
        Node n = new Node(Node.Kind.LAMBDA, o, null);
        List<Ty> ins = new ArrayList<>();
        for (Sx p : params) {
            Local l = a.declare(p, inner);
            scope.put(l);
            n.params.add(l);
            ins.add(l.type);
        }
        Node body = a.body(forms, scope, inner, o);
        if (declared != null) a.unifyAt(o, declared, body.type, "the declared return type");
        n.kids.add(body);
        n.type = new Ty.Fn(ins, List.of(body.type), inner.eff);
        return n;
    }

    private static Node set(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 3 || !(it.get(1) instanceof Sx.SSymbol target)) throw a.malformed(l, "(set! name value)");
        Local local = sc.lookup(target.name());
        if (local == null) {
            throw new DiagnosticException(LispCode.SET_NOT_LOCAL.at(target.origin(), "set! works on local bindings (let, lambda or function parameters); '"
                    + target.name() + "' is not one"));
        }
        if (local.owner != b) {
            throw new DiagnosticException(LispCode.SET_CAPTURED.at(target.origin(), "'" + target.name()
                    + "' is captured by this lambda (closures capture by value, read-only); set! it outside the lambda or return the new value"));
        }
        Node value = a.expr(it.get(2), sc, b);
        a.unifyAt(value.origin, local.type, value.type, () -> "set! of '" + target.name() + "'");
        return a.bind(local, value, l.origin());
    }

    // ---------------------------------------------------------------- matching

    private static Sx.SList arm(Analyzer a, Sx arm, String shape) {
        if (!(arm instanceof Sx.SList al) || al.items().isEmpty()) throw a.malformed(arm, shape);
        return al;
    }

    private static Node matchOption(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        if (l.items().size() != 4) throw a.malformed(l, "(match-option option (some name body…) (none body…))");
        Node scrut = a.expr(scrutSx, sc, b);
        Ty payload = a.inf.fresh();
        a.unifyAt(scrut.origin, Infer.con("option", payload), scrut.type, "match-option needs an option");
        Sx.SList some = null;
        Sx.SList none = null;
        for (Sx x : arms) {
            Sx.SList al = arm(a, x, "(some name body…) or (none body…)");
            if ("some".equals(Sx.head(al)) && al.items().size() >= 3) some = al;
            else if ("none".equals(Sx.head(al)) && al.items().size() >= 2) none = al;
            else throw a.malformed(x, "(some name body…) or (none body…)");
        }
        if (some == null || none == null) throw a.malformed(l, "both arms (some name body…) and (none body…)");
        return optionBranch(a, scrut, payload, some.items().get(1), some.items().subList(2, some.items().size()), some.origin(),
                none.items().subList(1, none.items().size()), none.origin(), l.origin(), sc, b);
    }

    private static Node optionBranch(Analyzer a, Node scrut, Ty payload, Sx binder, List<Sx> someForms, Origin someAt,
                                     List<Sx> noneForms, Origin noneAt, Origin o, Scope sc, Body b) {
        Scope someScope = new Scope(sc);
        Local x = binderLocal(a, binder, payload, b);
        if (x != null) someScope.put(x);
        Node someBody = a.body(someForms, someScope, b, someAt);
        Node noneBody = a.body(noneForms, sc, b, noneAt);
        a.unifyAt(noneAt, someBody.type, noneBody.type, "both arms must have one type");
        Node n = new Node(Node.Kind.MATCH_OPTION, o, someBody.type);
        n.local = x;
        n.kids.add(scrut);
        n.kids.add(someBody);
        n.kids.add(noneBody);
        return n;
    }

    /** The local a match arm binds its payload to; null for {@code _} (the payload is dropped). */
    private static Local binderLocal(Analyzer a, Sx binder, Ty payload, Body b) {
        if (Sx.isSymbol(binder, "_")) return null;
        Local x = a.declare(binder, b);
        a.unifyAt(binder.origin(), x.type, payload, () -> "the payload bound to '" + x.name + "'");
        return x;
    }

    private static Node matchResult(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        if (l.items().size() != 4) throw a.malformed(l, "(match-result result (ok name body…) (err name body…))");
        Node scrut = a.expr(scrutSx, sc, b);
        Ty okT = a.inf.fresh();
        Ty errT = a.inf.fresh();
        a.unifyAt(scrut.origin, Infer.con("result", okT, errT), scrut.type, "match-result needs a result");
        Sx.SList ok = null;
        Sx.SList err = null;
        for (Sx x : arms) {
            Sx.SList al = arm(a, x, "(ok name body…) or (err name body…)");
            if ("ok".equals(Sx.head(al)) && al.items().size() >= 3) ok = al;
            else if ("err".equals(Sx.head(al)) && al.items().size() >= 3) err = al;
            else throw a.malformed(x, "(ok name body…) or (err name body…)");
        }
        if (ok == null || err == null) throw a.malformed(l, "both arms (ok name body…) and (err name body…)");
        Scope okScope = new Scope(sc);
        Local x = binderLocal(a, ok.items().get(1), okT, b);
        if (x != null) okScope.put(x);
        Node okBody = a.body(ok.items().subList(2, ok.items().size()), okScope, b, ok.origin());
        Scope errScope = new Scope(sc);
        Local y = binderLocal(a, err.items().get(1), errT, b);
        if (y != null) errScope.put(y);
        Node errBody = a.body(err.items().subList(2, err.items().size()), errScope, b, err.origin());
        a.unifyAt(err.origin(), okBody.type, errBody.type, "both arms must have one type");
        Node n = new Node(Node.Kind.MATCH_RESULT, l.origin(), okBody.type);
        n.local = x;
        n.local2 = y;
        n.kids.add(scrut);
        n.kids.add(okBody);
        n.kids.add(errBody);
        return n;
    }

    /** {@code match}: dispatched on its arms' shape (option, result, bool, int, list, record), never dynamically. */
    private static Node match(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() < 3) throw a.malformed(l, "(match value arm…)");
        Sx scrutSx = it.get(1);
        List<Sx> arms = it.subList(2, it.size());
        Sx.SList first = arm(a, arms.get(0), "an arm (pattern body…)");
        Sx pat = first.items().get(0);
        String h = pat instanceof Sx.SSymbol s ? s.name() : null;
        if (pat instanceof Sx.SList) return matchVariant(a, l, scrutSx, arms, sc, b);
        if ("some".equals(h) || "none".equals(h)) return matchOption(a, l, scrutSx, arms, sc, b);
        if ("ok".equals(h) || "err".equals(h)) return matchResult(a, l, scrutSx, arms, sc, b);
        if ("true".equals(h) || "false".equals(h)) return matchBool(a, l, scrutSx, arms, sc, b);
        if ("empty".equals(h) || "cons".equals(h)) return matchList(a, l, scrutSx, arms, sc, b);
        if ("record".equals(h)) return matchRecord(a, l, scrutSx, arms, sc, b);
        if (pat instanceof Sx.SInt || "_".equals(h)) return matchInt(a, l, scrutSx, arms, sc, b);
        throw new DiagnosticException(LispCode.UNSUPPORTED.at(l.origin(), "match arms must be (some …)/(none …), (ok …)/(err …), (true …)/(false …), "
                + "(empty …)/(cons head tail …), (record ((field name) …) …), variant arms ((tag name) …) or integer arms with (_ …)"));
    }

    /**
     * {@code (match v ((tag x) body…) ((other) body…) … (_ body…))} over a closed variant: the scrutinee goes into a
     * local, each arm but the last is {@code variant-get<tag>} with an option branch (the payload into the arm's
     * local), and the last arm, which is the only tag left, unwraps its payload. Every tag needs an arm unless a
     * final {@code (_ …)} arm covers the rest. No dynamic dispatch: only VariantGet, IfSome, unwrap and locals.
     */
    private static Node matchVariant(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        Origin o = l.origin();
        // Each arm but the last nests the rest in the none branch of its test.
        a.env.budget().nesting(Phase.LOWER, arms.size() - 1, o);
        Node scrut = a.expr(scrutSx, sc, b);
        a.resolvePending(false);
        Ty st = scrut.type.prune();
        if (!(st instanceof Ty.Con c) || !c.name().equals("variant")) {
            if (st instanceof Ty.Var) {
                throw new DiagnosticException(LispCode.AMBIGUOUS.at(scrut.origin, "the variant type matched here is not known yet; annotate it, "
                        + "e.g. [v : variant{none|some(int)}]", "variant{…}", Infer.show(st)));
            }
            throw new DiagnosticException(LispCode.BAD_TAG.at(scrut.origin, "match with (tag …) arms needs a closed variant, found " + Infer.show(st),
                    "variant{…}", Infer.show(st)));
        }
        Map<String, Sx.SList> byTag = new java.util.LinkedHashMap<>();
        Map<String, Sx> binders = new HashMap<>();
        Sx.SList fallback = null;
        for (int i = 0; i < arms.size(); i++) {
            Sx.SList al = arm(a, arms.get(i), "((tag name) body…), ((tag) body…) or (_ body…)");
            Sx pat = al.items().get(0);
            if (Sx.isSymbol(pat, "_")) {
                if (i != arms.size() - 1) throw a.malformedMsg(al, "the default arm (_ …) must be last");
                fallback = al;
                continue;
            }
            if (!(pat instanceof Sx.SList pl) || pl.items().isEmpty() || pl.items().size() > 2) throw a.malformed(al, "((tag name) body…) or ((tag) body…)");
            Sx tagSx = pl.items().get(0);
            String tag = tagSx instanceof Sx.SSymbol sym ? sym.name() : tagName(a, tagSx);
            if (!c.tags().contains(tag)) {
                throw new DiagnosticException(LispCode.BAD_TAG.at(pat.origin(), Infer.show(st) + " has no tag '" + tag + "'", String.join("|", c.tags()), tag));
            }
            if (byTag.containsKey(tag)) throw a.malformedMsg(al, "tag '" + tag + "' has two arms");
            if (pl.items().size() == 2) {
                if (c.payloadOf(tag) == null) {
                    throw new DiagnosticException(LispCode.BAD_TAG.at(pl.items().get(1).origin(), "tag '" + tag + "' carries no payload; write ((" + tag + ") body…)"));
                }
                binders.put(tag, pl.items().get(1));
            }
            byTag.put(tag, al);
        }
        List<String> missing = new ArrayList<>();
        for (String tag : c.tags()) if (!byTag.containsKey(tag)) missing.add(tag);
        if (!missing.isEmpty() && fallback == null) {
            throw new DiagnosticException(LispCode.NON_EXHAUSTIVE.at(o, "this match has no arm for tag(s) " + String.join(", ", missing)
                    + " of " + Infer.show(st) + "; add them or a final (_ …) arm", String.join("|", c.tags()), String.join("|", byTag.keySet())));
        }
        if (missing.isEmpty() && fallback != null) throw a.malformedMsg(fallback, "the default arm (_ …) is unreachable: every tag has an arm");
        Local v = a.newLocal("tagged", st, b);
        Node seq = new Node(Node.Kind.SEQ, o, null);
        seq.kids.add(a.bind(v, scrut, o));
        Ty t = a.inf.fresh();
        List<String> tags = new ArrayList<>(byTag.keySet());
        // Arms are analyzed in source order (locals and diagnostics follow the text), then chained from the last.
        List<Node> bodies = new ArrayList<>();
        List<Local> locals = new ArrayList<>();
        for (String tag : tags) {
            Sx.SList al = byTag.get(tag);
            Ty payload = c.payloadOf(tag);
            Scope scope = new Scope(sc);
            Local x = null;
            Sx binder = binders.get(tag);
            if (binder != null && !Sx.isSymbol(binder, "_")) {
                x = a.declare(binder, b);
                String bound = x.name;
                a.unifyAt(binder.origin(), x.type, payload, () -> "the payload bound to '" + bound + "'");
                scope.put(x);
            }
            Node body = a.body(al.items().subList(1, al.items().size()), scope, b, al.origin());
            a.unifyAt(al.origin(), t, body.type, "every match arm must have one type");
            bodies.add(body);
            locals.add(x);
        }
        Node acc;
        int chained = tags.size();
        if (fallback != null) {
            acc = a.body(fallback.items().subList(1, fallback.items().size()), sc, b, fallback.origin());
            a.unifyAt(fallback.origin(), t, acc.type, "every match arm must have one type");
        } else {
            // The last tag is the only one left: its payload is unwrapped, never a dynamic failure.
            chained = tags.size() - 1;
            String tag = tags.get(chained);
            Node body = bodies.get(chained);
            Local x = locals.get(chained);
            if (x == null) acc = body;
            else {
                Ty payload = c.payloadOf(tag);
                Node get = variantGetOf(a, v, tag, payload, byTag.get(tag).origin(), b);
                Node unwrap = a.callWord("unwrap", get.origin, new Ty.Fn(List.of(Infer.con("option", payload)), List.of(payload), a.inf.eff()), List.of(get), b);
                acc = new Node(Node.Kind.SEQ, body.origin, body.type);
                acc.kids.add(a.bind(x, unwrap, byTag.get(tag).origin()));
                acc.kids.add(body);
            }
        }
        for (int i = chained - 1; i >= 0; i--) {
            String tag = tags.get(i);
            Ty payload = c.payloadOf(tag);
            Node n = new Node(Node.Kind.MATCH_OPTION, byTag.get(tag).origin(), t);
            n.local = locals.get(i);
            n.kids.add(variantGetOf(a, v, tag, payload, byTag.get(tag).origin(), b));
            n.kids.add(bodies.get(i));
            n.kids.add(acc);
            acc = n;
        }
        seq.kids.add(acc);
        seq.type = t;
        return seq;
    }

    /** {@code variant-get<tag>} of the local holding a matched variant: option of the payload, or of unit. */
    private static Node variantGetOf(Analyzer a, Local v, String tag, Ty payload, Origin o, Body b) {
        Node load = new Node(Node.Kind.LOCAL, o, v.type);
        load.local = v;
        Node get = special(a, "variant-get", o, Infer.con("option", payload == null ? Infer.UNIT : payload), List.of(load), b);
        get.immediates.add(tag);
        return get;
    }

    private static Node matchBool(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        Node test = a.expr(scrutSx, sc, b);
        a.unifyAt(test.origin, Infer.BOOL, test.type, "match on true/false needs a bool");
        Sx.SList t = null;
        Sx.SList f = null;
        for (Sx x : arms) {
            Sx.SList al = arm(a, x, "(true body…) or (false body…)");
            if ("true".equals(Sx.head(al))) t = al;
            else if ("false".equals(Sx.head(al))) f = al;
            else throw a.malformed(x, "(true body…) or (false body…)");
        }
        if (t == null || f == null || arms.size() != 2) throw a.malformed(l, "both arms (true body…) and (false body…)");
        Node then = a.body(t.items().subList(1, t.items().size()), sc, b, t.origin());
        Node otherwise = a.body(f.items().subList(1, f.items().size()), sc, b, f.origin());
        a.unifyAt(f.origin(), then.type, otherwise.type, "both arms must have one type");
        return ifNode(test, then, otherwise, l.origin(), then.type);
    }

    private static Node matchInt(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        Node scrut = a.expr(scrutSx, sc, b);
        a.unifyAt(scrut.origin, Infer.INT, scrut.type, "match on integer literals needs an int");
        Ty t = a.inf.fresh();
        Node n = new Node(Node.Kind.CASE, l.origin(), t);
        n.kids.add(scrut);
        Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < arms.size(); i++) {
            Sx.SList al = arm(a, arms.get(i), "(integer body…) or (_ body…)");
            Sx p = al.items().get(0);
            Node body = a.body(al.items().subList(1, al.items().size()), sc, b, al.origin());
            a.unifyAt(al.origin(), t, body.type, "every match arm must have one type");
            if (Sx.isSymbol(p, "_")) {
                if (i != arms.size() - 1) throw a.malformedMsg(al, "the default arm (_ …) must be last");
                n.hasDefault = true;
            } else if (p instanceof Sx.SInt v) {
                if (!seen.add(v.value())) throw a.malformedMsg(al, "arm " + v.value() + " appears twice");
                n.caseValues.add(v.value());
            } else throw a.malformed(al, "(integer body…)");
            n.kids.add(body);
        }
        if (!n.hasDefault) throw a.malformedMsg(l, "a match on integers needs a final default arm (_ body…)");
        return n;
    }

    /** {@code (match items (empty …) (cons head tail …))}: list-uncons, the option branch, and record projection. */
    private static Node matchList(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        Sx.SList empty = null;
        Sx.SList cons = null;
        for (Sx x : arms) {
            Sx.SList al = arm(a, x, "(empty body…) or (cons head tail body…)");
            if ("empty".equals(Sx.head(al)) && al.items().size() >= 2) empty = al;
            else if ("cons".equals(Sx.head(al)) && al.items().size() >= 4) cons = al;
            else throw a.malformed(x, "(empty body…) or (cons head tail body…)");
        }
        if (empty == null || cons == null || arms.size() != 2) throw a.malformed(l, "both arms (empty body…) and (cons head tail body…)");
        Node list = a.expr(scrutSx, sc, b);
        Ty el = a.inf.fresh();
        a.unifyAt(list.origin, Infer.con("list", el), list.type, "match on empty/cons needs a list");
        Ty cell = new Ty.Rec(Map.of("head", el, "tail", Infer.con("list", el)));
        Node uncons = a.callWord("list-uncons", l.origin(), new Ty.Fn(List.of(Infer.con("list", el)), List.of(Infer.con("option", cell)), a.inf.eff()), List.of(list), b);
        Local r = a.newLocal("cell", cell, b);
        Scope consScope = new Scope(sc);
        Node prelude = new Node(Node.Kind.SEQ, cons.origin(), Infer.UNIT);
        bindField(a, prelude, r, "head", el, cons.items().get(1), consScope, b, cons.origin());
        bindField(a, prelude, r, "tail", Infer.con("list", el), cons.items().get(2), consScope, b, cons.origin());
        Node consBody = a.body(cons.items().subList(3, cons.items().size()), consScope, b, cons.origin());
        prelude.kids.add(consBody);
        prelude.type = consBody.type;
        Node emptyBody = a.body(empty.items().subList(1, empty.items().size()), sc, b, empty.origin());
        a.unifyAt(empty.origin(), consBody.type, emptyBody.type, "both arms must have one type");
        Node n = new Node(Node.Kind.MATCH_OPTION, l.origin(), consBody.type);
        n.local = r;
        n.kids.add(uncons);
        n.kids.add(prelude);
        n.kids.add(emptyBody);
        return n;
    }

    /** Binds {@code binder} to {@code (unwrap (record-get r field))}, a field the record type is known to have. */
    private static void bindField(Analyzer a, Node seq, Local r, String field, Ty t, Sx binder, Scope scope, Body b, Origin o) {
        if (Sx.isSymbol(binder, "_")) return;
        Node load = new Node(Node.Kind.LOCAL, o, r.type);
        load.local = r;
        Node get = recordGet(a, load, field, o, b);
        Node unwrap = a.callWord("unwrap", o, new Ty.Fn(List.of(Infer.con("option", t)), List.of(t), a.inf.eff()), List.of(get), b);
        Local x = a.declare(binder, b);
        a.unifyAt(binder.origin(), x.type, t, () -> "the field bound to '" + x.name + "'");
        seq.kids.add(a.bind(x, unwrap, o));
        scope.put(x);
    }

    /** {@code (match r (record ((field name) …) body…))}: one total arm over record projection. */
    private static Node matchRecord(Analyzer a, Sx.SList l, Sx scrutSx, List<Sx> arms, Scope sc, Body b) {
        Sx.SList al = arm(a, arms.get(0), "(record ((field name) …) body…)");
        if (arms.size() != 1 || al.items().size() < 3 || !(al.items().get(1) instanceof Sx.SList fields)) {
            throw a.malformed(l, "(match value (record ((field name) …) body…))");
        }
        Node rec = a.expr(scrutSx, sc, b);
        Local r = a.newLocal("rec", rec.type, b);
        Node seq = new Node(Node.Kind.SEQ, l.origin(), null);
        seq.kids.add(a.bind(r, rec, l.origin()));
        Scope scope = new Scope(sc);
        for (Sx f : fields.items()) {
            if (!(f instanceof Sx.SList fl) || fl.items().size() != 2) throw a.malformed(f, "(field name)");
            String field = fieldName(a, fl.items().get(0));
            Ty t = a.inf.fresh();
            Node load = new Node(Node.Kind.LOCAL, f.origin(), r.type);
            load.local = r;
            Node get = recordGet(a, load, field, f.origin(), b);
            a.unifyAt(f.origin(), Infer.con("option", t), get.type, () -> "field " + field);
            Node unwrap = a.callWord("unwrap", f.origin(), new Ty.Fn(List.of(Infer.con("option", t)), List.of(t), a.inf.eff()), List.of(get), b);
            Local x = a.declare(fl.items().get(1), b);
            a.unifyAt(f.origin(), x.type, t, () -> "the field bound to '" + x.name + "'");
            seq.kids.add(a.bind(x, unwrap, f.origin()));
            scope.put(x);
        }
        Node body = a.body(al.items().subList(2, al.items().size()), scope, b, al.origin());
        seq.kids.add(body);
        seq.type = body.type;
        return seq;
    }

    // ---------------------------------------------------------------- records, variants, results

    private static String fieldName(Analyzer a, Sx f) {
        if (f instanceof Sx.SString s) return s.value();
        if (f instanceof Sx.SKeyword k) return k.name();
        if (f instanceof Sx.SSymbol s) return s.name();
        throw a.malformedMsg(f, "a field name must be a literal: \"name\" or :name");
    }

    /**
     * {@code (defer :cpu thunk)}: the IR's {@code defer-cpu} of a closure of no arguments, answering {@code task<T>}.
     * {@code :cpu} is the only owner kind; the verifier checks that the closure is pure.
     */
    private static Node deferForm(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 3 || !(it.get(1) instanceof Sx.SKeyword kind)) throw a.malformed(l, "(defer :cpu (lambda () body))");
        if (!kind.name().equals("cpu")) {
            throw new DiagnosticException(LispCode.MALFORMED_FORM.at(kind.origin(), "defer runs work of owner kind :cpu only (a pure "
                    + "closure on the local worker pool), not :" + kind.name() + "; agent work uses the agent-* words", ":cpu", ":" + kind.name()));
        }
        Node thunk = a.expr(it.get(2), sc, b);
        Ty value = a.inf.fresh();
        a.unifyAt(thunk.origin, new Ty.Fn(List.of(), List.of(value), a.inf.eff()), thunk.type, "the closure of defer :cpu (no arguments)");
        return special(a, "defer-cpu", l.origin(), Infer.con("task", value), List.of(thunk), b);
    }

    static Node special(Analyzer a, String word, Origin o, Ty t, List<Node> args, Body b) {
        Node n = new Node(Node.Kind.CALL, o, t);
        n.name = word;
        n.kids.addAll(args);
        return n;
    }

    static Node recordGet(Analyzer a, Node r, String field, Origin o, Body b) {
        Ty out = a.inf.fresh();
        Node n = special(a, "record-get", o, Infer.con("option", out), List.of(r), b);
        n.immediates.add(field);
        a.defer(force -> {
            Ty rt = r.type.prune();
            if (rt instanceof Ty.Rec rec) {
                Ty ft = rec.fields().get(field);
                if (ft == null) throw noField(o, field, rt);
                a.unifyAt(o, ft, out, () -> "field " + field);
                return true;
            }
            if (rt instanceof Ty.Var) {
                if (!force) return false;
                throw new DiagnosticException(LispCode.AMBIGUOUS.at(o, "the record type read by record-get \"" + field
                        + "\" is not known here; annotate it, e.g. [r : record{" + field + ":int}]", "record{" + field + ":…}", Infer.show(rt)));
            }
            throw noField(o, field, rt);
        });
        return n;
    }

    private static DiagnosticException noField(Origin o, String field, Ty rt) {
        return new DiagnosticException(LispCode.NO_FIELD.at(o, Infer.show(rt) + " has no field '" + field + "'", "a record with field " + field, Infer.show(rt)));
    }

    private static Node recordSet(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 4) throw a.malformed(l, "(record-set record \"field\" value)");
        Node r = a.expr(it.get(1), sc, b);
        String field = fieldName(a, it.get(2));
        Node v = a.expr(it.get(3), sc, b);
        Origin o = l.origin();
        Node n = special(a, "record-set", o, r.type, List.of(r, v), b);
        n.immediates.add(field);
        a.defer(force -> {
            Ty rt = r.type.prune();
            if (rt instanceof Ty.Rec rec) {
                Ty ft = rec.fields().get(field);
                if (ft == null) throw noField(o, field, rt);
                a.unifyAt(v.origin, ft, v.type, () -> "the new value of field " + field);
                return true;
            }
            if (rt instanceof Ty.Var) {
                if (!force) return false;
                throw new DiagnosticException(LispCode.AMBIGUOUS.at(o, "the record type changed by record-set is not known here; annotate it",
                        "record{" + field + ":…}", Infer.show(rt)));
            }
            throw noField(o, field, rt);
        });
        return n;
    }

    private static String tagName(Analyzer a, Sx t) {
        if (t instanceof Sx.SKeyword k) return k.name();
        if (t instanceof Sx.SQuote q && q.datum() instanceof Sx.SSymbol s) return s.name();
        throw a.malformedMsg(t, "a variant tag is written :tag");
    }

    private static Node variant(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 3 && it.size() != 4) throw a.malformed(l, "(variant variant{…} :tag payload)");
        Ty vt = a.annotation(Analyzer.typeText(it.get(1)), it.get(1).origin(), b.annotationVars);
        if (!(vt instanceof Ty.Con c) || !c.name().equals("variant")) {
            throw new DiagnosticException(LispCode.BAD_TAG.at(it.get(1).origin(), "variant needs a closed variant type such as variant{none|some(int)}", "variant{…}", Infer.show(vt)));
        }
        String tag = tagName(a, it.get(2));
        if (!c.tags().contains(tag)) {
            throw new DiagnosticException(LispCode.BAD_TAG.at(it.get(2).origin(), Infer.show(vt) + " has no tag '" + tag + "'", String.join("|", c.tags()), tag));
        }
        Ty payload = c.payloadOf(tag);
        List<Node> args = new ArrayList<>();
        if (payload == null && it.size() == 4) throw new DiagnosticException(LispCode.BAD_TAG.at(it.get(3).origin(), "tag '" + tag + "' carries no payload"));
        if (payload != null) {
            if (it.size() != 4) throw new DiagnosticException(LispCode.BAD_TAG.at(l.origin(), "tag '" + tag + "' needs a payload of type " + Infer.show(payload)));
            Node p = a.expr(it.get(3), sc, b);
            a.unifyAt(p.origin, payload, p.type, () -> "the payload of tag '" + tag + "'");
            args.add(p);
        }
        Node n = special(a, "variant", l.origin(), vt, args, b);
        n.immediates.add(vt);
        n.immediates.add(tag);
        return n;
    }

    private static Node variantGet(Analyzer a, Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.size() != 3) throw a.malformed(l, "(variant-get value :tag)");
        Node v = a.expr(it.get(1), sc, b);
        String tag = tagName(a, it.get(2));
        Ty out = a.inf.fresh();
        Origin o = l.origin();
        Node n = special(a, "variant-get", o, Infer.con("option", out), List.of(v), b);
        n.immediates.add(tag);
        a.defer(force -> {
            Ty vt = v.type.prune();
            if (vt instanceof Ty.Con c && c.name().equals("variant")) {
                if (!c.tags().contains(tag)) {
                    throw new DiagnosticException(LispCode.BAD_TAG.at(o, Infer.show(vt) + " has no tag '" + tag + "'", String.join("|", c.tags()), tag));
                }
                Ty p = c.payloadOf(tag);
                a.unifyAt(o, p == null ? Infer.UNIT : p, out, () -> "the payload of tag '" + tag + "'");
                return true;
            }
            if (vt instanceof Ty.Var) {
                if (!force) return false;
                throw new DiagnosticException(LispCode.AMBIGUOUS.at(o, "the variant type read by variant-get is not known here; annotate it", "variant{…}", Infer.show(vt)));
            }
            throw new DiagnosticException(LispCode.BAD_TAG.at(o, "variant-get needs a variant, found " + Infer.show(vt), "variant{…}", Infer.show(vt)));
        });
        return n;
    }

    private static Node tryForm(Analyzer a, Sx.SList l, Scope sc, Body b) {
        if (l.items().size() != 2) throw a.malformed(l, "(try result)");
        if (b == a.main) {
            // The top level has no result to return to: the same Propagate the Co-Forth ? lowers to, which the verifier
            // rejects there with the same diagnostic in both spellings.
            Node e = a.expr(l.items().get(1), sc, b);
            Ty ok = a.inf.fresh();
            a.unifyAt(e.origin, Infer.con("result", ok, a.inf.fresh()), e.type, "try needs a result");
            Node n = new Node(Node.Kind.PROPAGATE, l.origin(), ok);
            n.kids.add(e);
            return n;
        }
        if (b.declaredReturn == null) {
            // A closure is a target exactly when it declares its result, as a Co-Forth closure always does (its
            // signature): try returns the err from the innermost function, the lambda, never from the enclosing one.
            throw new DiagnosticException(LispCode.TRY_OUTSIDE_RESULT.at(l.origin(), b.lambda
                    ? "try in a lambda needs the lambda to declare its result type, e.g. (lambda ([x : int]) : result<int,string> …)"
                    : "try needs an enclosing function whose declared return type is result<…>, e.g. "
                    + "(define (f [x : int]) : result<int,string> …); top-level forms cannot propagate"));
        }
        Ty ret = b.declaredReturn.prune();
        if (!(ret instanceof Ty.Con c) || !c.name().equals("result")) {
            throw new DiagnosticException(LispCode.TRY_OUTSIDE_RESULT.at(l.origin(), "try needs the function's declared return type to be result<…>",
                    "result<…>", Infer.show(ret)));
        }
        Node e = a.expr(l.items().get(1), sc, b);
        Ty ok = a.inf.fresh();
        a.unifyAt(e.origin, Infer.con("result", ok, c.args().get(1)), e.type, "try needs a result with the function's error type");
        Node n = new Node(Node.Kind.PROPAGATE, l.origin(), ok);
        n.kids.add(e);
        return n;
    }

    private static void yieldIn(Analyzer a, Body b, Ty t, Origin o) {
        try {
            a.inf.addYield(b.eff, t);
        } catch (Infer.Clash c) {
            throw new DiagnosticException(LispCode.TYPE_MISMATCH.at(o, "every yield of one function must publish one type: " + c.getMessage(),
                    Infer.show(b.eff.yielded()), Infer.show(t)));
        }
    }

    // ---------------------------------------------------------------- vocabulary calls

    /** A call of a vocabulary word with analyzed arguments: overloads resolve after inference, defaulting to the first (int). */
    static Node vocabulary(Analyzer a, WordSpec spec, Sx.SList l, List<Node> args, Body b) {
        String name = spec.name();
        Origin o = l.origin();
        // fiber-new's dedicated rule needs no immediate: Lisp types it by its documented shape, the verifier by its rule.
        if (spec.special() && spec.typing() != dev.finch.ir.vocab.Typing.FIBER_NEW) {
            throw new DiagnosticException(LispCode.NOT_CALLABLE.at(o, "'" + name + "' is written as its own form: "
                    + (name.equals("execute") ? "call a function value directly, ((f) x)" : "(" + name + " …) with a literal type, tag or field")));
        }
        if (name.equals("-") && args.size() == 1 && a.env.vocabulary().word("negate").isPresent()) {
            return vocabulary(a, a.env.vocabulary().word("negate").get(), l, args, b);
        }
        if (args.size() > 2 && spec.foldsLeft()) {
            // A left fold as a flat chain of binary calls, each taking the one before from the stack.
            Node chain = new Node(Node.Kind.CHAIN, o, null);
            chain.kids.add(vocabulary(a, spec, l, args.subList(0, 2), b));
            for (int i = 2; i < args.size(); i++) {
                chain.kids.add(vocabulary(a, spec, l, List.of(Node.stacked(chain.kid(chain.kids.size() - 1)), args.get(i)), b));
            }
            chain.type = chain.kid(chain.kids.size() - 1).type;
            chain.outs = chain.kid(chain.kids.size() - 1).outs;
            return chain;
        }
        List<Type.Fn> overloads = ofArity(spec.signatures(), args.size());
        if (overloads.size() == 1) {
            Type.Fn sig = overloads.get(0);
            if (Infer.flatAndPure(sig)) {
                // drop, dup, swap, not…: primitives and variables only, pure: no function type or effect class to build.
                Map<String, Ty> vars = new HashMap<>(4);
                List<Ty> ins = new ArrayList<>(sig.ins().size()), outs = new ArrayList<>(sig.outs().size());
                for (Type t : sig.ins()) ins.add(a.inf.flat(t, vars));
                for (Type t : sig.outs()) outs.add(a.inf.flat(t, vars));
                return a.callPure(name, o, ins, outs, args);
            }
            Map<String, Ty> vars = new HashMap<>();
            Ty.Fn t = (Ty.Fn) a.inf.fromType(sig, vars);
            return a.callWord(name, o, t, args, b);
        }
        int arity = overloads.get(0).ins().size();
        if (args.size() != arity) {
            throw new DiagnosticException(LispCode.ARITY.at(o, "'" + name + "' takes " + arity + " argument(s), given " + args.size(),
                    Integer.toString(arity), Integer.toString(args.size())));
        }
        Ty out = a.inf.fresh();
        Node n = new Node(Node.Kind.CALL, o, out);
        n.name = name;
        n.kids.addAll(args);
        n.outs = overloads.get(0).outs().size();
        a.defer(new OverloadChoice(a, spec, overloads, args, out, o, b));
        return n;
    }

    /** The overloads taking {@code arity} inputs, when some do (a word may have overloads of several arities); else all. */
    private static List<Type.Fn> ofArity(List<Type.Fn> overloads, int arity) {
        List<Type.Fn> out = new ArrayList<>(overloads.size());
        for (Type.Fn f : overloads) if (f.ins().size() == arity) out.add(f);
        return out.isEmpty() || out.size() == overloads.size() ? overloads : out;
    }

    /**
     * Chooses the overload of a vocabulary call once its argument types tell: the first that fits, or, forced, the
     * first of several. A named class, not a lambda: a fresh JVM's first Lisp submission links none.
     */
    private static final class OverloadChoice implements Pending {
        private final Analyzer a;
        private final WordSpec spec;
        private final List<Type.Fn> overloads;
        private final List<Node> args;
        private final Ty out;
        private final Origin o;
        private final Body b;

        OverloadChoice(Analyzer a, WordSpec spec, List<Type.Fn> overloads, List<Node> args, Ty out, Origin o, Body b) {
            this.a = a;
            this.spec = spec;
            this.overloads = overloads;
            this.args = args;
            this.out = out;
            this.o = o;
            this.b = b;
        }

        @Override
        public boolean attempt(boolean force) {
            String name = spec.name();
            List<Type.Fn> fits = new ArrayList<>();
            for (Type.Fn f : overloads) {
                boolean ok = f.outs().size() == 1 && fits(out, f.outs().get(0));
                for (int i = 0; ok && i < args.size(); i++) ok = fits(args.get(i).type, f.ins().get(i));
                if (ok) fits.add(f);
            }
            if (fits.isEmpty()) {
                StringBuilder found = new StringBuilder();
                for (Node x : args) found.append(found.length() == 0 ? "" : " ").append(Infer.show(x.type));
                throw new DiagnosticException(LispCode.NO_OVERLOAD.at(o, "no overload of '" + name + "' takes " + found, spec.signatureText(), found.toString()));
            }
            if (fits.size() > 1 && !force) return false;
            Type.Fn chosen = fits.get(0);
            if (Infer.primitivesOnly(chosen)) {
                // int int -> int and the like: the primitives unify as they are, and a pure call adds nothing to the body's effects.
                for (int i = 0; i < args.size(); i++) a.unifyArgument(args.get(i).origin, Infer.primitive(chosen.ins().get(i)), args.get(i).type, i, name);
                a.unifyResult(o, Infer.primitive(chosen.outs().get(0)), out, name);
                return true;
            }
            Ty.Fn t = (Ty.Fn) a.inf.fromType(chosen, new HashMap<>());
            for (int i = 0; i < args.size(); i++) a.unifyArgument(args.get(i).origin, t.ins().get(i), args.get(i).type, i, name);
            a.unifyResult(o, t.outs().get(0), out, name);
            Infer.flows(t.eff(), b.eff);
            return true;
        }
    }

    /** Whether an inference type could be an instance of an overload's parameter type (variables fit anything). */
    private static boolean fits(Ty t, Type p) {
        t = t.prune();
        if (t instanceof Ty.Var || p.kind() == Type.Kind.VAR) return true;
        return switch (p.kind()) {
            case PRIM, PATH, NAMED -> t instanceof Ty.Con c && c.args().isEmpty() && c.name().equals(p.toString());
            case OPTION -> t instanceof Ty.Con c && c.name().equals("option") && fits(c.args().get(0), ((Type.OptionT) p).value());
            case LIST -> t instanceof Ty.Con c && c.name().equals("list") && fits(c.args().get(0), ((Type.ListT) p).element());
            case RESULT -> t instanceof Ty.Con c && c.name().equals("result");
            case MAP -> t instanceof Ty.Con c && c.name().equals("map");
            case RECORD -> t instanceof Ty.Rec r && r.fields().keySet().equals(((Type.RecordT) p).fields().keySet());
            case FN -> t instanceof Ty.Fn;
            case VARIANT, TASK, FIBER, STREAM, RESOURCE, VAR -> true;
        };
    }
}
