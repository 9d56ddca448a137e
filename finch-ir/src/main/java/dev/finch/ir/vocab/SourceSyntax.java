package dev.finch.ir.vocab;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The source syntax of the three frontends ({@code if}, {@code while}, {@code define}, {@code datatype}, …), one entry
 * per form and language, each with its form, a one-line meaning and a runnable example. Discovery reports syntax
 * without a runtime signature, because it has none. Unlike words, syntax is fixed by the frontends and not installed
 * by hosts; this module sees no frontend (decisions D1), so finch-core's {@code SourceSyntaxCoverageTest} derives the
 * list of forms from each grammar and fails when one of them has no entry here.
 */
public final class SourceSyntax {
    /** The language names of {@link SyntaxSpec#languages()}, as submissions spell them. */
    public static final String FORTH = "forth", LISP = "lisp", NORMAN = "norman";

    private static final List<SyntaxSpec> SYNTAX = new ArrayList<>();

    static {
        forth();
        lisp();
        norman();
        meanings();
    }

    /**
     * What other languages call these forms, in the habits models bring (Forth's counted loops, Scheme's and Common
     * Lisp's definitions and loops): an unknown name among them is answered with the form by meaning.
     */
    private static void meanings() {
        aka(FORTH, "begin", "do", "?do", "loop", "+loop", "for", "next", "again", "leave");
        aka(FORTH, ":>", "variable", "value", "to", "!", "@", "locals|");
        aka(FORTH, "if", "endif");
        aka(FORTH, "[:", ":noname");
        aka(LISP, "while", "do", "dotimes", "dolist", "for", "loop", "repeat", "until");
        aka(LISP, "define", "defun", "def", "defn", "defvar", "defparameter");
        aka(LISP, "set!", "setq", "setf", "set");
        aka(LISP, "lambda", "fn", "λ");
        aka(LISP, "begin", "progn");
        aka(LISP, "match", "pcase", "match-lambda");
    }

    /** Gives the form {@code name} of {@code language} the names other languages spell it with. */
    private static void aka(String language, String name, String... names) {
        for (int i = 0; i < SYNTAX.size(); i++) {
            SyntaxSpec s = SYNTAX.get(i);
            if (s.name().equals(name) && s.languages().contains(language)) {
                SYNTAX.set(i, new SyntaxSpec(s.name(), s.languages(), s.form(), s.doc(), s.example(), s.parts(), List.of(names)));
                return;
            }
        }
        throw new IllegalStateException("no " + language + " form " + name);
    }

    /** The forms of {@code language} another language spells {@code word} (its {@link SyntaxSpec#aka}), in documentation order. */
    public static List<SyntaxSpec> byMeaning(String word, String language) {
        List<SyntaxSpec> out = new ArrayList<>();
        for (SyntaxSpec s : SYNTAX) if (s.languages().contains(language) && s.aka().contains(word)) out.add(s);
        return List.copyOf(out);
    }

    private SourceSyntax() { }

