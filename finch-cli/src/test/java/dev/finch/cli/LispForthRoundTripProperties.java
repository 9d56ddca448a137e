package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.StackEntry;
import dev.finch.Submission;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 3 (canonical Co-Forth): for many generated well-typed Lisp programs, running the Lisp and running the
 * canonical Co-Forth that {@code finch check --emit forth} prints for it ({@code Session.check(...).canonicalForth()})
 * give the same outcome: status, say output, stack types and displays, and the first diagnostic's code. Each run
 * uses a fresh session. The generator is type-directed, so every program verifies; run-time failures (division by
 * zero, unwrap of none) are allowed and must fail the same way in both spellings.
 */
class LispForthRoundTripProperties {
    private static final Finch FINCH = Finch.builder().maxSteps(2_000_000).build();

    @Property(tries = 400)
    void lispAndItsCanonicalCoForthBehaveTheSame(@ForAll("programs") String lisp) {
        assertRoundTrip(lisp);
    }

    /** The forms the generator covers, once each, so that a regression names its form. */
    @Example
    void handPickedProgramsRoundTrip() {
        for (String lisp : List.of(
                "(define (fact [n : int]) : int (if (<= n 0) 1 (* n (fact (- n 1))))) (fact 5)",
                "(define (adder k) (lambda (x) (+ x k))) ((adder 2) 40)",
                "(let ((i 0) (acc \"\")) (while (< i 3) (set! acc (string-append acc (int-to-string i))) (set! i (+ i 1))) acc)",
                "(define c 7) (say (int-to-string (* c 6)))",
                "(let* ((a 1) (b (+ a 1))) (cond ((> a b) \"gt\") ((= a b) \"eq\") (else \"lt\")))",
                "(match-option (list-get (list 1 2 3) 1) (some v (* v 10)) (none -1))",
                "(match-result (if true (ok 1) (err \"no\")) (ok v v) (err e (string-length e)))",
                "(match (list 1 2 3) (empty 0) (cons h t (+ h (list-length t))))",
                "(match { :n 1 :s \"x\" } (record ((n a) (s b)) (string-append b (int-to-string a))))",
                "(match 2 (1 \"one\") (2 \"two\") (_ \"many\"))",
                "(match (variant variant{a|b(int)} :b 5) ((a) 0) ((b x) x))",
                "(when (< 1 2) (say \"a\\n\")) (unless (< 1 2) (say \"b\")) (say \"q\\\"t\\\\é\")",
                "(list-append '(1 2 3) 4) (record-set { :n 1 :s \"x\" } \"n\" 5) 'sym (some 3) 1.5 (/ 7 0)",
                "(define (evn [n : int]) : bool (if (= n 0) true (od (- n 1)))) (define (od [n : int]) : bool (if (= n 0) false (evn (- n 1)))) (evn 4)",
                "(map-get (map \"a\" 1 \"b\" 2) \"b\") (map-entries (map 1 \"x\"))",
                "(lambda ([x : int]) (+ x 1)) (list 1e10 -0.0 1.0e-5 2.5) \"\\u0001\\0\"",
                "(let ((then 1) (of 2) (if-some 3) (x: 4)) (+ then of if-some x:))",
                "(define (k [f : (int -> int)]) (f 2)) (k (lambda (x) (* x 21)))",
                "(define (id x) x) (id 1) (id \"s\") (define (f) (say \"x\")) (f) (f)",
                "(let ((g (lambda () (say \"hey\")))) (g) (g)) (map 'a 1 'b 2) (string-to-int \"42\")",
                "(let loop ((i 0) (s \"\")) (match i (3 s) (_ (loop (+ i 1) (string-append s \"x\")))))",
                "(let loop ((i 0)) (when (< i 3) (say (int-to-string i)) (loop (+ i 1))))",
                "(let loop ((xs '(1 2 3)) (sum 0)) (match xs (empty sum) (cons h t (loop t (+ sum h)))))")) {
            assertRoundTrip(lisp);
        }
    }

