package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.finalStack;
import static dev.finch.verifier.Check.ok;
import static dev.finch.verifier.Check.word;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WordsTest {
    @Test void declaredSignatureIsCheckedExactly() {
        Checked.CheckedModule m = ok(": square ( int -> int ) dup * ; 3 square");
        assertThat(finalStack(m)).containsExactly("int");
        assertThat(word(m, "square").signature().toString()).isEqualTo("int -> int");
        Checked.CallNode call = (Checked.CallNode) m.main().body().nodes().get(1);
        assertThat(call.target()).isEqualTo(new Checked.Target.Word("square"));
        Diagnostic d = fails(": bad ( int -> int ) dup ; 1 bad", VerifyCode.SIGNATURE_MISMATCH);
        assertThat(d.expected()).isEqualTo("int");
        assertThat(d.found()).isEqualTo("int int");
        fails(": bad ( int -> string ) 1 + ;", VerifyCode.SIGNATURE_MISMATCH);
        fails(": bad ( int -> int ) drop drop 1 ;", VerifyCode.STACK_UNDERFLOW);
    }

    @Test void signaturesAreInferredAndGeneralized() {
        Checked.CheckedModule m = ok(": twice dup ; : inc 1 + ; : pick3 drop drop ; 1 twice \"a\" twice 5 inc");
        assertThat(word(m, "twice").signature().toString()).isEqualTo("a -> a a");
        assertThat(word(m, "inc").signature().toString()).isEqualTo("int -> int");
        assertThat(word(m, "pick3").signature().toString()).isEqualTo("a b ->");
        assertThat(finalStack(m)).containsExactly("int", "int", "string", "string", "int");
    }

    @Test void inferredWordsThroughBranchesAndLoops() {
        Checked.CheckedModule m = ok(": choose if drop else nip then ; : count begin dup 0 > while 1 - repeat ; 1 2 true choose 5 count");
        assertThat(word(m, "choose").signature().toString()).isEqualTo("a a bool -> a");
        assertThat(word(m, "count").signature().toString()).isEqualTo("int -> int");
    }

    @Test void polymorphicBodiesKeepRigidVariables() {
        Checked.CheckedModule m = ok(": dup2 ( a -> a a ) dup ; 1 dup2 \"s\" dup2");
        Checked.CheckedWord w = word(m, "dup2");
        assertThat(w.body().nodes().get(0).after()).containsExactly(Type.var("a"), Type.var("a"));
        assertThat(finalStack(m)).containsExactly("int", "int", "string", "string");
        fails(": bad ( a -> int ) ;", VerifyCode.SIGNATURE_MISMATCH);
        fails(": bad ( a -> a ) 1 + ;", VerifyCode.TYPE_MISMATCH);
    }

    @Test void wordsMayReferToEachOtherInAnyOrder() {
        Checked.CheckedModule m = ok(": quad double double ; : double 2 * ; 3 quad");
        assertThat(word(m, "quad").signature().toString()).isEqualTo("int -> int");
        assertThat(m.words()).extracting(Checked.CheckedWord::name).containsExactly("quad", "double");
    }

    @Test void recursionNeedsADeclaredSignature() {
        Checked.CheckedModule m = ok(": fact ( int -> int ) dup 1 > if dup 1 - fact * then ; 5 fact");
        assertThat(finalStack(m)).containsExactly("int");
        Diagnostic d = fails(": loop dup 0 > if 1 - loop then ; 3 loop", VerifyCode.RECURSION_NEEDS_SIGNATURE);
        assertThat(d.message()).contains("loop");
        Diagnostic cyc = fails(": ping pong ; : pong ping ; ping", VerifyCode.RECURSION_NEEDS_SIGNATURE);
        assertThat(cyc.message()).contains("ping").contains("pong");
        assertThat(Verifier.verify(Ir.module(": ping pong ; : pong ping ; ping"), Ir.EMPTY).diagnostics()).hasSize(1);
        ok(": even? ( int -> bool ) dup 0 = if drop true else 1 - odd? then ; : odd? dup 0 = if drop false else 1 - even? then ; 4 even?");
    }

    @Test void duplicateDefinitionsAreErrors() {
        fails(": w 1 ; : w 2 ; w", VerifyCode.DUPLICATE_WORD);
    }

    @Test void aFailedWordIsReportedOnceAndPoisonsItsCallersQuietly() {
        Verification v = Verifier.verify(Ir.module(": bad 1 \"a\" + ; : user bad 1 + ; user"), Ir.EMPTY);
        assertThat(v.diagnostics()).hasSize(1);
        assertThat(v.diagnostics().get(0).code()).isEqualTo(VerifyCode.TYPE_MISMATCH.code());
    }

    @Test void declaredWordsThatFailStillTypeTheirCallers() {
        Verification v = Verifier.verify(Ir.module(": bad ( -> int ) \"a\" ; bad \"x\" +"), Ir.EMPTY);
        assertThat(v.diagnostics()).extracting(dev.finch.ir.diag.Diagnostic::code)
                .containsExactly(VerifyCode.SIGNATURE_MISMATCH.code(), VerifyCode.TYPE_MISMATCH.code());
    }

    @Test void environmentWordsAndConstantsResolve() {
        Environment env = new Environment(Ir.VOCABULARY, Map.of("greeting", Ir.sig("string -> string"), "pair", Ir.sig("a -> a a")),
                Map.of("limit", Type.Prim.INT), List.of());
        Checked.CheckedModule m = ok("\"Ada\" greeting limit 1 pair", env);
        assertThat(finalStack(m)).containsExactly("string", "int", "int", "int");
        assertThat(((Checked.CallNode) m.main().body().nodes().get(2)).target()).isEqualTo(new Checked.Target.ConstantRef("limit"));
        fails("1 greeting", VerifyCode.TYPE_MISMATCH, env);
    }

    @Test void moduleWordsShadowTheVocabulary() {
        Checked.CheckedModule m = ok(": dup ( int -> int ) 1 + ; 1 dup");
        assertThat(finalStack(m)).containsExactly("int");
    }
}
