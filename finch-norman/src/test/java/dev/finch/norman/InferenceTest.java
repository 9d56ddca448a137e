package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import org.junit.jupiter.api.Test;

class InferenceTest {
    @Test
    void programsCheckedOnManyThreadsAtOnceGetTheTypesTheyGetAlone() throws Exception {
        // Each inference numbers its own type variables (the kit's VarSupply): nothing is shared between checks.
        String program = String.join("\n",
                "(define twice (f v) (f (f v)))",
                "(define compose (f g) (lambda (x) (f (g x))))",
                "(define pair () (let* ([id (lambda (z) z)]) (Pair [fst (id 1)] [snd (id \"a\")])))",
                "(define even? (n) (if (= n 0) #t (odd? (- n 1))))",
                "(define odd? (n) (if (= n 0) #f (even? (- n 1))))");
        java.util.Map<String, String> alone = Support.check(program).types();
        assertThat(alone).containsEntry("compose", "(('a -> 'b) ('c -> 'a) -> ('c -> 'b))");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<java.util.Map<String, String>>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) runs.add(pool.submit(() -> Support.check(program).types()));
            for (var run : runs) assertThat(run.get()).isEqualTo(alone);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void topLevelFunctionsArePolymorphicAndMutuallyRecursive() {
        NormanProgram p = Support.check(String.join("\n",
                "(define twice (f v) (f (f v)))",
                "(define even? (n) (if (= n 0) #t (odd? (- n 1))))",
                "(define odd? (n) (if (= n 0) #f (even? (- n 1))))",
                "(val a (twice (lambda (k) (* k 2)) 3))",
                "(val b (twice (lambda (s) s) \"x\"))"));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("twice", "(('a -> 'a) 'a -> 'a)").containsEntry("even?", "(Num -> Bool)")
                .containsEntry("a", "Num").containsEntry("b", "Text");
    }

    @Test
    void letBoundValuesArePolymorphic() {
        NormanProgram p = Support.check("(define pair () (let* ([id (lambda (z) z)]) (Pair [fst (id 1)] [snd (id \"a\")])))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("pair", "(-> (Pair Num Text))");
    }

    @Test
    void letBoundNonValuesAreNotGeneralized() {
        NormanProgram p = Support.check("(define pair () (let* ([id (if #t (lambda (z) z) (lambda (z) z))]) (Pair [fst (id 1)] [snd (id \"a\")])))");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-101");
            assertThat(d.phase().spelling()).isEqualTo("verify");
            assertThat(d.expected()).isEqualTo("Num");
            assertThat(d.found()).isEqualTo("Text");
        });
    }

    @Test
    void datatypesAndRecordsAreChecked() {
        NormanProgram ok = Support.check(String.join("\n",
                "(datatype Animal [Cat] [Dog (name Text)])",
                "(record Vet (name Text) (patients (List Animal)))",
                "(define greet (a) (case a [Cat \"meow\"] [(Dog n) n]))",
                "(define first-name (v) (case (. v patients) ['() (. v name)] [(cons h _) (greet h)]))"));
        assertThat(ok.diagnostics()).isEmpty();
        assertThat(ok.types()).containsEntry("greet", "(Animal -> Text)").containsEntry("first-name", "(Vet -> Text)");

        NormanProgram bad = Support.check("(datatype Animal [Cat] [Dog (name Text)])\n(define greet (a) (case a [Cat 1] [(Dog n) n]))");
        assertThat(bad.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-101");
            assertThat(d.origin().line()).isEqualTo(2);
            assertThat(d.expected()).isEqualTo("Num");
            assertThat(d.found()).isEqualTo("Text");
        });
    }

    @Test
    void basisAnyFieldsAreTypeParameters() {
        NormanProgram p = Support.check(String.join("\n",
                "(define get (o d) (case o [None d] [(Some v) v]))",
                "(val n (get (Some 1) 0))",
                "(val swap (lambda (p) (Pair [fst (. p snd)] [snd (. p fst)])))",
                "(val r (Resources [cost $1.00] [time 1min]))"));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("get", "((Option 'a) 'a -> 'a)").containsEntry("n", "Num")
                .containsEntry("swap", "((Pair 'a 'b) -> (Pair 'b 'a))").containsEntry("r", "(Resources Money Duration)");
        NormanProgram bad = Support.check("(define get (o d) (case o [None d] [(Some v) v]))\n(val n (get (Some 1) \"zero\"))");
        assertThat(bad.diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-101");
    }

    @Test
    void theBasisIsTypedFromItsOwnSource() {
        NormanProgram p = Support.check("(val a (append (list 1) (list 2)))\n(val b (length (filter (lambda (x) (>= x 2)) (drop 1 (list 1 2 3)))))\n(val c (not (<= 1 2)))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("a", "(List Num)").containsEntry("b", "Num").containsEntry("c", "Bool");
    }

    @Test
    void failingFunctionsCarryTheirEffect() {
        NormanProgram p = Support.check(String.join("\n",
                "(define safe-div (a b) (if (= b 0) (fail 'div) (/ a b)))",
                "(define sum (a b) (+ (safe-div a b) 1))",
                "(define guarded (a) (catch (safe-div 1 a) e 0))",
                "(define pure (a) (+ a 1))"));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("safe-div", "(Num Num -> Num ! Failure)").containsEntry("sum", "(Num Num -> Num ! Failure)")
                .containsEntry("guarded", "(Num -> Num)").containsEntry("pure", "(Num -> Num)");
    }

    @Test
    void staticErrorsInsideCheckErrorDoNotRejectTheFile() {
        NormanProgram p = Support.check("(check-error (+ 1 \"a\"))\n(check-expect (+ 1 1) 2)");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.tests().get(0).staticError()).hasValueSatisfying(d -> assertThat(d.code()).isEqualTo("E-NORMAN-101"));
        assertThat(p.tests().get(1).staticError()).isEmpty();

        NormanProgram rejected = Support.check("(check-expect (+ 1 \"a\") 2)");
        assertThat(rejected.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-101");
            assertThat(d.origin().column()).isEqualTo(20);
            assertThat(d.expected()).isEqualTo("Num");
            assertThat(d.found()).isEqualTo("Text");
        });
    }

    @Test
    void unboundNamesAndArityAreReported() {
        assertThat(Support.check("(val x (nope 1))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-102");
        NormanProgram p = Support.check("(define f (x) x)\n(val y (f 1 2))");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-101");
            assertThat(d.message()).contains("takes 1 argument(s), given 2");
        });
        assertThat(Support.check("(define f (x) (x x))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-103");
    }

    @Test
    void capabilitiesComeFromGrants() {
        // An operation a closed grant does not declare is a checked run-time error (reference: the program is wrong,
        // not the world), not a type error; calling something that is not a granted tool is.
        NormanProgram p = Support.check("(grant py (kernel [count Num]))\n(define n () (call py count \"wc\"))\n(define m () (call py exec \"x\"))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("n", "(-> Num ! Failure)");
        NormanProgram q = Support.check("(define m () (call 3 exec \"x\"))");
        assertThat(q.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-NORMAN-105"));
        NormanProgram open = Support.check("(grant fs (filesystem))\n(define r () (call fs read \"a.txt\"))");
        assertThat(open.types()).containsEntry("r", "(-> Text ! Failure)");
    }

    @Test
    void fieldSelectionFindsTheRecord() {
        assertThat(Support.check("(define f (m) (. m content))").types()).containsEntry("f", "(Message -> Text)");
        assertThat(Support.check("(define f (m) (. m nope))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-104");
    }
}