    private static void assertRoundTrip(String lisp) {
        CheckResult check = FINCH.newSession().check(Submission.of(lisp, "prop.lisp").withLanguage(Language.LISP));
        assertThat(check.diagnostics()).as("the generated Lisp verifies:\n%s", lisp).isEmpty();
        String forth = check.canonicalForth().orElseThrow();
        Outcome viaLisp = FINCH.newSession().submit(Submission.of(lisp, "prop.lisp").withLanguage(Language.LISP));
        Outcome viaForth = FINCH.newSession().submit(Submission.of(forth, "prop.fth").withLanguage(Language.FORTH));
        String context = "Lisp:\n" + lisp + "\ncanonical Co-Forth:\n" + forth + "\nLisp outcome: " + summary(viaLisp)
                + "\nCo-Forth outcome: " + summary(viaForth);
        assertThat(summary(viaForth)).as(context).isEqualTo(summary(viaLisp));
    }

    /** What must agree: status, output, stack, and the first diagnostic's phase and code. */
    private static String summary(Outcome o) {
        StringBuilder b = new StringBuilder(o.status().spelling()).append(" output=").append(o.output()).append(" stack=");
        // A closure's display names where it was made (closure@source:line:col); the two spellings differ there only.
        for (StackEntry e : o.stack()) b.append('[').append(e.type()).append(' ').append(e.display().replaceAll("@[^>]*>", ">")).append(']');
        if (!o.diagnostics().isEmpty()) b.append(" error=").append(o.diagnostics().get(0).phase()).append(' ').append(o.diagnostics().get(0).code());
        return b.toString();
    }

    @Provide
    Arbitrary<String> programs() {
        return Arbitraries.randomValue(random -> new Gen(random).program());
    }

    // -------------------------------------------------------------------------------------------- generator

    /** The types the generator builds expressions of. */
    enum T { INT, BOOL, STR, LIST, OPT, RES, REC, FN }

    /** A local in scope: its name and type. */
    record Var(String name, T type) { }

    /** A top-level function the program defined: its name, parameter type and result type. */
    record Fn(String name, T param, T result, boolean recursive) { }

    /** A type-directed random generator of well-typed Lisp. */
    static final class Gen {
        private final Random r;
        private final List<Fn> functions = new ArrayList<>();
        private final List<Var> constants = new ArrayList<>();
        private int names;

        Gen(Random r) { this.r = r; }

        String program() {
            StringBuilder b = new StringBuilder();
            int defs = r.nextInt(3);
            for (int i = 0; i < defs; i++) b.append(definition()).append('\n');
            int forms = 1 + r.nextInt(4);
            for (int i = 0; i < forms; i++) b.append(topForm()).append('\n');
            return b.toString();
        }

        private String fresh(String base) { return base + (++names); }

        private String definition() {
            switch (r.nextInt(4)) {
                case 0: {
                    String name = fresh("rec");
                    String n = fresh("n");
                    List<Var> env = List.of(new Var(n, T.INT));
                    String def = "(define (" + name + " [" + n + " : int]) : int (if (<= " + n + " 0) " + expr(T.INT, List.of(), 2)
                            + " (+ " + expr(T.INT, env, 2) + " (" + name + " (- " + n + " 1)))))";
                    functions.add(new Fn(name, T.INT, T.INT, true));
                    return def;
                }
                case 1: {
                    String name = fresh("c");
                    String def = "(define " + name + " " + expr(T.INT, List.of(), 3) + ")";
                    constants.add(new Var(name, T.INT));
                    return def;
                }
                default: {
                    String name = fresh("f");
                    T param = pick(T.INT, T.STR, T.INT, T.LIST);
                    T result = pick(T.INT, T.STR, T.BOOL, T.OPT);
                    String x = fresh("x");
                    String p = r.nextBoolean() ? "[" + x + " : " + spell(param) + "]" : x;
                    List<Var> env = List.of(new Var(x, param));
                    // The parameter is used, so that an unannotated one is typed by inference.
                    String body = "(begin " + use(x, param) + " " + expr(result, env, 3) + ")";
                    functions.add(new Fn(name, param, result, false));
                    return "(define (" + name + " " + p + ") " + body + ")";
                }
            }
        }

        /** An expression that mentions x and has no effect on the result. */
        private String use(String x, T t) {
            switch (t) {
                case INT: return "(+ " + x + " 0)";
                case STR: return "(string-length " + x + ")";
                case LIST: return "(list-length " + x + ")";
                default: return x;
            }
        }

