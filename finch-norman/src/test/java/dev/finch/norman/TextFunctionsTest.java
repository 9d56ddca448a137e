package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import org.junit.jupiter.api.Test;

/**
 * Finch's text functions, an extension of the reference's basis: text-append (any number of texts), text-join,
 * text-split, text-contains and text-length (a Num). Their answers at the edges are in {@code examples/text.nm} (in finch-norman-test, which runs them).
 */
class TextFunctionsTest {
    private static WordDef word(Module m, String name) {
        return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no word " + name));
    }

    @Test
    void theTextFunctionsAreTyped() {
        NormanProgram p = Support.check(String.join("\n",
                "(define greet (n) (text-append \"Hello, \" n \"!\"))",
                "(define empty () (text-append))",
                "(define one (t) (text-append t))",
                "(define words (t) (text-split t \" \"))",
                "(define line (ts) (text-join ts \", \"))",
                "(define has (t) (text-contains t \"x\"))",
                "(define size (t) (text-length t))",
                "(val app text-append)",
                "(val n (+ 1 (text-length \"abc\")))"));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("greet", "(Text -> Text)").containsEntry("empty", "(-> Text)").containsEntry("one", "(Text -> Text)")
                .containsEntry("words", "(Text -> (List Text))").containsEntry("line", "((List Text) -> Text)")
                .containsEntry("has", "(Text -> Bool)").containsEntry("size", "(Text -> Num)")
                .containsEntry("app", "(Text Text -> Text)").containsEntry("n", "Num");
    }

    @Test
    void wrongArgumentsAreTypeErrors() {
        assertThat(Support.check("(val x (text-append \"a\" 1))").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-101");
            assertThat(d.message()).contains("argument 2 of `text-append`");
            assertThat(d.expected()).isEqualTo("Text");
            assertThat(d.found()).isEqualTo("Num");
        });
        assertThat(Support.check("(val x (text-length 1))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-101");
        assertThat(Support.check("(val x (text-join \"a\" \",\"))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-101");
        assertThat(Support.check("(val x (text-split \"a\"))").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).contains("takes 2 argument(s), given 1"));
        assertThat(Support.check("(val x (text-contains \"a\" \"b\" \"c\"))").diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-101");
        // As a value it is the two-argument function.
        assertThat(Support.check("(val f text-append)\n(val x (f \"a\" \"b\" \"c\"))").diagnostics()).extracting(Diagnostic::code)
                .containsExactly("E-NORMAN-101");
    }

    @Test
    void aDefinitionOrALocalOfTheSameNameShadowsThem() {
        NormanProgram p = Support.check(String.join("\n",
                "(define text-append (x) (* x 2))",
                "(define text-length (t) (text-append 21))",
                "(val a (text-append 3))",
                "(val b (text-length \"abc\"))",
                "(define local (text-split) (text-split 1))",
                "(val c (let* ([text-contains (lambda (x y) (+ x y))]) (text-contains 1 2)))"));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("text-append", "(Num -> Num)").containsEntry("a", "Num").containsEntry("b", "Num")
                .containsEntry("local", "((Num -> 'a) -> 'a)").containsEntry("c", "Num");
        Lowering l = Support.lower("(define text-append (x) (* x 2))\n(define g () (text-append 3))");
        assertThat(l.diagnostics()).isEmpty();
        WordDef g = word(l.module().orElseThrow(), "g");
        assertThat(Support.calls(g.body())).doesNotContain("string-append").anyMatch(c -> c.contains("text-append"));
    }

    @Test
    void theyLowerToTheStringWords() {
        Lowering l = Support.lower(String.join("\n",
                "(define three (a b c) (text-append a b c))",
                "(define none () (text-append))",
                "(define one (t) (text-append t))",
                "(define f () text-append)",
                "(define all (t) (text-contains (text-join (text-split t \",\") \";\") \"x\"))",
                "(define size (t) (text-length t))"));
        assertThat(l.diagnostics()).isEmpty();
        Module m = l.module().orElseThrow();
        assertThat(Support.calls(word(m, "three").body())).containsExactly("string-append", "string-append");
        assertThat(Support.calls(word(m, "nm.user.none").body())).isEmpty();
        assertThat(Support.flatten(word(m, "nm.user.none").body())).singleElement()
                .satisfies(i -> assertThat(((Instr.Push) i).literal()).isEqualTo(new Literal.StringLit("")));
        assertThat(Support.calls(word(m, "one").body())).isEmpty();
        assertThat(Support.calls(word(m, "f").body())).containsExactly("string-append");
        assertThat(Support.calls(word(m, "all").body())).containsExactly("string-split", "string-join", "string-contains");
        assertThat(Support.calls(word(m, "size").body())).containsExactly("string-length", "int-to-float");
        var vocabulary = dev.finch.vm.engine.VmState.EMPTY.library().vocabulary();
        for (WordDef w : m.words()) {
            for (String c : Support.calls(w.body())) assertThat(vocabulary.word(c)).as(w.name() + " calls " + c).isPresent();
        }
    }
}