    private static void forth() {
        add(FORTH, ":", ": name ( ins -- outs ) body ;", "Define a word; the signature is checked against the body (optional unless recursive).",
                ": square ( int -- int ) dup * ;\n7 square", ";");
        add(FORTH, "if", "cond if … else … then", "Two-way branch on a bool; both arms leave the same row.",
                "3 0 > if \"positive\" else \"not positive\" then say", "else", "then");
        add(FORTH, "if-some", "opt if-some … else … then", "Branch on an option; the some edge receives the payload.",
                "\"12\" string-to-int if-some 1 + else 0 then");
        add(FORTH, "if-ok", "res if-ok … else … then", "Branch on a result; the ok and err edges receive their payloads (both arms required).",
                "\"[1]\" json-parse if-ok json-stringify else then say");
        add(FORTH, "begin", "begin test while body repeat | begin body until", "Loops; the row at the loop head is invariant.",
                "0 begin dup 3 < while 1 + repeat", "while", "repeat", "until");
        add(FORTH, "case", "n case 1 of … endof otherwise … endcase", "Integer case with verified arms, no fallthrough.",
                "5 case 1 of \"one\" endof 5 of \"five\" endof otherwise \"many\" endcase say", "of", "endof", "otherwise", "endcase");
        add(FORTH, "constant", "value constant name | value constant<T> name", "Define a constant in the dictionary (constant<T> states its type).",
                "42 constant answer\nanswer 1 +");
        add(FORTH, "type", "type<T> name", "Name a type once (top level); later signatures and < > parameters of either language use the name.",
                "type<variant{circle(int)|square(int)}> shape\n: side ( shape -- int ) variant-get<square> if-some else 0 then ;\n3 variant<shape,square> side");
        add(FORTH, "?", "res ?", "Propagate an err from a word or closure whose sole output is a result; the ok payload stays.",
                ": half ( int -- result<int,string> ) dup 2 mod 0 = if 2 / ok else drop \"odd\" err then ;\n"
                        + ": quarter ( int -- result<int,string> ) half ? half ;\n8 quarter");
        add(FORTH, "[']", "['] word", "Push an execution token for a word; execute calls it.",
                ": inc ( int -- int ) 1 + ;\n4 ['] inc execute");
        add(FORTH, ":>", "value :> name", "Store the top in a local; a later name reads it.", "3 :> n  n n *");
        add(FORTH, "[:", "[: ( ins -- outs ) body ;]", "A closure, which may read the enclosing locals; execute calls it.",
                "2 :> k  [: ( int -- int ) k * ;] :> double  5 double execute", ";]");
        add(FORTH, "[", "[ a, b, … ]", "A list literal (commas optional).", "[1, 2, 3] list-length", "]", ",");
        add(FORTH, "list{", "list{ a b … }list", "A list of the values the items leave.", "list{ 1 2 3 }list list-length", "}list");
        add(FORTH, "map{", "map{ key value … }map", "A map from key and value pairs.", "map{ \"a\" 1 \"b\" 2 }map \"a\" map-get", "}map");
        add(FORTH, "{", "{ field: item… … }", "A record; each field's items leave its one value.", "{ name: \"Ada\" age: 36 } \"name\" record-get", "}");
        add(FORTH, "true", "true | false", "The bool literals.", "true false or", "false");
        add(FORTH, "unit", "unit", "The unit literal ().", "unit");
        add(FORTH, "\\", "\\ comment to end of line", "A comment.", "\\ a comment\n1 2 +");
        add(FORTH, "(", "( comment )", "A comment anywhere except right after : name or [:, where it is the signature.", "( a comment ) 1 2 +", ")");
    }