        private String topForm() {
            switch (r.nextInt(6)) {
                case 0: return "(say " + expr(T.STR, List.of(), 3) + ")";
                case 1: return "(when " + expr(T.BOOL, List.of(), 2) + " (say " + expr(T.STR, List.of(), 2) + "))";
                case 2: return "(unless " + expr(T.BOOL, List.of(), 2) + " (say " + expr(T.STR, List.of(), 2) + "))";
                default: {
                    T t = pick(T.INT, T.INT, T.BOOL, T.STR, T.LIST, T.OPT, T.REC, T.INT);
                    return expr(t, List.of(), 4);
                }
            }
        }

        private static String spell(T t) {
            switch (t) {
                case INT: return "int";
                case BOOL: return "bool";
                case STR: return "string";
                case LIST: return "list<int>";
                case OPT: return "option<int>";
                case RES: return "result<int,string>";
                case REC: return "record{n:int,s:string}";
                default: return "(int -> int)";
            }
        }

        @SafeVarargs
        private <X> X pick(X... xs) { return xs[r.nextInt(xs.length)]; }

        private List<Var> with(List<Var> env, Var v) {
            List<Var> out = new ArrayList<>(env);
            out.add(v);
            return out;
        }

        private String local(T t, List<Var> env) {
            List<String> cands = new ArrayList<>();
            for (Var v : env) if (v.type() == t) cands.add(v.name());
            if (t == T.INT) for (Var v : constants) cands.add(v.name());
            return cands.isEmpty() ? null : cands.get(r.nextInt(cands.size()));
        }

        String expr(T t, List<Var> env, int depth) {
            if (depth <= 0 || r.nextInt(5) == 0) {
                String l = local(t, env);
                if (l != null && r.nextBoolean()) return l;
                return leaf(t, env);
            }
            int d = depth - 1;
            switch (t) {
                case INT: return intExpr(env, d);
                case BOOL: return boolExpr(env, d);
                case STR: return strExpr(env, d);
                case LIST: {
                    switch (r.nextInt(5)) {
                        case 0: return "(list " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                        case 1: return "(list-append " + expr(T.LIST, env, d) + " " + expr(T.INT, env, d) + ")";
                        case 2: return "(if " + expr(T.BOOL, env, d) + " " + expr(T.LIST, env, d) + " (empty-list int))";
                        default: return common(T.LIST, env, d);
                    }
                }
                case OPT: {
                    switch (r.nextInt(5)) {
                        case 0: return "(some " + expr(T.INT, env, d) + ")";
                        case 1: return "(list-get " + expr(T.LIST, env, d) + " " + expr(T.INT, env, d) + ")";
                        case 2: return "(if " + expr(T.BOOL, env, d) + " " + expr(T.OPT, env, d) + " (none))";
                        case 3: return "(string-to-int " + expr(T.STR, env, d) + ")";
                        default: return common(T.OPT, env, d);
                    }
                }
                case RES:
                    return r.nextBoolean() ? "(if " + expr(T.BOOL, env, d) + " (ok " + expr(T.INT, env, d) + ") (err " + expr(T.STR, env, d) + "))"
                            : common(T.RES, env, d);
                case REC:
                    return r.nextBoolean() ? "(record-set " + expr(T.REC, env, d) + " \"n\" " + expr(T.INT, env, d) + ")" : common(T.REC, env, d);
                default: {
                    String y = fresh("y");
                    return "(lambda ([" + y + " : int]) " + expr(T.INT, with(env, new Var(y, T.INT)), d) + ")";
                }
            }
        }

        private String leaf(T t, List<Var> env) {
            switch (t) {
                case INT: return Integer.toString(r.nextInt(25) - 5);
                case BOOL: return r.nextBoolean() ? "true" : "false";
                case STR: return pick("\"\"", "\"a\"", "\"hi \"", "\"x\\ny\"", "\"q\\\"t\"", "\"back\\\\slash\"", "\"é ü\"", "\"tab\\t\"", "\"(paren\"");
                case LIST: return pick("(list 1 2 3)", "'(4 5)", "(empty-list int)", "(list -1)");
                case OPT: return pick("(some 1)", "(list-get (list 7) 0)", "(list-get (list 7) 3)");
                case RES: return pick("(if true (ok 1) (err \"e\"))", "(if false (ok 2) (err \"bad\"))");
                case REC: return "{ :n " + (r.nextInt(9)) + " :s " + leaf(T.STR, env) + " }";
                default: return "(lambda ([z : int]) (* z 2))";
            }
        }

