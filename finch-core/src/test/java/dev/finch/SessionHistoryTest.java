package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.persist.Images;
import dev.finch.persist.PausingPrograms;
import dev.finch.vm.persist.Continuations;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The history a session's images are made of ({@link SessionHistory}, issue 33): a definition keeps only its part of
 * the session, and that part verifies it into the very module it was — the same definitions, closure literals and
 * digest — so a restored session rebuilds exactly what it had. Images grow with what a session holds, not with how
 * long it has lived, and restoring one verifies nothing until something is needed.
 */
class SessionHistoryTest {
    private static final List<String> SESSIONS = List.of(
            // Lisp: functions, mutual recursion, closures, constants a function reads, a redefinition that calls the old
            "(define limit 10)\n(define (even? n) (if (= n 0) true (odd? (- n 1))))\n(define (odd? n) (if (= n 0) false (even? (- n 1))))",
            "(define (adder k) (lambda (x) (+ x k)))\n(define (twice f x) (f (f x)))",
            "(define (scaled n) (* n limit))",
            "(define-type shape variant{circle(int)|square(int)})\n(define (area [s : shape]) : int (match s ((circle r) (* 3 (* r r))) ((square w) (* w w))))",
            // Co-Forth: words, a word that redefines one it calls, quotations, locals, a word over a named type
            ": square ( int -- int ) dup * ;\n: cube ( int -- int ) dup square * ;",
            // square is redefined: cube still links to the first one (early binding), hyp to the second
            ": square ( int -- int ) dup dup * * ;\n: hyp ( int int -- int ) :> b :> a a square b square + ;",
            ": apply ( int -- int ) ['] cube execute ;\n\"x\" constant name",
            ": greet ( -- string ) name \"!\" string-append ;");

    @Test void everyDefinitionVerifiesAgainstItsPartIntoTheModuleItWas() {
        Session s = Images.keyed().newSession();
        for (String text : SESSIONS) assertThat(s.submit(Submission.of(text, "t")).status()).as(text).isEqualTo(Outcome.Status.COMPLETED);
        SessionHistory h = s.history();
        assertThat(h.definitionCount()).isEqualTo(SESSIONS.size());
        h.forEachDefinition(d -> {
            var original = d.module();
            var again = h.verifyAgain(d);
            assertThat(Continuations.moduleDigest(again, Set.of())).as(d.text).isEqualTo(Continuations.moduleDigest(original, Set.of()));
        });
    }

    @Property(tries = 40)
    void generatedProgramsVerifyAgainstTheirPartIntoTheModulesTheyWere(@ForAll("parts") List<PausingPrograms.Part> parts, @ForAll long seed,
                                                                        @ForAll("languages") Language language) {
        Session s = Images.keyed().newSession(SessionOptions.DEFAULT.withGrant("fs.read(${workspace}/**)"));
        PausingPrograms.Program p = PausingPrograms.write(language, parts, seed);
        for (Submission turn : p.turns()) s.submit(turn);
        s.history().forEachDefinition(d -> assertThat(Continuations.moduleDigest(s.history().verifyAgain(d), Set.of()))
                .as("%s", p).isEqualTo(Continuations.moduleDigest(d.module(), Set.of())));
    }

