package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17 item 3: a type named once ({@code type<T> name} in Co-Forth, {@code (define-type name T)} in Lisp) is used
 * by name in later submissions of both languages, prints as its structure, survives a saved image and a restore that
 * re-verifies the history, and a bad definition is refused with a stable code.
 */
class NamedTypesTest {
    private static final String SHAPE = "variant{circle(int)|square(int)}";

    @TempDir Path ws;

    private static Submission forth(String src) { return Submission.of(src, "forth").withLanguage(Language.FORTH); }

    private static Submission lisp(String src) { return Submission.of(src, "lisp").withLanguage(Language.LISP); }

    private static Outcome ok(Session s, Submission sub) {
        Outcome o = s.submit(sub);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return o;
    }

    @Test
    void aTypeNamedInCoForthIsUsedByNameInLispAndBackAndPrintsAsItsStructure() {
        Session s = Finch.create().newSession();
        ok(s, forth("type<" + SHAPE + "> shape"));
        ok(s, forth(": side ( shape -- int ) variant-get<square> if-some else 0 then ;"));
        assertThat(s.getVmState().definitions()).anySatisfy(d -> {
            assertThat(d.name()).isEqualTo("side");
            assertThat(d.signature()).isEqualTo(SHAPE + " -> int");
        });
        Outcome o = ok(s, lisp("(define (area [s : shape]) : int (match-option (variant-get s :circle) (some r (* 3 (* r r))) (none (side s))))\n"
                + "(area (variant shape :circle 2))"));
        assertThat(o.stack()).containsExactly(new StackEntry("int", "12"));
        ok(s, lisp("(define-type board record{cells:list<shape>,name:string})"));
        Outcome back = ok(s, forth("{ cells: [ 3 variant<shape,square> ] name: \"b\" } :> b  b \"cells\" record-get drop 4 variant<shape,square> side"));
        assertThat(back.stack().get(back.stack().size() - 1)).isEqualTo(new StackEntry("int", "4"));
        // The canonical spelling is the structure: a named type is an alias, never a type of its own.
        Outcome typed = ok(s, forth("empty-list<board>"));
        assertThat(typed.stack().get(typed.stack().size() - 1).type()).isEqualTo("list<record{cells:list<" + SHAPE + ">,name:string}>");
        // Named types are no definitions or constants a model should see in the state.
        assertThat(s.getVmState().constants()).noneSatisfy(c -> assertThat(c.name()).startsWith("nm."));
        assertThat(s.inspectWord("shape")).contains(new dev.finch.WordInfo.NamedType("shape", SHAPE));
        assertThat(s.searchWord("shape")).first().extracting(w -> w.kind()).isEqualTo(dev.finch.WordKind.NAMED_TYPE);
    }

    @Test
    void aNamedTypeSurvivesASavedImageAndARestoreThatReverifiesTheHistory() throws Exception {
        Files.writeString(ws.resolve("b.txt"), "B");
        Session s = Images.keyed().newSession(SessionOptions.builder().workspace(ws).build());
        ok(s, lisp("(define-type shape " + SHAPE + ")"));
        ok(s, forth(": later ( -- shape ! {fs.read(${workspace}/**)} ) \"b.txt\" path file-read drop 5 variant<shape,circle> ;"));
        Outcome o = s.submit(forth("later"));
        assertThat(o).isInstanceOf(Outcome.Suspended.class);
        Session restored = Images.keyed().restore(s.save(o.executionId()), SessionOptions.DEFAULT.withWorkspace(ws));
        Outcome done = restored.approve(o.executionId(), dev.finch.capabilities.Scope.ONCE);
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.stack()).containsExactly(new StackEntry(SHAPE, "(circle 5)"));
        // The restored session still knows the name, in both languages.
        Outcome later = ok(restored, lisp("(define (radius [s : shape]) : int (match-option (variant-get s :circle) (some r r) (none 0)))\n"
                + "(radius (variant shape :circle 9))"));
        assertThat(later.stack().get(later.stack().size() - 1)).isEqualTo(new StackEntry("int", "9"));
        ok(restored, forth("type<" + SHAPE + "> shape"));
    }

    @Test
    void badDefinitionsAreRefusedWithStableCodes() {
        Session s = Finch.create().newSession();
        ok(s, forth("type<" + SHAPE + "> shape"));
        assertThat(code(s, forth("type<variant{dot}> shape"))).isEqualTo("E-TYPENAME-002");
        assertThat(code(s, lisp("(define-type shape variant{dot})"))).isEqualTo("E-TYPENAME-002");
        ok(s, lisp("(define-type shape " + SHAPE + ")")); // the same structure again is no change
        assertThat(code(s, forth("type<list<tree>> tree"))).isEqualTo("E-TYPENAME-003");
        assertThat(code(s, lisp("(define-type tree variant{leaf|node(tree)})"))).isEqualTo("E-TYPENAME-003");
        assertThat(code(s, forth("type<list<shpe>> shapes"))).isEqualTo("E-TYPENAME-004");
        assertThat(code(s, lisp("(define-type pair record{a:a})"))).isEqualTo("E-TYPENAME-004");
        assertThat(code(s, forth("type<int> list"))).isEqualTo("E-TYPENAME-001");
        assertThat(code(s, lisp("(define-type a int)"))).isEqualTo("E-TYPENAME-001");
        assertThat(code(s, forth(": f ( -- ) type<int> n ;"))).isEqualTo("E-FORTH-106");
        // A refused definition names nothing: the later use is an opaque type that no value has.
        assertThat(s.submit(forth("type<list<shpe>> shapes")).diagnostics().get(0).message()).contains("'shpe'", "shape");
    }

    private static String code(Session s, Submission sub) {
        Outcome o = s.submit(sub);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        return o.diagnostics().get(0).code();
    }
}
