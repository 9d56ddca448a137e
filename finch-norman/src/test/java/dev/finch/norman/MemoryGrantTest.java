package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Memory grants: their syntax, the types of their calls and the refusals (E-NORMAN-107), and what the calls lower to —
 * Finch's memory words, with the grant's tree and a literal path where the program wrote one, so the verifier infers
 * the concrete {@code memory.read}/{@code memory.write} requirement (that inference, and that the lowered modules
 * verify and run, is tested where programs run: finch-core's {@code NormanMemoryTest}).
 */
class MemoryGrantTest {
    private static final String NOTE = "(record Note (text (Text 200)) (tags (List Sym)))\n(grant notes (memory [tree project] [value Note]))\n";

    private static Diagnostic only(String program) {
        NormanProgram p = Support.check(program);
        assertThat(p.diagnostics()).as("%s", p.diagnostics()).hasSize(1);
        return p.diagnostics().get(0);
    }

    // ---- syntax ----------------------------------------------------------------------------------------------------

    @Test void aMemoryGrantNamesItsTreeAndOptionallyItsValueType() {
        NormanProgram p = Support.check(NOTE + "(grant raw (memory [tree session]))");
        assertThat(p.diagnostics()).isEmpty();
        Ast.Grant notes = p.definitions().stream().filter(d -> d instanceof Ast.Grant g && g.name().equals("notes")).map(d -> (Ast.Grant) d).findFirst().orElseThrow();
        assertThat(notes.isMemory()).isTrue();
        assertThat(notes.isTool()).isFalse();
        assertThat(notes.tree()).contains("project");
        assertThat(notes.valueType()).get().isInstanceOf(Ast.TNamed.class);
    }

    @Test void aMemoryGrantWithoutATreeOrWithAnotherEntryIsRefusedWhereItIsWritten() {
        assertThat(only("(grant m (memory))").message()).contains("[tree session|project|global]");
        assertThat(only("(grant m (memory [value Num]))").code()).isEqualTo("E-NORMAN-003");
        Diagnostic tree = only("(grant m (memory [tree disk]))");
        assertThat(tree.code()).isEqualTo("E-NORMAN-003");
        assertThat(tree.message()).contains("session, project or global");
        assertThat(only("(grant m (memory [tree \"project\"]))").message()).contains("a memory tree");
        assertThat(only("(grant m (memory [tree project] [get Num]))").message()).contains("get, put, list and delete");
        assertThat(only("(grant m (memory [tree project] [tree global]))").code()).isEqualTo("E-NORMAN-005");
        assertThat(only("(grant m (memory [tree project] [value Nope]))").code()).isEqualTo("E-NORMAN-016");
    }

    // ---- types -----------------------------------------------------------------------------------------------------

    @Test void theCallsAreTypedByTheGrantsValueType() {
        NormanProgram p = Support.check(NOTE + """
                (grant raw (memory [tree global]))
                (define fetch (k) (call notes get k))
                (define store (k n) (call notes put k n))
                (define paths () (call notes list ""))
                (define drop-it (k) (call notes delete k))
                (define text-of (k) (call raw get k))
                """);
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("fetch", "(Text -> (Option Note) ! Failure)").containsEntry("store", "(Text Note -> Bool)")
                .containsEntry("paths", "(-> (List Text))").containsEntry("drop-it", "(Text -> Bool)").containsEntry("text-of", "(Text -> (Option Text) ! Failure)");
    }

    @Test void aValueOfAnotherTypeOrAPathThatIsNotTextIsATypeError() {
        Diagnostic d = only(NOTE + "(define f () (call notes put \"a\" 42))");
        assertThat(d.code()).isEqualTo("E-NORMAN-101");
        assertThat(d.message()).contains("the value of (call notes put …)");
        assertThat(only(NOTE + "(define f () (call notes get 'a))").code()).isEqualTo("E-NORMAN-101");
    }

    @Test void anotherOperationOrArityIsRefused() {
        Diagnostic op = only(NOTE + "(define f () (call notes read \"a\"))");
        assertThat(op.code()).isEqualTo("E-NORMAN-107");
        assertThat(op.message()).contains("get, put, list and delete").contains("`read`");
        Diagnostic arity = only(NOTE + "(define f () (call notes put \"a\"))");
        assertThat(arity.code()).isEqualTo("E-NORMAN-107");
        assertThat(arity.message()).contains("takes a path and a value, given 1");
        assertThat(only(NOTE + "(define f () (call notes get))").message()).contains("takes a path, given 0");
    }

    @Test void aMemoryGrantIsNotAFirstClassValue() {
        Diagnostic d = only(NOTE + "(define keep (m) m) (define f () (keep notes))");
        assertThat(d.code()).isEqualTo("E-NORMAN-107");
        assertThat(d.message()).contains("`notes` is a memory grant, which is not a value");
        assertThat(only(NOTE + "(define f () (list notes))").code()).isEqualTo("E-NORMAN-107");
        // Through a Tool-typed parameter a call is a tool call, never memory.
        NormanProgram p = Support.check(NOTE + "(define run (t) (call t get \"a\"))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("run", "(Tool -> 'a ! Failure)");
    }

    @Test void aLocalOfTheGrantsNameShadowsIt() {
        NormanProgram p = Support.check(NOTE + "(define f (notes) (+ notes 1))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("f", "(Num -> Num)");
    }

    // ---- lowering --------------------------------------------------------------------------------------------------

    private static Module lowered(String program) {
        Lowering l = Support.lower(program);
        assertThat(l.diagnostics()).isEmpty();
        return l.module().orElseThrow();
    }

    private static WordDef word(Module m, String name) { return m.words().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(); }

    @Test void getIsMemoryGetThenJsonToValueAtTheGrantsType() {
        Module m = lowered(NOTE + "(define fetch () (call notes get \"todo/a\"))");
        WordDef fetch = word(m, "fetch");
        List<Instr> body = fetch.body().instrs();
        assertThat(body.get(0)).isEqualTo(new Instr.Push(new dev.finch.ir.instr.Literal.StringLit("project"), body.get(0).origin()));
        assertThat(body.get(1)).isEqualTo(new Instr.Push(new dev.finch.ir.instr.Literal.StringLit("todo/a"), body.get(1).origin()));
        assertThat(((Instr.Call) body.get(2)).word()).isEqualTo("memory-get");
        assertThat(Support.calls(fetch.body())).containsSubsequence("memory-get", "json-to-value", "variant", "ok")
                .contains("json-stringify", "err").doesNotContain("tool-call");
        Instr.Call read = Support.flatten(fetch.body()).stream().filter(i -> i instanceof Instr.Call c && c.word().equals("json-to-value"))
                .map(i -> (Instr.Call) i).findFirst().orElseThrow();
        assertThat(read.immediates()).containsExactly(new Immediate.TypeArg(TypeSyntax.parse("option<record{tags:list<symbol>,text:string}>")));
        assertThat(fetch.declared().orElseThrow().outs().get(0).toString()).startsWith("result<variant{None|Some(record{value:record{tags:list<symbol>,text:string}})}");
    }

    @Test void putShowsTheValueThenPushesTheTreeAndPathRightBeforeMemoryPut() {
        Module m = lowered(NOTE + "(define store (n) (call notes put \"todo/a\" n))");
        List<String> calls = Support.calls(word(m, "store").body());
        assertThat(calls).containsSubsequence("show", "json-parse", "memory-put").doesNotContain("tool-call");
        List<Instr> body = word(m, "store").body().instrs();
        int put = body.size() - 2;
        assertThat(((Instr.Call) body.get(put)).word()).isEqualTo("memory-put");
        assertThat(body.get(put - 3)).isInstanceOf(Instr.Push.class);
        assertThat(body.get(put - 2)).isInstanceOf(Instr.LocalLoad.class);
        assertThat(body.get(put - 1)).isInstanceOf(Instr.LocalLoad.class);
        assertThat(body.get(body.size() - 1)).isEqualTo(new Instr.Push(new dev.finch.ir.instr.Literal.BoolLit(true), body.get(body.size() - 1).origin()));
    }

    @Test void aValueTypeThatIsNotAskableIsTheCheckedRunTimeErrorOfTheCall() {
        Module m = lowered("(grant m (memory [tree session] [value Any]))\n(define f () (call m get \"a\"))");
        assertThat(Support.calls(word(m, "f").body())).contains("program-error").doesNotContain("memory-get", "json-to-value");
    }
}