    private static void lisp() {
        add(LISP, "(", "(f arg…) | ((make-adder 5) 10) | (g x) where g is a parameter",
                "Call a function, a word or a function value: the head may be any expression of function type.",
                "(define (make-adder [n : int]) (lambda ([x : int]) (+ x n)))\n((make-adder 5) 10)", ")");
        add(LISP, "define", "(define (f [x : int] y) : type [! {caps}] body…) | (define name value)", "Define a function (annotations optional) or a value.",
                "(define (sq [n : int]) : int (* n n))\n(sq 7)");
        add(LISP, "define-type", "(define-type name T)", "Name a type once (top level); later annotations and signatures of either language use the name.",
                "(define-type shape variant{circle(int)|square(int)})\n(define (side [s : shape]) : int (match-option (variant-get s :square) (some n n) (none 0)))\n(side (variant shape :square 3))");
        add(LISP, "lambda", "(lambda (x [y : int] …) [: type] body…)", "A closure over the enclosing bindings.",
                "((lambda ([x : int]) (* x 2)) 21)");
        add(LISP, "execute", "(execute f arg…)", "Call the function value f, exactly as (f arg…) does (Co-Forth's word, spelled as a call).",
                "(define (make-adder [n : int]) (lambda ([x : int]) (+ x n)))\n(execute (make-adder 5) 10)");
        add(LISP, "let", "(let ((x v) …) body…)", "Local bindings, all evaluated before any is bound.", "(let ((x 2) (y 3)) (* x y))");
        add(LISP, "let*", "(let* ((x v) …) body…)", "Local bindings, each seeing the ones before it.", "(let* ((x 2) (y (* x 3))) y)");
        add(LISP, "set!", "(set! x v)", "Assign a local (or a top-level value) a new value of its type.",
                "(let ((i 0)) (set! i (+ i 1)) i)");
        add(LISP, "begin", "(begin e…)", "Evaluate in order; the value is the last one's.", "(begin (say \"a\") 3)");
        add(LISP, "if", "(if c a b)", "Two-way branch on a bool; both arms have one type.", "(if (> 3 0) \"positive\" \"not positive\")");
        add(LISP, "when", "(when c e…)", "Evaluate the body when c is true; unit.", "(when (> 3 0) (say \"positive\"))");
        add(LISP, "unless", "(unless c e…)", "Evaluate the body when c is false; unit.", "(unless (> 0 3) (say \"fine\"))");
        add(LISP, "cond", "(cond (test e…) … (else e…))", "The first clause whose test is true.",
                "(cond ((< 5 0) \"negative\") ((= 5 0) \"zero\") (else \"positive\"))", "else");
        add(LISP, "while", "(while test body…)", "Loop while the test is true; unit.", "(let ((i 0)) (while (< i 3) (set! i (+ i 1))) i)");
        add(LISP, "and", "(and a b …)", "Short-circuit conjunction of bools.", "(and (> 2 1) (< 2 3))");
        add(LISP, "or", "(or a b …)", "Short-circuit disjunction of bools.", "(or (> 1 2) (< 2 3))");
        add(LISP, "quote", "(quote name) | 'name", "A symbol literal.", "(quote ready)", "'");
        add(LISP, "match", "(match v (pattern e…) … (_ e…))", "Match an option, a result, a bool, an int, a list (empty, cons), a closed variant ((tag x) e…) or a record ((record ((field name) …)) e…).",
                "(match 2 (1 \"one\") (2 \"two\") (_ \"many\"))", "_");
        add(LISP, "match-option", "(match-option opt (some v e…) (none e…))", "Branch on an option, binding the payload.",
                "(match-option (string-to-int \"12\") (some n (+ n 1)) (none 0))");
        add(LISP, "match-result", "(match-result res (ok v e…) (err e e…))", "Branch on a result, binding either payload.",
                "(match-result (json-parse \"[1]\") (ok j (json-stringify j)) (err e e))");
        add(LISP, "try", "(try res)", "The ok payload, or return the err at once; only in a define or lambda declared to return result<…>.",
                "(define (half [x : int]) : result<int,string> (if (= 0 (mod x 2)) (ok (/ x 2)) (err \"odd\")))\n"
                        + "(define (quarter [x : int]) : result<int,string> (half (try (half x))))\n(quarter 8)");
        add(LISP, "list", "(list a b …)", "A list of one element type.", "(list 1 2 3)");
        add(LISP, "map", "(map key value …)", "A map from key and value pairs.", "(map-get (map \"a\" 1 \"b\" 2) \"a\")");
        add(LISP, "empty-list", "(empty-list T)", "The empty list of element type T.", "(list-length (empty-list int))");
        add(LISP, "empty-map", "(empty-map K V)", "The empty map from K to V.", "(map-size (empty-map string int))");
        add(LISP, "{", "{ :field value … }", "A record.", "(record-get { :name \"Ada\" :age 36 } \"name\")", "}");
        add(LISP, "record-get", "(record-get r \"field\")", "A field of a record, as an option.", "(record-get { :name \"Ada\" } \"name\")");
        add(LISP, "record-set", "(record-set r :field v)", "A copy of the record with the field replaced.", "(record-set { :name \"Ada\" } :name \"Grace\")");
        add(LISP, "variant", "(variant T :tag payload) | (variant T :tag)", "A value of the variant type T.",
                "(variant variant{none|some(int)} :some 42)");
        add(LISP, "variant-get", "(variant-get v :tag)", "The tag's payload as an option.",
                "(variant-get (variant variant{none|some(int)} :some 42) :some)");
        add(LISP, "defer", "(defer :cpu (lambda () body…))", "Start a pure function of no arguments as a CPU task on the worker pool: a task<T> for task-poll, task-join, task-cancel.",
                "(task-join (defer :cpu (lambda () (* 6 7))))");
        add(LISP, "yield", "(yield) | (yield v)", "Yield to the host (a fiber's or the program's consumer).", "(define (ping) (yield \"ping\"))");
        add(LISP, "define-syntax", "(define-syntax name (syntax-rules () ((_ a …) template) …))", "A hygienic macro, at the top level.",
                "(define-syntax twice (syntax-rules () ((_ e) (begin e e))))\n(twice (say \"hi\"))", "syntax-rules");
        add(LISP, ";", "; comment to end of line", "A comment.", "; a comment\n(+ 1 2)");
    }