        /** Forms that work at any type: if, let, let*, begin with say, cond, match on an int, local closures. */
        private String common(T t, List<Var> env, int d) {
            switch (r.nextInt(7)) {
                case 0: return "(if " + expr(T.BOOL, env, d) + " " + expr(t, env, d) + " " + expr(t, env, d) + ")";
                case 1: {
                    String v = fresh("v");
                    T vt = pick(T.INT, T.STR, T.LIST, T.BOOL);
                    return "(let ((" + v + " " + expr(vt, env, d) + ")) " + expr(t, with(env, new Var(v, vt)), d) + ")";
                }
                case 2: {
                    String a = fresh("a");
                    String b = fresh("b");
                    List<Var> e1 = with(env, new Var(a, T.INT));
                    return "(let* ((" + a + " " + expr(T.INT, env, d) + ") (" + b + " (+ " + a + " 1))) " + expr(t, with(e1, new Var(b, T.INT)), d) + ")";
                }
                case 3: return "(begin (say " + expr(T.STR, env, d) + ") " + expr(t, env, d) + ")";
                case 4: return "(cond (" + expr(T.BOOL, env, d) + " " + expr(t, env, d) + ") (" + expr(T.BOOL, env, d) + " " + expr(t, env, d)
                        + ") (else " + expr(t, env, d) + "))";
                case 5: return "(match " + expr(T.INT, env, d) + " (0 " + expr(t, env, d) + ") (3 " + expr(t, env, d) + ") (_ " + expr(t, env, d) + "))";
                default: {
                    String g = fresh("g");
                    String y = fresh("y");
                    String body = expr(t, with(env, new Var(y, T.INT)), d);
                    return "(let ((" + g + " (lambda ([" + y + " : int]) " + body + "))) (" + g + " " + expr(T.INT, env, d) + "))";
                }
            }
        }

        private String intExpr(List<Var> env, int d) {
            switch (r.nextInt(21)) {
                case 0: return "(+ " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                case 1: return "(- " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                case 2: return "(* " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                case 3: return "(" + pick("/", "mod") + " " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                case 4: return "(list-length " + expr(T.LIST, env, d) + ")";
                case 5: return "(string-length " + expr(T.STR, env, d) + ")";
                case 6: {
                    String v = fresh("v");
                    return "(match-option " + expr(T.OPT, env, d) + " (some " + v + " " + expr(T.INT, with(env, new Var(v, T.INT)), d) + ") (none "
                            + expr(T.INT, env, d) + "))";
                }
                case 7: {
                    String v = fresh("v");
                    String e = fresh("e");
                    return "(match-result " + expr(T.RES, env, d) + " (ok " + v + " " + expr(T.INT, with(env, new Var(v, T.INT)), d) + ") (err " + e
                            + " " + expr(T.INT, with(env, new Var(e, T.STR)), d) + "))";
                }
                case 8: {
                    String h = fresh("h");
                    String tl = fresh("t");
                    List<Var> e2 = with(with(env, new Var(h, T.INT)), new Var(tl, T.LIST));
                    return "(match " + expr(T.LIST, env, d) + " (empty " + expr(T.INT, env, d) + ") (cons " + h + " " + tl + " " + expr(T.INT, e2, d) + "))";
                }
                case 9: {
                    String a = fresh("a");
                    String s = fresh("s");
                    List<Var> e2 = with(with(env, new Var(a, T.INT)), new Var(s, T.STR));
                    return "(match " + expr(T.REC, env, d) + " (record ((n " + a + ") (s " + s + ")) " + expr(T.INT, e2, d) + "))";
                }
                case 10: {
                    // A counting loop with set! on its own locals; the bound is a small literal.
                    String i = fresh("i");
                    String acc = fresh("acc");
                    List<Var> e2 = with(with(env, new Var(i, T.INT)), new Var(acc, T.INT));
                    return "(let ((" + i + " 0) (" + acc + " " + expr(T.INT, env, d) + ")) (while (< " + i + " " + r.nextInt(5) + ") (set! " + acc + " "
                            + expr(T.INT, e2, d) + ") (set! " + i + " (+ " + i + " 1))) " + acc + ")";
                }
                case 17: {
                    // A named let: a loop with its calls in tail position.
                    String loop = fresh("loop");
                    String k = fresh("k");
                    String acc = fresh("acc");
                    List<Var> e2 = with(with(env, new Var(k, T.INT)), new Var(acc, T.INT));
                    return "(let " + loop + " ((" + k + " 0) (" + acc + " " + expr(T.INT, env, d) + ")) (if (< " + k + " " + r.nextInt(5) + ") ("
                            + loop + " (+ " + k + " 1) " + expr(T.INT, e2, d) + ") " + acc + "))";
                }
                case 11: return "((lambda ([y" + (++names) + " : int]) (+ y" + names + " " + expr(T.INT, env, d) + ")) " + expr(T.INT, env, d) + ")";
                case 12: return "(" + expr(T.FN, env, d) + " " + expr(T.INT, env, d) + ")";
                case 13: {
                    Fn f = function(T.INT);
                    if (f == null) return expr(T.INT, env, d);
                    if (f.recursive()) return "(" + f.name() + " " + r.nextInt(6) + ")";
                    return "(" + f.name() + " " + expr(f.param(), env, d) + ")";
                }
                case 14: return "(unwrap " + expr(T.OPT, env, d) + ")";
                case 15: return "(unwrap (record-get " + expr(T.REC, env, d) + " \"n\"))";
                case 16: {
                    int tag = r.nextInt(3);
                    String value = tag == 0 ? ":none" : tag == 1 ? ":one " + expr(T.INT, env, d) : ":two " + expr(T.REC, env, d);
                    String x = fresh("x");
                    String rr = fresh("rr");
                    return "(match (variant variant{none|one(int)|two(record{n:int,s:string})} " + value + ") ((none) 0) ((one " + x + ") (+ " + x
                            + " 1)) ((two " + rr + ") (unwrap (record-get " + rr + " \"n\"))))";
                }
                default: return common(T.INT, env, d);
            }
        }

