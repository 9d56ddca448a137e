package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoweringTest {
    /** The host effects every function type of the lowering declares (asks, calls and memory may pause there). */
    private static final String H = " ! {memory.read(tree=*,path=**),memory.write(tree=*,path=**),model.ask(*),tool.call(*,*)}";

    private static final String FAILURE = "variant{Invalid(record{raw:string})|ToolError(record{message:string})|Refused(record{category:symbol})"
            + "|OverBudget|PastDeadline|Raised(record{reason:symbol})}";

    private static WordDef word(Module m, String name) {
        return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no word " + name));
    }

    @Test
    void normanBasicsLowersToVariantsAndIfSomeChains() {
        Lowering l = Support.lower(Support.resource("norman-basics.nm"));
        assertThat(l.diagnostics()).isEmpty();
        Module m = l.module().orElseThrow();
        assertThat(m.language()).isEqualTo("norman");
        assertThat(m.main().isEmpty()).isTrue();
        WordDef greet = word(m, "greet");
        assertThat(greet.declared()).contains((Type.Fn) TypeSyntax.parse("variant{Cat|Dog(record{name:string})} -> string" + H));
        assertThat(Support.flatten(greet.body())).extracting(Instr::kind).startsWith(Instr.Kind.LOCAL_STORE, Instr.Kind.LOCAL_LOAD,
                Instr.Kind.LOCAL_STORE, Instr.Kind.LOCAL_LOAD, Instr.Kind.CALL, Instr.Kind.IF_SOME);
        Instr.Call get = (Instr.Call) greet.body().instrs().get(4);
        assertThat(get.word()).isEqualTo("variant-get");
        assertThat(get.immediates()).containsExactly(new Immediate.NameArg("Cat"));
        // Dog completes the coverage, so its payload is taken as certain: no unreachable error branch.
        assertThat(Support.calls(greet.body())).containsSubsequence("variant-get", "unwrap", "dup", "record-get", "unwrap").doesNotContain("program-error");
    }

    @Test
    void normanBasicsTestsLowerToResultWords() {
        Norman n = new Norman(SourceLoader.inMemory(Map.of()));
        NormanTests t = n.lowerTests(n.check(Support.resource("norman-basics.nm"), "norman-basics.nm"), dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(t.diagnostics()).isEmpty();
        assertThat(t.tests()).hasSize(4);
        Module m = t.module().orElseThrow();
        NormanTests.Lowered first = t.tests().get(0);
        assertThat(first.words()).hasSize(2);
        WordDef e = word(m, first.words().get(0));
        assertThat(e.declared()).contains((Type.Fn) TypeSyntax.parse("-> result<string," + FAILURE + ">" + H));
        assertThat(Support.calls(e.body())).containsExactly("variant", "greet", "ok");
        Instr.Call variant = (Instr.Call) e.body().instrs().get(0);
        assertThat(variant.immediates()).containsExactly(new Immediate.TypeArg(TypeSyntax.parse("variant{Cat|Dog(record{name:string})}")),
                new Immediate.NameArg("Cat"));
        WordDef show = word(m, t.tests().get(2).words().get(0));
        assertThat(Support.flatten(show.body())).extracting(Instr::kind).contains(Instr.Kind.RECORD);
        Instr.Call showCall = (Instr.Call) show.body().instrs().get(2);
        assertThat(showCall.word()).isEqualTo("show");
        assertThat(showCall.immediates()).as("show is typed by its call site").isEmpty();
        NormanTests.Lowered checkFail = t.tests().get(3);
        WordDef fail = word(m, checkFail.words().get(0));
        assertThat(Support.flatten(fail.body())).extracting(Instr::kind).containsSubsequence(Instr.Kind.RECORD, Instr.Kind.CALL, Instr.Kind.CALL, Instr.Kind.PROPAGATE);
        assertThat(Support.calls(fail.body())).containsSubsequence("variant", "err");
        WordDef matcher = word(m, checkFail.matcher().orElseThrow());
        assertThat(matcher.declared()).contains((Type.Fn) TypeSyntax.parse(FAILURE + " -> bool"));
        assertThat(Support.calls(matcher.body())).containsExactly("variant-get", "is-some");
    }

    @Test
    void normanFailingCheckLowersBothSides() {
        Norman n = new Norman(SourceLoader.inMemory(Map.of()));
        NormanTests t = n.lowerTests(n.check(Support.resource("norman-failing-check.nm"), "norman-failing-check.nm"), dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        Module m = t.module().orElseThrow();
        WordDef e = word(m, t.tests().get(0).words().get(0));
        assertThat(e.body().instrs()).extracting(Instr::kind).containsExactly(Instr.Kind.PUSH, Instr.Kind.PUSH, Instr.Kind.CALL, Instr.Kind.CALL);
        assertThat(Support.calls(e.body())).containsExactly("*", "ok");
        assertThat(e.declared()).contains((Type.Fn) TypeSyntax.parse("-> result<float," + FAILURE + ">" + H));
        WordDef expected = word(m, t.tests().get(0).words().get(1));
        assertThat(((Instr.Push) expected.body().instrs().get(0)).literal().type()).isEqualTo(Type.FLOAT);
    }

    @Test
    void failingFunctionsAnswerResultsAndPropagate() {
        Lowering l = Support.lower("(define safe-div (a b) (if (= b 0) (fail 'div) (/ a b)))\n(define sum (a b) (+ (safe-div a b) 1))");
        Module m = l.module().orElseThrow();
        assertThat(word(m, "sum").declared()).contains((Type.Fn) TypeSyntax.parse("float float -> result<float," + FAILURE + ">" + H));
        assertThat(Support.flatten(word(m, "sum").body())).extracting(Instr::kind).containsSubsequence(Instr.Kind.CALL, Instr.Kind.PROPAGATE,
                Instr.Kind.PUSH, Instr.Kind.CALL, Instr.Kind.CALL);
        assertThat(Support.calls(word(m, "sum").body())).containsExactly("safe-div", "+", "ok");
    }

    @Test
    void catchRunsTheBodyAsAResultClosure() {
        Lowering l = Support.lower("(define safe-div (a b) (if (= b 0) (fail 'div) (/ a b)))\n(define guarded (a) (catch (safe-div 1 a) e 0))");
        WordDef g = word(l.module().orElseThrow(), "guarded");
        assertThat(g.declared()).contains((Type.Fn) TypeSyntax.parse("float -> float" + H));
        assertThat(g.body().instrs()).extracting(Instr::kind).containsExactly(Instr.Kind.LOCAL_STORE, Instr.Kind.CLOSURE, Instr.Kind.CALL, Instr.Kind.IF_OK);
        Instr.Closure c = (Instr.Closure) g.body().instrs().get(1);
        assertThat(c.type()).isEqualTo(TypeSyntax.parse("-> result<float," + FAILURE + ">" + H));
    }

    @Test
    void polymorphicWordsKeepTypeVariablesAndBasisWordsArePulledInOnDemand() {
        Lowering l = Support.lower("(define firsts (xs) (append xs xs))\n(define twice (f v) (f (f v)))");
        Module m = l.module().orElseThrow();
        assertThat(word(m, "twice").declared()).contains((Type.Fn) TypeSyntax.parse("(a -> a" + H + ") a -> a" + H));
        assertThat(word(m, "nm.append").declared()).contains((Type.Fn) TypeSyntax.parse("list<a> list<a> -> list<a>" + H));
        assertThat(Support.calls(word(m, "nm.append").body())).contains("list-uncons", "list-prepend");
        assertThat(m.words()).extracting(WordDef::name).doesNotContain("nm.filter", "nm.not");
    }

    @Test
    void letPolymorphicValuesAreRebuiltAtEachUse() {
        Lowering l = Support.lower("(define pair () (let* ([id (lambda (z) z)]) (Pair [fst (id 1)] [snd (id \"a\")])))");
        WordDef w = word(l.module().orElseThrow(), "pair");
        assertThat(w.declared()).contains((Type.Fn) TypeSyntax.parse("-> record{fst:float,snd:string}" + H));
        assertThat(Support.flatten(w.body()).stream().filter(i -> i instanceof Instr.Closure).map(i -> ((Instr.Closure) i).type().toString()))
                .containsExactly("float -> float" + H, "string -> string" + H);
    }

    @Test
    void valsAndTopLevelExpressions() {
        Lowering l = Support.lower("(val origin (Pair [fst 0] [snd 0]))\n(. origin fst)\n(val bad (fail 'x))");
        Module m = l.module().orElseThrow();
        assertThat(word(m, "origin").declared()).contains((Type.Fn) TypeSyntax.parse("-> record{fst:float,snd:float}" + H));
        // The failing val's constant exists from the start ("not bound yet"), then holds its initializer's result;
        // an err is reported with say and binds nothing.
        assertThat(m.main().instrs()).extracting(Instr::kind).containsExactly(Instr.Kind.RECORD, Instr.Kind.CALL, Instr.Kind.CALL, Instr.Kind.CONSTANT,
                Instr.Kind.CALL, Instr.Kind.CALL, Instr.Kind.CALL, Instr.Kind.CALL, Instr.Kind.CONSTANT, Instr.Kind.CALL, Instr.Kind.IF_OK);
        assertThat(Support.calls(m.main())).containsSubsequence("variant", "err", "origin", "record-get", "unwrap", "nm.init.bad", "bad", "show", "say");
        assertThat(((Instr.Constant) m.main().instrs().get(3)).declared()).contains(TypeSyntax.parse("result<unit," + FAILURE + ">"));
    }

    @Test
    void emptyListsCarryTheirElementType() {
        Lowering l = Support.lower("(define none () (cons 1 '()))");
        // `none` is also a vocabulary word, so the program's word is renamed: module words shadow the vocabulary.
        Instr.Call empty = (Instr.Call) Support.flatten(word(l.module().orElseThrow(), "nm.user.none").body()).stream()
                .filter(i -> i instanceof Instr.Call c && c.word().equals("empty-list")).findFirst().orElseThrow();
        assertThat(empty.immediates()).containsExactly(new Immediate.TypeArg(Type.FLOAT));
    }

    @Test
    void unsupportedShapesAreLowerDiagnostics() {
        // a datatype may refer to itself, and declarations to each other (issue 16); generic mutual recursion is not lowered yet
        assertThat(Support.lower("(datatype Tree [Leaf] [Node (l Tree) (r Tree)])\n(define leaf () Leaf)").diagnostics()).isEmpty();
        assertThat(Support.lower("(record A (b (List B)))\n(record B (a (List A)) (n Num))\n(define f (x) (. x b))").diagnostics()).isEmpty();
        assertThat(Support.lower("(record A (b (List B)) (x Any))\n(record B (a (List A)) (n Num))\n(define f (x) (. x b))").diagnostics())
                .extracting(d -> d.code()).contains("E-NORMAN-201");
        // a model grant is a value (issue 16): it lowers to the grant's model value
        Lowering m = Support.lower("(grant claude (model))\n(val m claude)");
        assertThat(m.diagnostics()).isEmpty();
        assertThat(Support.calls(word(m.module().orElseThrow(), "m").body())).containsExactly("model-capability");
    }

    @Test
    void everyCalledWordIsSharedVocabularyOrAModuleWord() {
        Norman n = new Norman(SourceLoader.inMemory(Map.of()));
        NormanTests t = n.lowerTests(n.check(Support.resource("norman-basics.nm") + "\n(check-expect (length (append (list 1) '())) 1)", "x.nm"), dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        Module m = t.module().orElseThrow();
        java.util.Set<String> names = new java.util.HashSet<>();
        m.words().forEach(w -> names.add(w.name()));
        for (WordDef w : m.words()) {
            for (String c : Support.calls(w.body())) {
                assertThat(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().word(c).isPresent() || names.contains(c))
                        .as(w.name() + " calls " + c).isTrue();
            }
        }
    }
}