    private static void norman() {
        String gpt = "(grant gpt (model [in 2] [out 8] [ceiling 400]))\n";
        String num = "(define guess () (ask gpt Num (list (Message [role User] [content \"a number?\"])) 'guess))\n";
        add(NORMAN, "define", "(define f (x …) body)", "A function; top-level names are mutually recursive.",
                "(define square (x) (* x x))\n(check-expect (square 3) 9)");
        add(NORMAN, "val", "(val x e)", "Evaluate once when the file loads and bind; if e fails nothing is bound.",
                "(val limit 10)\n(check-expect (+ limit 1) 11)");
        add(NORMAN, "datatype", "(datatype T [Con (field ty)…] Nullary …)", "A sum type; constructor names share one namespace.",
                "(datatype Shape [Circle (r Num)] [Square (side Num)] Dot)\n(check-expect (case (Square 2) [(Square s) s] [_ 0]) 2)");
        add(NORMAN, "record", "(record R (field ty)…)", "A product type; built by name in any order, read with (. r field).",
                "(record Point (x Num) (y Num))\n(check-expect (. (Point [y 2] [x 1]) x) 1)");
        add(NORMAN, ".", "(. r field)", "A field of a record.", "(record Point (x Num) (y Num))\n(check-expect (. (Point [x 1] [y 2]) y) 2)");
        add(NORMAN, "use", "(use \"file.nm\")", "Load another file (relative to this one, once; no cycles).",
                "(use \"lib.nm\")\n(check-expect (double 2) 4)");
        add(NORMAN, "grant", "(grant name (model [id \"…\"] [in p] [out p] [ceiling n] [think n])) | (grant name (kernel|filesystem|http [op ty]…))"
                        + " | (grant name (memory [tree session|project|global] [value ty]))",
                "Declare a model (prices in micro-dollars a token), a tool (with no [op ty] it is open: every op answers Text), or one of Finch's "
                        + "memory trees, its values of type ty (Text): call it with get, put, list, delete.",
                gpt + "(grant py (kernel [count Num] [exec (Text 400)]))\n(grant web (http))\n(grant notes (memory [tree project] [value Num]))\n"
                        + "(check-expect (begin (call notes put \"n\" 7) (call notes get \"n\")) (Some 7))",
                "model", "kernel", "filesystem", "http", "memory", "ceiling", "think");
        add(NORMAN, "script", "(script Name [site answer (out n) (latency d) …] [cap/op answer …] …)",
                "Canned answers per site, in order: (reply \"json\"), (result \"text\"), (provider-error \"msg\"), (refused 'category).",
                gpt + num + "(script s [guess (provider-error \"503\") (latency 1s) (reply \"7\") (out 1) (latency 2s)])\n"
                        + "(under ([script s]) (check-fail (guess) (ToolError _)))",
                "reply", "result", "provider-error", "refused", "out", "latency");
        add(NORMAN, "under", "(under ([script Name] [cost $c] [time d]) test…)", "Run each test inside in a fresh world: the script rewound, that pool and deadline.",
                gpt + num + "(script s [guess (reply \"7\") (out 1) (latency 2s)])\n"
                        + "(under ([script s] [cost $0.01] [time 1min]) (check-expect (guess) 7))");
        add(NORMAN, "check-expect", "(check-expect e expected)", "Passes when both sides (each in its own fresh world) give equal results.",
                "(check-expect (+ 1 2) 3)");
        add(NORMAN, "check-assert", "(check-assert e)", "Passes when e is #t.", "(check-assert (> 2 1))");
        add(NORMAN, "check-fail", "(check-fail e pattern)", "Passes when e fails with a failure matching the pattern, e.g. (Raised _), OverBudget, _.",
                "(check-fail (fail 'nope) (Raised _))");
        add(NORMAN, "check-error", "(check-error e)", "Passes when e stops with a checked run-time error (a static error inside counts as one).",
                "(define first (xs) (case xs [(cons h _) h]))\n(check-error (first '()))");
        add(NORMAN, "check-within", "(check-within e ([cost $c] [time d]))", "Passes when e, whatever its result, spends at most c and takes at most d.",
                gpt + num + "(script s [guess (reply \"7\") (out 1) (latency 2s)])\n"
                        + "(under ([script s]) (check-within (guess) ([cost $0.001] [time 2s])))");
        add(NORMAN, "check-equiv", "(check-equiv e1 e2 'value|'resource|'exact)", "Passes when the sides agree: results; also spend, time and host state; also the trace.",
                "(check-equiv (+ 1 2) (+ 2 1) 'value)");
        add(NORMAN, "if", "(if c a b)", "Two-way branch on a Bool.", "(check-expect (if (> 2 1) \"yes\" \"no\") \"yes\")");
        add(NORMAN, "let*", "(let* ([x e] …) body)", "Sequential local bindings.", "(check-expect (let* ([x 2] [y (* x 3)]) y) 6)");
        add(NORMAN, "lambda", "(lambda (x …) body)", "A function value.", "(val inc (lambda (x) (+ x 1)))\n(check-expect (inc 1) 2)");
        add(NORMAN, "case", "(case e [pattern body] …)", "Match flat patterns: Con, (Con x _), '(), (cons h t), _; no match is a checked run-time error.",
                "(check-expect (case (list 1 2) ['() 0] [(cons h _) h]) 1)", "_");
        add(NORMAN, "begin", "(begin e …)", "Evaluate in order; the value is the last one's (empty: #f).", "(check-expect (begin 1 2) 2)");
        add(NORMAN, "and", "(and a b)", "Short-circuit conjunction of two Bools.", "(check-assert (and #t (> 2 1)))");
        add(NORMAN, "or", "(or a b)", "Short-circuit disjunction of two Bools.", "(check-assert (or #f (> 2 1)))");
        add(NORMAN, "list", "(list e …) | '()", "A list; '() is the empty one.", "(check-expect (length (list 1 2 3)) 3)", "'()");
        add(NORMAN, "cons", "(cons h t)", "The list with h in front of t.", "(check-expect (cons 1 '()) (list 1))");
        add(NORMAN, "fail", "(fail 'sym) | (fail failure)", "Fail: (fail 'sym) is (fail (Raised 'sym)); it propagates until a catch.",
                "(check-fail (fail 'nope) (Raised _))");
        add(NORMAN, "catch", "(catch e x handler)", "e's value, or the handler's with x bound to e's failure.", "(check-expect (catch (fail 'nope) e 0) 0)");
        add(NORMAN, "ask", "(ask model τ context ['site])", "Ask a granted model for a value of the askable type τ (a reply that does not validate is (Invalid raw)).",
                gpt + num + "(script s [guess (reply \"7\") (out 1) (latency 1s)])\n(under ([script s]) (check-expect (guess) 7))");
        add(NORMAN, "call", "(call cap op arg …)", "Call a tool grant's operation with Text arguments; the result has the type the grant declares. "
                        + "A memory grant's: (call m get \"path\") → (Option ty), (call m put \"path\" v), (call m list \"prefix\"), (call m delete \"path\").",
                "(grant web (http))\n(script s [web/get (result \"<p>hi</p>\") (latency 1s)])\n"
                        + "(under ([script s]) (check-expect (call web get \"https://example.org\") \"<p>hi</p>\"))");
        add(NORMAN, "budget", "(budget ([cost e] [time e]) body)", "Run body with at most that much more money and time (nesting takes the smaller).",
                "(check-expect (budget ([cost $0.01] [time 5s]) (+ 1 2)) 3)");
        add(NORMAN, "workflow", "(workflow ([x e] …) body)", "Concurrent steps: each starts when the steps it reads have ended.",
                "(check-expect (workflow ([x 1] [y (+ x 1)]) (* x y)) 2)");
        add(NORMAN, "par", "(par e1 e2)", "Two concurrent steps, answering (Pair [fst …] [snd …]).", "(check-expect (. (par 1 2) snd) 2)");
        add(NORMAN, "retry", "(retry n thunk)", "Basis: call the thunk up to n+1 times, retrying only Invalid and ToolError.",
                gpt + num + "(script s [guess (provider-error \"503\") (latency 1s) (reply \"4\") (out 1) (latency 1s)])\n"
                        + "(under ([script s]) (check-expect (retry 1 guess) 4))");
        add(NORMAN, "repair", "(repair n f context)", "Basis: like retry, but (f context) and after an Invalid reply the context gains it and a correction.",
                gpt + "(define ask-n (ctx) (ask gpt Num ctx 'n))\n(script s [n (reply \"four\") (out 1) (latency 1s) (reply \"4\") (out 1) (latency 1s)])\n"
                        + "(under ([script s]) (check-expect (repair 1 ask-n (list (Message [role User] [content \"n?\"]))) 4))");
        add(NORMAN, "window", "(window n context)", "Basis: every System message, moved to the front, then the last n others.",
                "(check-expect (length (window 1 (list (Message [role System] [content \"s\"]) (Message [role User] [content \"a\"])"
                        + " (Message [role User] [content \"b\"])))) 2)");
        add(NORMAN, "best-of", "(best-of k thunk check)", "Basis: k concurrent attempts; the first in attempt order that check accepts, else (Raised 'no-attempt-accepted).",
                gpt + num + "(script s [guess (reply \"4\") (out 1) (latency 1s) (reply \"7\") (out 1) (latency 1s)])\n"
                        + "(under ([script s]) (check-expect (best-of 2 guess (lambda (n) (> n 5))) 7))");
        add(NORMAN, "remaining", "(remaining)", "The innermost budget's (Resources [cost …] [time …]) left (∞ when unlimited).",
                "(check-expect (. (budget ([time 5s]) (remaining)) time) 5s)");
    }