        private Fn function(T result) {
            List<Fn> cands = new ArrayList<>();
            for (Fn f : functions) if (f.result() == result) cands.add(f);
            return cands.isEmpty() ? null : cands.get(r.nextInt(cands.size()));
        }

        private String boolExpr(List<Var> env, int d) {
            switch (r.nextInt(10)) {
                case 0: return "(" + pick("<", ">", "<=", ">=", "=", "<>") + " " + expr(T.INT, env, d) + " " + expr(T.INT, env, d) + ")";
                case 1: return "(not " + expr(T.BOOL, env, d) + ")";
                case 2: return "(and " + expr(T.BOOL, env, d) + " " + expr(T.BOOL, env, d) + ")";
                case 3: return "(or " + expr(T.BOOL, env, d) + " " + expr(T.BOOL, env, d) + ")";
                case 4: return "(is-some " + expr(T.OPT, env, d) + ")";
                case 5: return "(is-ok " + expr(T.RES, env, d) + ")";
                case 6: return "(match " + expr(T.BOOL, env, d) + " (true " + expr(T.BOOL, env, d) + ") (false " + expr(T.BOOL, env, d) + "))";
                case 7: {
                    Fn f = function(T.BOOL);
                    return f == null ? "(= " + expr(T.STR, env, d) + " " + expr(T.STR, env, d) + ")" : "(" + f.name() + " " + expr(f.param(), env, d) + ")";
                }
                default: return common(T.BOOL, env, d);
            }
        }

        private String strExpr(List<Var> env, int d) {
            switch (r.nextInt(7)) {
                case 0: return "(string-append " + expr(T.STR, env, d) + " " + expr(T.STR, env, d) + ")";
                case 1: return "(int-to-string " + expr(T.INT, env, d) + ")";
                case 2: return "(unwrap (record-get " + expr(T.REC, env, d) + " \"s\"))";
                case 3: {
                    Fn f = function(T.STR);
                    return f == null ? "(string-append " + expr(T.STR, env, d) + " \"!\")" : "(" + f.name() + " " + expr(f.param(), env, d) + ")";
                }
                default: return common(T.STR, env, d);
            }
        }
    }
}
