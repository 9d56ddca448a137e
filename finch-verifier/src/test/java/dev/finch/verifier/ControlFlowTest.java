package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.finalStack;
import static dev.finch.verifier.Check.ok;
import static dev.finch.verifier.Ir.t;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import org.junit.jupiter.api.Test;

class ControlFlowTest {
    @Test void ifArmsMustLeaveOneRow() {
        assertThat(finalStack(ok("true if 1 else 2 then"))).containsExactly("int");
        assertThat(finalStack(ok("5 true if 1 + then"))).containsExactly("int");
        Diagnostic d = fails("true if 1 else \"two\" then", VerifyCode.BRANCH_MISMATCH);
        assertThat(d.expected()).isEqualTo("int");
        assertThat(d.found()).isEqualTo("string");
        fails("true if 1 then", VerifyCode.BRANCH_MISMATCH);
        fails("1 if 1 else 2 then", VerifyCode.TYPE_MISMATCH);
        fails("if 1 else 2 then", VerifyCode.STACK_UNDERFLOW);
    }

    @Test void ifNodeRecordsArmRows() {
        Checked.IfNode n = (Checked.IfNode) ok("7 true if 1 + else 2 * then").main().body().nodes().get(2);
        assertThat(n.before()).containsExactly(Type.Prim.INT, Type.Prim.BOOL);
        assertThat(n.then().in()).containsExactly(Type.Prim.INT);
        assertThat(n.then().out()).containsExactly(Type.Prim.INT);
        assertThat(n.after()).containsExactly(Type.Prim.INT);
    }

    @Test void ifSomeGivesThePayloadToTheSomeEdge() {
        assertThat(finalStack(ok("3 some if-some 1 + else 0 then"))).containsExactly("int");
        Checked.IfSomeNode n = (Checked.IfSomeNode) ok("\"x\" some if-some string-length else 0 then").main().body().nodes().get(2);
        assertThat(n.payload()).isEqualTo(Type.Prim.STRING);
        assertThat(n.some().in()).containsExactly(Type.Prim.STRING);
        fails("3 some if-some else \"none\" then", VerifyCode.BRANCH_MISMATCH);
        fails("3 if-some else 0 then", VerifyCode.TYPE_MISMATCH);
    }

    @Test void ifOkGivesPayloadsToBothEdges() {
        Checked.CheckedModule m = ok("\"{}\" json-parse if-ok json-stringify else then");
        assertThat(finalStack(m)).containsExactly("string");
        Checked.IfOkNode n = (Checked.IfOkNode) m.main().body().nodes().get(2);
        assertThat(n.okType()).isEqualTo(Type.Prim.JSON);
        assertThat(n.errType()).isEqualTo(Type.Prim.STRING);
        fails("\"{}\" json-parse if-ok else then", VerifyCode.BRANCH_MISMATCH);
        assertThat(finalStack(ok("1 ok if-ok else drop 0 then"))).containsExactly("int");
    }

    @Test void caseArmsOtherwiseAndTheImplicitDefault() {
        assertThat(finalStack(ok("2 case 1 of \"one\" endof 2 of \"two\" endof otherwise \"many\" endcase"))).containsExactly("string");
        assertThat(finalStack(ok("10 2 case 1 of 1 + endof 2 of 2 * endof endcase"))).containsExactly("int");
        Diagnostic d = fails("2 case 1 of \"one\" endof endcase", VerifyCode.BRANCH_MISMATCH);
        assertThat(d.message()).contains("implicit default");
        fails("2 case 1 of 1 endof 2 of \"two\" endof otherwise 3 endcase", VerifyCode.BRANCH_MISMATCH);
        fails("2 case 1 of 1 endof otherwise \"x\" endcase", VerifyCode.BRANCH_MISMATCH);
        fails("2 case 1 of 1 endof 1 of 2 endof otherwise 3 endcase", VerifyCode.DUPLICATE_CASE_VALUE);
        fails("\"x\" case 1 of endof endcase", VerifyCode.TYPE_MISMATCH);
    }

    @Test void whileLoopsRestoreTheHeadRow() {
        Checked.CheckedModule m = ok("0 begin dup 10 < while 1 + repeat");
        assertThat(finalStack(m)).containsExactly("int");
        Checked.LoopNode n = (Checked.LoopNode) m.main().body().nodes().get(1);
        assertThat(n.test().out()).containsExactly(Type.Prim.INT, Type.Prim.BOOL);
        assertThat(n.body().in()).containsExactly(Type.Prim.INT);
        fails("0 begin dup 10 < while 1 repeat", VerifyCode.LOOP_ROW);
        fails("0 begin dup while 1 + repeat", VerifyCode.LOOP_ROW);
        fails("0 begin 1 while repeat", VerifyCode.LOOP_ROW);
        fails("0 begin drop true while 1 repeat", VerifyCode.LOOP_ROW);
    }

    @Test void untilLoopsLeaveABool() {
        assertThat(finalStack(ok("0 begin 1 + dup 10 > until"))).containsExactly("int");
        fails("0 begin 1 + until", VerifyCode.LOOP_ROW);
        fails("0 begin \"x\" true until", VerifyCode.LOOP_ROW);
    }

    @Test void noneInOneArmMeetsSomeInTheOther() {
        Checked.CheckedModule m = ok("true if none else \"s\" some then");
        assertThat(finalStack(m)).containsExactly("option<string>");
        Checked.IfNode n = (Checked.IfNode) m.main().body().nodes().get(1);
        assertThat(n.then().out()).containsExactly(t("option<string>"));
    }

    @Test void localsAssignedInOnlyOneArmAreNotAssignedAfter() {
        fails("true if 1 :> x then $x", VerifyCode.LOCAL_UNASSIGNED);
        assertThat(finalStack(ok("true if 1 :> x else 2 :> x then $x"))).containsExactly("int");
        assertThat(finalStack(ok("0 :> x true if 1 :> x then $x"))).containsExactly("int");
    }
}
