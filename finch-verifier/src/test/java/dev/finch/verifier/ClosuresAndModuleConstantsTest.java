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

/**
 * Two rules frontends with failures-as-values need: {@code ?} inside a closure whose type declares one result
 * output (it returns from the closure), and words reading a constant that this program's main defines earlier
 * than the word is first used.
 */
class ClosuresAndModuleConstantsTest {
    @Test void propagateReturnsFromTheClosureThatDeclaresAResult() {
        Checked.CheckedModule m = ok("\"1\" [: ( string -> result<json,string> ) json-parse ? ok ;] execute");
        assertThat(finalStack(m)).containsExactly("result<json,string>");
        Checked.ClosureNode c = (Checked.ClosureNode) m.main().body().nodes().get(1);
        Checked.PropagateNode p = (Checked.PropagateNode) c.body().body().nodes().get(1);
        assertThat(p.functionResult().toString()).isEqualTo("result<json,string>");
    }

    @Test void propagateInAClosureTargetsTheClosureNotTheEnclosingWord() {
        // The enclosing word answers int: only the closure's own declared result can receive the err.
        Checked.CheckedModule m = ok(": f ( string -> int ) [: ( string -> result<json,string> ) json-parse ? ok ;] execute if-ok drop 1 else drop 0 then ; \"1\" f");
        assertThat(finalStack(m)).containsExactly("int");
        Diagnostic d = fails("[: ( string -> json ) json-parse ? ;] drop", VerifyCode.PROPAGATE_TARGET);
        assertThat(d.message()).contains("this closure");
        fails("[: ( -> result<int,int> ) \"1\" json-parse ? drop 1 ok ;] drop", VerifyCode.TYPE_MISMATCH);
    }

    @Test void aWordReadsAConstantMainDefinedBeforeUsingIt() {
        Checked.CheckedModule m = ok(": f ( -> int ) answer 1 + ; 41 constant answer f");
        assertThat(finalStack(m)).containsExactly("int");
        assertThat(word(m, "f").body().nodes().get(0)).isInstanceOfSatisfying(Checked.CallNode.class,
                n -> assertThat(n.target()).isEqualTo(new Checked.Target.ConstantRef("answer")));
        // Through another word, and without a declared signature.
        assertThat(finalStack(ok(": g f ; : f answer ; \"x\" constant answer g"))).containsExactly("string");
    }

    @Test void aWordUsedBeforeTheConstantExistsIsRefused() {
        Diagnostic d = fails(": f ( -> int ) answer ; f drop 41 constant answer", VerifyCode.CONSTANT_NOT_YET_DEFINED);
        assertThat(d.message()).contains("answer").contains("`f`");
        // Calling it through another word, or quoting it, is a use as well.
        fails(": g ( -> int ) f ; : f ( -> int ) answer ; g drop 41 constant answer", VerifyCode.CONSTANT_NOT_YET_DEFINED);
        fails(": f ( -> int ) answer ; ['] f drop 41 constant answer", VerifyCode.CONSTANT_NOT_YET_DEFINED);
    }

    @Test void aConstantAWordReadsKeepsItsType() {
        ok(": f ( -> int ) answer ; 41 constant answer f drop 42 constant answer f");
        fails(": f ( -> int ) answer ; 41 constant answer f drop \"x\" constant answer", VerifyCode.CONSTANT_NOT_YET_DEFINED);
        // Redefining a session constant a word of this program read is the same hazard.
        Environment env = new Environment(Ir.VOCABULARY, Map.of(), Map.of("limit", Type.Prim.INT), List.of());
        fails(": f ( -> int ) limit ; f drop \"x\" constant limit", VerifyCode.CONSTANT_NOT_YET_DEFINED, env);
    }

    @Test void aWordMainNeverUsesSeesEveryConstant() {
        // It can run only in a later submission, after this program committed its constants.
        Checked.CheckedModule m = ok(": f ( -> string ) greeting ; \"hi\" constant greeting");
        assertThat(word(m, "f").signature().toString()).isEqualTo("-> string");
    }

    @Test void aConstantOfUnknownTypeCannotBeReadByAWord() {
        fails(": f none-of ; none constant none-of f drop", VerifyCode.AMBIGUOUS_TYPE);
        ok(": f ( -> option<int> ) none-of ; none constant<option<int>> none-of f drop");
    }

    @Test void vocabularyWordsAreNotShadowedBeforeTheConstantExists() {
        // `dup` is the vocabulary's until main defines a constant of that name; the word was checked at that use.
        assertThat(finalStack(ok(": f ( int -> int int ) dup ; 1 f drop drop 5 constant dup"))).isEmpty();
    }
}