    private static void add(String language, String name, String form, String doc, String example, String... parts) {
        SYNTAX.add(new SyntaxSpec(name, List.of(language), form, doc, example, List.of(parts), List.of()));
    }

    /** Every piece of source syntax, in documentation order: Co-Forth's, Lisp's, then µNorman's. */
    public static List<SyntaxSpec> all() { return List.copyOf(SYNTAX); }

    /** The syntax of one language ({@link #FORTH}, {@link #LISP}, {@link #NORMAN}), in documentation order. */
    public static List<SyntaxSpec> of(String language) {
        return SYNTAX.stream().filter(s -> s.languages().contains(language)).toList();
    }

    /** Every form {@code word} names, by its name or one of its parts, in every language (forms named so first). */
    public static List<SyntaxSpec> forms(String word) {
        List<SyntaxSpec> out = new ArrayList<>();
        for (SyntaxSpec s : SYNTAX) if (s.name().equals(word)) out.add(s);
        for (SyntaxSpec s : SYNTAX) if (!s.name().equals(word) && s.parts().contains(word)) out.add(s);
        return List.copyOf(out);
    }

    /** The first form {@code word} names (see {@link #forms}), if any. */
    public static Optional<SyntaxSpec> named(String word) { return forms(word).stream().findFirst(); }

    /** The form of {@code language} that {@code word} names, if any. */
    public static Optional<SyntaxSpec> named(String word, String language) {
        return forms(word).stream().filter(s -> s.languages().contains(language)).findFirst();
    }
}
