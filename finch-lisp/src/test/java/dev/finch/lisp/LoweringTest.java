package dev.finch.lisp;

import static dev.finch.lisp.Support.ir;
import static dev.finch.lisp.Support.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The IR every form lowers to (shapes and signatures). */
class LoweringTest {
    private static WordDef word(Module m, String name) {
        return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void topLevelValuesStayAndUnitFormsLeaveNothing() {
        assertThat(ir("(* 4 5)")).isEqualTo("4 5 *");
        assertThat(ir("(say \"hi\")")).isEqualTo("\"hi\" say");
        assertThat(ir("(say \"a\") (say \"b\") 7")).isEqualTo("\"a\" say \"b\" say 7");
        assertThat(ir("(define (greet) (say \"hi\")) (greet)")).endsWith("greet drop");
        assertThat(ir("(if true (say \"a\") (say \"b\"))")).isEqualTo("true if \"a\" say else \"b\" say then");
    }

    @Test
    void sayAsAValueMaterializesUnit() {
        assertThat(ir("(let ((u (say \"x\"))) 1)")).isEqualTo("\"x\" say unit :> u 1");
        assertThat(ir("(list (say \"x\"))")).isEqualTo("[ \"x\" say unit ]");
    }

    @Test
    void literals() {
        assertThat(ir("1.5")).isEqualTo("1.5");
        assertThat(ir("\"s\"")).isEqualTo("\"s\"");
        assertThat(ir("true")).isEqualTo("true");
        assertThat(ir("'sym")).isEqualTo("'sym");
        assertThat(ir("(quote sym)")).isEqualTo("'sym");
        Instr.Push p = (Instr.Push) ok("'sym").main().instrs().get(0);
        assertThat(p.literal()).isInstanceOf(dev.finch.ir.instr.Literal.SymbolLit.class);
    }

    @Test
    void defineValueIsAConstantWithItsType() {
        Module m = ok("(define x 5) (define [y : float] 1.0) x");
        assertThat(IrDump.block(m.main())).isEqualTo("5 constant x<int> 1.0 constant y<float> x");
        assertThat(IrDump.module(ok("(define x : string \"a\")"))).isEqualTo("\"a\" constant x<string>");
    }

    @Test
    void defineFunctionDeclaresItsInferredSignature() {
        Module m = ok("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))");
        WordDef fib = word(m, "fib");
        assertThat(fib.declared()).contains(TypeSyntax.parseSignature("int -> int"));
        assertThat(fib.body().instrs().get(0)).isEqualTo(new Instr.LocalStore("n", fib.body().instrs().get(0).origin()));
        assertThat(m.main().isEmpty()).isTrue();
    }

    @Test
    void parametersAreStoredLastFirst() {
        assertThat(ir("(define (sub a b) (- a b))")).isEqualTo(": sub ( int int -> int ) :> b :> a @a @b - ;");
    }

    @Test
    void mutualRecursion() {
        Module m = ok("(define (ev? n) (if (= n 0) true (od? (- n 1)))) (define (od? n) (if (= n 0) false (ev? (- n 1))))");
        assertThat(word(m, "ev?").declared().orElseThrow().toString()).isEqualTo("int -> bool");
        assertThat(word(m, "od?").declared().orElseThrow().toString()).isEqualTo("int -> bool");
    }

    @Test
    void lambdaIsAClosureReadingCapturedLocals() {
        assertThat(ir("(define (adder n) (lambda (x) (+ x n))) ((adder 2) 40)"))
                .isEqualTo(": adder ( int -> (int -> int) ) :> n [: ( int -> int ) :> x @x @n + ;] ;\n40 2 adder execute");
        Module m = ok("(let ((k 3)) (lambda ([x : int] [y : int]) (* x k)))");
        Instr.Closure c = (Instr.Closure) m.main().instrs().get(2);
        assertThat(c.type()).isEqualTo(TypeSyntax.parse("int int -> int"));
        assertThat(IrDump.block(c.body())).isEqualTo(":> y :> x @x @k *");
    }

    @Test
    void closureOfUnitBodyReturnsUnit() {
        Module m = ok("(lambda ([s : string]) (say s))");
        Instr.Closure c = (Instr.Closure) m.main().instrs().get(0);
        assertThat(c.type().toString()).isEqualTo("string -> unit ! {session.emit}");
        assertThat(IrDump.block(c.body())).isEqualTo(":> s @s say unit");
    }

    @Test
    void letLetStarAndShadowingRenameLocals() {
        assertThat(ir("(let ((x 1) (y 2)) (+ x y))")).isEqualTo("1 :> x 2 :> y @x @y +");
        assertThat(ir("(let* ((x 1) (y (+ x 1))) y)")).isEqualTo("1 :> x @x 1 + :> y @y");
        assertThat(ir("(let ((x 1)) (let ((x \"s\")) x))")).isEqualTo("1 :> x \"s\" :> x-2 @x-2");
        assertThat(ir("(let ((x 1)) (let ((x 2) (y x)) y))")).isEqualTo("1 :> x 2 :> x-2 @x :> y @y");
    }

    @Test
    void localsNeverShadowWordNames() {
        assertThat(ir("(let ((drop 1)) drop)")).isEqualTo("1 :> drop-2 @drop-2");
    }

    @Test
    void conditionals() {
        assertThat(ir("(if (< 1 2) 10 20)")).isEqualTo("1 2 < if 10 else 20 then");
        assertThat(ir("(when true (say \"a\"))")).isEqualTo("true if \"a\" say else  then");
        assertThat(ir("(unless true (say \"a\"))")).isEqualTo("true if  else \"a\" say then");
        assertThat(ir("(cond ((< 1 0) \"neg\") ((= 1 0) \"zero\") (else \"pos\"))"))
                .isEqualTo("1 0 < if \"neg\" else 1 0 = if \"zero\" else \"pos\" then then");
        assertThat(ir("(begin (say \"a\") 5)")).isEqualTo("\"a\" say 5");
    }

    @Test
    void andOrShortCircuit() {
        assertThat(ir("(and (< 1 2) (< 2 3))")).isEqualTo("1 2 < if 2 3 < else false then");
        assertThat(ir("(or (< 1 2) (< 2 3))")).isEqualTo("1 2 < if true else 2 3 < then");
        assertThat(ir("(and)")).isEqualTo("true");
    }

    @Test
    void whileAndSet() {
        assertThat(ir("(let ((i 0)) (while (< i 3) (set! i (+ i 1))) i)"))
                .isEqualTo("0 :> i begin @i 3 < while @i 1 + :> i repeat @i");
    }

    @Test
    void vocabularyCallsPushArgumentsLeftToRight() {
        assertThat(ir("(int-to-string 5)")).isEqualTo("5 int-to-string");
        assertThat(ir("(string-append \"a\" \"b\")")).isEqualTo("\"a\" \"b\" string-append");
        assertThat(ir("(+ 1 2 3)")).isEqualTo("1 2 + 3 +");
        assertThat(ir("(- 5)")).isEqualTo("5 negate");
        assertThat(ir("(none)")).isEqualTo("none");
        assertThat(ir("(some 1)")).isEqualTo("1 some");
    }

    @Test
    void environmentWordsAreCallable() {
        Environment env = new Environment(Support.VOCABULARY, Map.of("double", TypeSyntax.parseSignature("int -> int")), Map.of("limit", Type.Prim.INT), List.of());
        assertThat(IrDump.module(ok("(double limit)", env))).isEqualTo("limit double");
        assertThat(IrDump.module(ok("(define (quad x) (double (double x)))", env))).isEqualTo(": quad ( int -> int ) :> x @x double double ;");
    }

    @Test
    void functionsAsValuesAreQuoted() {
        assertThat(ir("(define (inc x) (+ x 1)) (define (app f x) (f x)) (app inc 1)"))
                .endsWith("['] inc 1 app");
    }

    @Test
    void matchOptionAndResult() {
        assertThat(ir("(match-option (some 1) (some x (+ x 1)) (none 0))")).isEqualTo("1 some if-some :> x @x 1 + else 0 then");
        assertThat(ir("(match-result (ok 1) (ok v v) (err e 0))")).isEqualTo("1 ok if-ok :> v @v else :> e 0 then");
        assertThat(ir("(match (some 1) (some _ 1) (none 0))")).isEqualTo("1 some if-some drop 1 else 0 then");
        assertThat(ir("(match (< 1 2) (true \"y\") (false \"n\"))")).isEqualTo("1 2 < if \"y\" else \"n\" then");
        assertThat(ir("(match 2 (1 \"a\") (_ \"b\"))")).isEqualTo("2 case 1 of \"a\" endof otherwise \"b\" endcase");
    }

    @Test
    void matchListAndRecordUseOrdinaryWords() {
        assertThat(ir("(match (list 1 2) (empty 0) (cons h t h))"))
                .isEqualTo("[ 1 2 ] list-uncons if-some :> cell @cell record-get[head] unwrap :> h @cell record-get[tail] unwrap :> t @h else 0 then");
        assertThat(ir("(match { :name \"Ada\" :age 36 } (record ((name n)) n))"))
                .isEqualTo("{ name: \"Ada\" age: 36 } :> rec @rec record-get[name] unwrap :> n @n");
    }

    @Test
    void dataLiterals() {
        assertThat(ir("(list 1 2 3)")).isEqualTo("[ 1 2 3 ]");
        assertThat(ir("(map \"a\" 1 \"b\" 2)")).isEqualTo("map{ \"a\" 1 \"b\" 2 }map");
        assertThat(ir("{ :b 1 :a \"x\" }")).isEqualTo("{ b: 1 a: \"x\" }");
        assertThat(ir("(empty-list int)")).isEqualTo("empty-list[int]");
        assertThat(ir("(record-get { :a 1 } \"a\")")).isEqualTo("{ a: 1 } record-get[a]");
        assertThat(ir("(record-set { :a 1 } :a 2)")).isEqualTo("{ a: 1 } 2 record-set[a]");
    }

    @Test
    void variants() {
        Module m = ok("(variant-get (variant variant{none|some(int)} :some 42) :some)");
        Instr.Call make = (Instr.Call) m.main().instrs().get(1);
        assertThat(make.word()).isEqualTo("variant");
        assertThat(make.immediates().get(0).toString()).isEqualTo("variant{none|some(int)}");
        assertThat(make.immediates().get(1).toString()).isEqualTo("some");
        assertThat(IrDump.block(m.main())).endsWith("variant-get[some]");
        assertThat(ir("(variant variant{none|some(int)} :none)")).isEqualTo("variant[variant{none|some(int)}, none]");
    }

    @Test
    void tryPropagatesInsideResultFunction() {
        Module m = ok("(define (half [x : int]) : result<int,string> (if (= 0 (mod x 2)) (ok (/ x 2)) (err \"odd\")))"
                + "(define (quarter [x : int]) : result<int,string> (half (try (half x))))");
        assertThat(IrDump.block(word(m, "quarter").body())).isEqualTo(":> x @x half ? half");
        assertThat(word(m, "quarter").declared().orElseThrow().toString()).isEqualTo("int -> result<int,string>");
    }

    @Test
    void yieldMakesTheSignatureYield() {
        Module m = ok("(define (gen) (yield 1) (yield 2))");
        assertThat(word(m, "gen").declared().orElseThrow().toString()).isEqualTo("-> unit yields<int,unit>");
        assertThat(IrDump.block(word(m, "gen").body())).isEqualTo("1 yield 2 yield unit");
    }

    @Test
    void effectsFlowThroughCalls() {
        Module m = ok("(define (hello) (say \"hi\")) (define (twice) (hello) (hello))");
        assertThat(word(m, "twice").declared().orElseThrow().effects()).extracting(Object::toString).containsExactly("session.emit");
        Environment env = new Environment(Support.VOCABULARY, Map.of("read-it", TypeSyntax.parseSignature("string -> bytes ! {fs.read(${workspace}/**)}")), Map.of(), List.of());
        Module m2 = ok("(define (a p) (read-it p)) (define (b p) (a p))", env);
        assertThat(word(m2, "b").declared().orElseThrow().effects()).extracting(Object::toString).containsExactly("fs.read(${workspace}/**)");
    }

    @Test
    void originsPointIntoTheSource() {
        Module m = ok("(say\n  (int-to-string 1))");
        Instr call = m.main().instrs().get(1);
        assertThat(call.origin().line()).isEqualTo(2);
        assertThat(call.origin().column()).isEqualTo(3);
        assertThat(m.source()).isEqualTo("test.lisp");
        assertThat(m.language()).isEqualTo("lisp");
    }
}
