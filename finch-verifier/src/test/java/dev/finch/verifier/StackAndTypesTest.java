package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.finalStack;
import static dev.finch.verifier.Check.ok;
import static dev.finch.verifier.Ir.t;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackAndTypesTest {
    @Test void literalsPushTheirTypes() {
        assertThat(finalStack(ok("1 1.5 \"s\" true unit 'sym"))).containsExactly("int", "float", "string", "bool", "unit", "symbol");
    }

    @Test void everyNodeCarriesFullGroundRows() {
        Checked.CheckedModule m = ok("1 2 + dup");
        List<Checked.Node> nodes = m.main().body().nodes();
        assertThat(nodes.get(2).before()).containsExactly(Type.Prim.INT, Type.Prim.INT);
        assertThat(nodes.get(2).after()).containsExactly(Type.Prim.INT);
        assertThat(nodes.get(3).after()).containsExactly(Type.Prim.INT, Type.Prim.INT);
        Checked.CallNode dup = (Checked.CallNode) nodes.get(3);
        assertThat(dup.instantiated().toString()).isEqualTo("int -> int int");
        assertThat(dup.target()).isEqualTo(new Checked.Target.Builtin("dup", "dup"));
        assertThat(m.main().signature().toString()).isEqualTo("-> int int");
    }

    @Test void polymorphicWordsInstantiatePerCallSite() {
        assertThat(finalStack(ok("1 dup \"a\" dup"))).containsExactly("int", "int", "string", "string");
        assertThat(finalStack(ok("1 \"a\" swap"))).containsExactly("string", "int");
        assertThat(finalStack(ok("\"x\" 2 swap swap over"))).containsExactly("string", "int", "string");
        assertThat(finalStack(ok("1 2 \"c\" rot"))).containsExactly("int", "string", "int");
    }

    @Test void overloadsPickTheFirstMatchingSignature() {
        Checked.CheckedModule ints = ok("1 2 +");
        assertThat(((Checked.CallNode) ints.main().body().nodes().get(2)).target()).isEqualTo(new Checked.Target.Builtin("+", "add-int"));
        Checked.CheckedModule floats = ok("1.0 2.0 +");
        assertThat(((Checked.CallNode) floats.main().body().nodes().get(2)).target()).isEqualTo(new Checked.Target.Builtin("+", "add-float"));
        assertThat(finalStack(floats)).containsExactly("float");
        Checked.CheckedModule strings = ok("\"a\" \"b\" <");
        assertThat(((Checked.CallNode) strings.main().body().nodes().get(2)).target()).isEqualTo(new Checked.Target.Builtin("<", "less-string"));
        assertThat(finalStack(strings)).containsExactly("bool");
    }

    @Test void overloadMismatchListsTheAlternatives() {
        Diagnostic d = fails("1 \"b\" +", VerifyCode.TYPE_MISMATCH);
        assertThat(d.expected()).isEqualTo("int int | float float");
        assertThat(d.found()).isEqualTo("int string");
        assertThat(d.origin()).isEqualTo(Ir.at(2));
        fails("true false <", VerifyCode.TYPE_MISMATCH);
        fails("1 1.0 +", VerifyCode.TYPE_MISMATCH);
    }

    @Test void underflowAndMismatch() {
        Diagnostic d = fails("1 +", VerifyCode.STACK_UNDERFLOW);
        assertThat(d.message()).contains("session stack");
        assertThat(d.origin()).isEqualTo(Ir.at(1));
        fails("drop", VerifyCode.STACK_UNDERFLOW);
        Diagnostic m = fails("1 not", VerifyCode.TYPE_MISMATCH);
        assertThat(m.expected()).isEqualTo("bool");
        assertThat(m.found()).isEqualTo("int");
    }

    @Test void mainStartsOnThePersistentStack() {
        assertThat(finalStack(ok("+", Type.Prim.INT, Type.Prim.INT))).containsExactly("int");
        Checked.CheckedModule m = ok("drop", Type.Prim.STRING, Type.Prim.INT);
        assertThat(m.main().signature().toString()).isEqualTo("string int -> string");
        Diagnostic d = fails("drop \"no\" 1 +", VerifyCode.TYPE_MISMATCH, Type.Prim.INT, Type.Prim.INT);
        assertThat(d.found()).isEqualTo("string int");
        Diagnostic u = fails("+ +", VerifyCode.STACK_UNDERFLOW, Type.Prim.INT, Type.Prim.INT);
        assertThat(u.message()).contains("session stack, which held 2 values");
    }

    @Test void unknownWordSuggestsNearNames() {
        Diagnostic d = fails("1 dpu", VerifyCode.UNKNOWN_WORD);
        assertThat(d.message()).contains("`dpu`").contains("did you mean `dup`");
        Diagnostic s = fails("\"a\" \"b\" string-apend", VerifyCode.UNKNOWN_WORD);
        assertThat(s.message()).contains("string-append");
        Diagnostic w = fails(": square ( int -> int ) dup * ; 3 sqaure", VerifyCode.UNKNOWN_WORD);
        assertThat(w.message()).contains("square");
        Environment env = new Environment(Ir.VOCABULARY, Map.of("greet", Ir.sig("string ->")), Map.of(), List.of());
        assertThat(fails("\"x\" gret", VerifyCode.UNKNOWN_WORD, env).message()).contains("greet");
    }

    @Test void noneTakesItsTypeFromALaterUse() {
        assertThat(finalStack(ok("none 5 some swap drop"))).containsExactly("option<int>");
        Checked.CheckedModule m = ok("none :> x 3 some :> y $x $y = drop");
        Checked.Node first = m.main().body().nodes().get(0);
        assertThat(first.after()).containsExactly(t("option<int>"));
        assertThat(((Checked.CallNode) first).instantiated().toString()).isEqualTo("-> option<int>");
    }

    @Test void okAndErrTakeTheMissingParameterFromAMergeArm() {
        Checked.CheckedModule m = ok("true if 1 ok else \"bad\" err then");
        assertThat(finalStack(m)).containsExactly("result<int,string>");
        IfNodeRows rows = new IfNodeRows((Checked.IfNode) m.main().body().nodes().get(1));
        assertThat(rows.thenOut).containsExactly(t("result<int,string>"));
        assertThat(rows.elseOut).containsExactly(t("result<int,string>"));
        assertThat(finalStack(ok("false if none else 2 some then"))).containsExactly("option<int>");
    }

    private record IfNodeRows(List<Type> thenOut, List<Type> elseOut) {
        IfNodeRows(Checked.IfNode n) { this(n.then().out(), n.otherwise().out()); }
    }

    @Test void anUndeterminedTypeOnTheFinalStackIsAmbiguous() {
        Diagnostic d = fails("1 drop none", VerifyCode.AMBIGUOUS_TYPE);
        assertThat(d.message()).contains("annotate");
        assertThat(d.origin()).isEqualTo(Ir.at(2));
        fails("1 ok", VerifyCode.AMBIGUOUS_TYPE);
    }

    @Test void anUndeterminedTypeThatNeverReachesTheStackDefaultsToUnit() {
        Checked.CheckedModule m = ok("none drop 1");
        Checked.CallNode none = (Checked.CallNode) m.main().body().nodes().get(0);
        assertThat(none.after()).containsExactly(t("option<unit>"));
        assertThat(Check.noMetas(m.main())).isTrue();
    }

    @Test void equalityIsPolymorphicButNeedsOneType() {
        assertThat(finalStack(ok("\"a\" \"b\" ="))).containsExactly("bool");
        fails("1 \"b\" =", VerifyCode.TYPE_MISMATCH);
    }

    @Test void anOrdinaryWordTakesNoImmediateButAnOutputAscription() {
        fails("1 dup<int,int>", VerifyCode.BAD_IMMEDIATE);
        fails("1 dup<string>", VerifyCode.TYPE_MISMATCH);
        assertThat(finalStack(ok("1 dup<int>"))).containsExactly("int", "int");
    }

    @Test void nullAndMalformedInputNeverThrows() {
        assertThat(Verifier.verify(null, Ir.EMPTY).diagnostics().get(0).code()).isEqualTo("E-VERIFY-029");
        var broken = new dev.finch.ir.instr.WordDef("w", java.util.Optional.empty(), null, Ir.at(0));
        var module = new dev.finch.ir.instr.Module("m", "forth", List.of(broken), dev.finch.ir.instr.Block.EMPTY);
        assertThat(Verifier.verify(module, null).diagnostics().get(0).code()).isEqualTo("E-VERIFY-029");
        var nullInstr = new dev.finch.ir.instr.Instr.If(null, dev.finch.ir.instr.Block.EMPTY, Ir.at(1));
        var module2 = new dev.finch.ir.instr.Module("m", "forth", List.of(),
                dev.finch.ir.instr.Block.of(new dev.finch.ir.instr.Instr.Push(new dev.finch.ir.instr.Literal.BoolLit(true), Ir.at(0)), nullInstr));
        assertThat(Verifier.verify(module2, Ir.EMPTY).diagnostics().get(0).code()).isEqualTo("E-VERIFY-029");
    }

    @Test void deepNestingIsALimitNotACrash() {
        var at = Ir.at(0);
        dev.finch.ir.instr.Block inner = dev.finch.ir.instr.Block.EMPTY;
        var t = new dev.finch.ir.instr.Instr.Push(new dev.finch.ir.instr.Literal.BoolLit(true), at);
        for (int i = 0; i < 100_000; i++) inner = dev.finch.ir.instr.Block.of(t, new dev.finch.ir.instr.Instr.If(inner, dev.finch.ir.instr.Block.EMPTY, at));
        Verification v = Verifier.verify(new dev.finch.ir.instr.Module("m", "forth", List.of(), inner), Ir.EMPTY);
        assertThat(v.ok()).isFalse();
        // Refused by the iterative nesting check before any recursive pass runs (issue 14).
        assertThat(v.diagnostics().get(0).code()).isEqualTo("E-LIMIT-012");
        assertThat(v.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
    }
}