    @Provide
    Arbitrary<List<PausingPrograms.Part>> parts() {
        return Combinators.combine(Arbitraries.of(PausingPrograms.Kind.class), Arbitraries.of(PausingPrograms.Holder.class), Arbitraries.of(false))
                .as(PausingPrograms.Part::new).list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<Language> languages() { return Arbitraries.of(Language.FORTH, Language.LISP); }

    @Test void anImageGrowsWithTheDefinitionsItHoldsNotWithTheTurnsBehindIt() {
        Session s = Images.keyed().newSession();
        s.submit(Submission.of(": base ( -- int ) 1 ;", "t0"));
        int small = s.save().length();
        // A thousand turns that define nothing and leave nothing: the image does not grow.
        for (int i = 0; i < 1000; i++) s.submit(Submission.of("(say \"turn " + i + "\")", "turn-" + i));
        assertThat(s.save().length()).as("only the revision's digits grow").isLessThan(small + 8);
        // A word redefined a hundred times is kept once: the image holds the dictionary, not its history.
        for (int i = 0; i < 100; i++) s.submit(Submission.of(": step ( int -- int ) " + i + " + ;", "redefine-" + i));
        int once = s.save().length();
        s.submit(Submission.of(": step ( int -- int ) 7 + ;", "again"));
        assertThat(Math.abs(s.save().length() - once)).isLessThan(20);
        // A definition kept only for a closure it left on the stack goes when the stack lets it go.
        s.submit(Submission.of("(define (adder k) (lambda (x) (+ x k)))", "adder"));
        s.submit(Submission.of("(let ((f (lambda (x) (* x 2)))) f)", "closure"));
        int withClosure = s.save().length();
        s.submit(Submission.of("drop", "drop"));
        assertThat(s.save().length()).isLessThan(withClosure - 20);
    }

    @Test void aThousandDefinitionsMakeAnImageLinearInThemAndRestoringItVerifiesNone() {
        Session s = Images.keyed().newSession();
        for (int i = 0; i < 1000; i++) {
            String prev = i == 0 ? "1" : "(w" + (i - 1) + " x)";
            s.submit(Submission.of("(define (w" + i + " x) (+ " + prev + " " + i + "))", "turn-" + i));
        }
        String image = s.save();
        // Each definition costs its text, its one word and its one link: about 150 bytes, whatever came before it.
        assertThat(image.length()).isLessThan(150 * 1000);
        Session back = Images.keyed().restore(image);
        assertThat(back.history().rebuilt()).as("definitions verified at restore").isZero();
        // Calling the last word rebuilds the chain it links to, once, and answers what the original answers.
        Outcome there = s.submit(Submission.of("(w999 1)", "call"));
        Outcome here = back.submit(Submission.of("(w999 1)", "call"));
        assertThat(here.stack()).isEqualTo(there.stack());
        assertThat(back.history().rebuilt()).isEqualTo(1000);
        back.submit(Submission.of("(w999 2)", "call-again"));
        assertThat(back.history().rebuilt()).isEqualTo(1000);
    }

    @Test void aFinchThatVerifiesRestoredHistoryRebuildsItAllAtRestore() {
        Session s = Images.keyed().newSession();
        for (String text : SESSIONS) s.submit(Submission.of(text, "t"));
        Finch eager = Finch.builder().imageKey(Images.KEY).verifyRestoredHistory().build();
        Session back = eager.restore(s.save());
        assertThat(back.history().rebuilt()).isEqualTo(SESSIONS.size());
        Outcome later = back.submit(Submission.of("3 cube 2 3 hyp greet", "later"));
        assertThat(later.stack()).as("%s", later).extracting(StackEntry::display).containsExactly("27", "35", "\"x!\"");
    }

    @Test void aDefinitionThatNoLongerRebuildsIsRefusedAtRestoreWhenVerifiedEagerly() {
        Session s = Finch.builder().acceptUnkeyedImages().build().newSession();
        s.submit(Submission.of(": square ( int -- int ) dup * ;", "t"));
        // An unkeyed image from a trusted store, edited as an incompatible build would have written it.
        String image = s.save();
        String edited = image.replace(": square ( int -- int ) dup * ;", ": square ( int -- int ) dup * 1 ;");
        String body = edited.replaceFirst(",\"checksum\":\"[0-9a-f]+\"}$", "}");
        String rechecked = body.substring(0, body.length() - 1) + ",\"checksum\":\"" + dev.finch.ir.Sha256.hex(body) + "\"}";
        Finch eager = Finch.builder().acceptUnkeyedImages().verifyRestoredHistory().build();
        assertThatThrownBy(() -> eager.restore(rechecked)).isInstanceOf(SessionImage.ImageException.class)
                .hasMessageContaining("cannot be rebuilt").satisfies(e -> assertThat(((SessionImage.ImageException) e).code()).isEqualTo("E-SESSION-010"));
        // Restored lazily, the same definition fails the submission that needs it, with the same code, and nothing else.
        Session lazy = Finch.builder().acceptUnkeyedImages().build().restore(rechecked);
        Outcome o = lazy.submit(Submission.of("3 square", "later"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).extracting(d -> d.code()).containsExactly("E-SESSION-010");
        assertThat(lazy.submit(Submission.of("1 2 +", "unrelated")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }
}
