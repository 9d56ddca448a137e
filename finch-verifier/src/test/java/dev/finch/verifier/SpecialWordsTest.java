package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.finalStack;
import static dev.finch.verifier.Check.ok;
import static dev.finch.verifier.Check.word;
import static dev.finch.verifier.Ir.t;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import org.junit.jupiter.api.Test;

class SpecialWordsTest {
    static final String V = "variant{none|some(int)|meta(record{name:string})}";

    @Test void variantBuildsAClosedSum() {
        Checked.CheckedModule m = ok("42 variant<" + V + ",some> variant<" + V + ",none>");
        assertThat(finalStack(m)).containsExactly(V, V);
        Checked.CallNode c = (Checked.CallNode) m.main().body().nodes().get(1);
        assertThat(c.instantiated().toString()).isEqualTo("int -> " + V);
        Diagnostic d = fails("42 variant<" + V + ",sme>", VerifyCode.UNKNOWN_TAG);
        assertThat(d.message()).contains("did you mean `some`");
        fails("\"x\" variant<" + V + ",some>", VerifyCode.TYPE_MISMATCH);
        fails("variant<" + V + ",some>", VerifyCode.STACK_UNDERFLOW);
        fails("1 variant<int,some>", VerifyCode.BAD_IMMEDIATE);
        fails("1 variant<" + V + ">", VerifyCode.BAD_IMMEDIATE);
        fails("1 variant", VerifyCode.BAD_IMMEDIATE);
    }

    @Test void variantGetProjectsAPayload() {
        assertThat(finalStack(ok("42 variant<" + V + ",some> variant-get<some>"))).containsExactly("option<int>");
        assertThat(finalStack(ok("variant<" + V + ",none> variant-get<none>"))).containsExactly("option<unit>");
        assertThat(finalStack(ok("variant<" + V + ",none> variant-get<meta>"))).containsExactly("option<record{name:string}>");
        fails("variant<" + V + ",none> variant-get<other>", VerifyCode.UNKNOWN_TAG);
        fails("1 variant-get<some>", VerifyCode.TYPE_MISMATCH);
        fails(": f variant-get<some> ;", VerifyCode.NEEDS_KNOWN_TYPE);
        fails("variant-get<some>", VerifyCode.STACK_UNDERFLOW);
        fails("variant<" + V + ",none> variant-get", VerifyCode.BAD_IMMEDIATE);
    }

    @Test void aVocabularyWordsOutputMayBeAscribed() {
        // word<T>: the output is T, so a word whose output the inputs leave open is pinned where it is used
        assertThat(finalStack(ok("none<option<int>>"))).containsExactly("option<int>");
        assertThat(finalStack(ok("1 2 +<int>"))).containsExactly("int");
        fails("none<int>", VerifyCode.TYPE_MISMATCH);
        fails("1 2 +<string>", VerifyCode.TYPE_MISMATCH);
        fails("none<int,int>", VerifyCode.BAD_IMMEDIATE);
    }

    @Test void emptyListTakesItsElementType() {
        assertThat(finalStack(ok("empty-list<int> 1 list-append"))).containsExactly("list<int>");
        fails("empty-list<int> \"a\" list-append", VerifyCode.TYPE_MISMATCH);
        fails("empty-list", VerifyCode.BAD_IMMEDIATE);
        Checked.CheckedModule m = ok(": wrap ( a -> list<a> ) :> x empty-list<a> $x list-append ; 1 wrap");
        assertThat(finalStack(m)).containsExactly("list<int>");
    }

    @Test void recordGetAndSet() {
        assertThat(finalStack(ok("{ name: \"Ada\" age: 36 } record-get:age"))).containsExactly("option<int>");
        assertThat(finalStack(ok("{ name: \"Ada\" age: 36 } 37 record-set:age"))).containsExactly("record{age:int,name:string}");
        Diagnostic d = fails("{ name: \"Ada\" } record-get:nmae", VerifyCode.UNKNOWN_FIELD);
        assertThat(d.message()).contains("did you mean `name`");
        fails("{ name: \"Ada\" } 1 record-set:name", VerifyCode.TYPE_MISMATCH);
        fails("{ name: \"Ada\" } \"x\" record-set:nick", VerifyCode.UNKNOWN_FIELD);
        fails("1 record-get:name", VerifyCode.TYPE_MISMATCH);
        fails(": f record-get:name ;", VerifyCode.NEEDS_KNOWN_TYPE);
        fails("{ name: \"Ada\" } record-get", VerifyCode.BAD_IMMEDIATE);
        fails("\"x\" record-set:name", VerifyCode.STACK_UNDERFLOW);
    }

    @Test void executeAppliesAFunctionType() {
        Checked.CheckedModule m = ok(": sq ( int -> int ) dup * ; 3 ['] sq execute");
        assertThat(finalStack(m)).containsExactly("int");
        Checked.QuoteNode q = (Checked.QuoteNode) m.main().body().nodes().get(1);
        assertThat(q.type().toString()).isEqualTo("int -> int");
        Checked.CallNode ex = (Checked.CallNode) m.main().body().nodes().get(2);
        assertThat(ex.instantiated().toString()).isEqualTo("int (int -> int) -> int");
        assertThat(finalStack(ok("\"a\" ['] dup execute"))).containsExactly("string", "string");
        fails("\"x\" ['] negate execute", VerifyCode.TYPE_MISMATCH);
        fails("1 2 execute", VerifyCode.NOT_A_FUNCTION);
        fails(": f execute ;", VerifyCode.NEEDS_KNOWN_TYPE);
        fails("execute", VerifyCode.STACK_UNDERFLOW);
        fails("['] execute", VerifyCode.BAD_QUOTE);
        fails("['] nosuch", VerifyCode.UNKNOWN_WORD);
    }

    @Test void closuresCaptureEnclosingLocalsReadOnly() {
        Checked.CheckedModule m = ok("10 :> n 5 [: ( int -> int ) $n + ;] execute");
        assertThat(finalStack(m)).containsExactly("int");
        Checked.ClosureNode c = (Checked.ClosureNode) m.main().body().nodes().get(3);
        assertThat(c.body().captures()).containsExactly("n");
        assertThat(c.body().signature().toString()).isEqualTo("int -> int");
        assertThat(c.after()).containsExactly(Type.Prim.INT, t("int -> int"));
        assertThat(m.main().locals()).containsEntry("n", Type.Prim.INT);
        fails("10 :> n [: ( -> ) 1 :> n ;]", VerifyCode.CAPTURED_LOCAL_STORE);
        fails("[: ( -> int ) $n ;] 10 :> n", VerifyCode.LOCAL_UNASSIGNED);
        fails("[: ( int -> string ) 1 + ;]", VerifyCode.SIGNATURE_MISMATCH);
        fails("[: ( -> int ) + ;]", VerifyCode.STACK_UNDERFLOW);
        Checked.CheckedModule own = ok("[: ( int -> int ) :> x $x $x * ;] drop");
        Checked.ClosureNode oc = (Checked.ClosureNode) own.main().body().nodes().get(0);
        assertThat(oc.body().locals()).containsEntry("x", Type.Prim.INT);
        assertThat(oc.body().captures()).isEmpty();
    }

    @Test void nestedClosuresCaptureThroughTheirParents() {
        Checked.CheckedModule m = ok("1 :> a [: ( -> int ) [: ( -> int ) $a ;] execute ;] execute");
        Checked.ClosureNode outer = (Checked.ClosureNode) m.main().body().nodes().get(2);
        assertThat(outer.body().captures()).containsExactly("a");
        Checked.ClosureNode inner = (Checked.ClosureNode) outer.body().body().nodes().get(0);
        assertThat(inner.body().captures()).containsExactly("a");
    }

    @Test void polymorphicClosureTypesAreInstantiatedAsValues() {
        assertThat(finalStack(ok("7 [: ( a -> a a ) dup ;] execute"))).containsExactly("int", "int");
    }

    @Test void localsFixTheirTypeAtTheFirstStore() {
        assertThat(finalStack(ok("1 :> x $x $x +"))).containsExactly("int");
        fails("1 :> x \"s\" :> x", VerifyCode.TYPE_MISMATCH);
        fails("$y", VerifyCode.LOCAL_UNASSIGNED);
        fails(":> x", VerifyCode.STACK_UNDERFLOW);
        Checked.CheckedModule m = ok(": f ( int -> int ) :> k $k $k * ; 3 f");
        assertThat(word(m, "f").locals()).containsEntry("k", Type.Prim.INT);
    }

    @Test void propagateNeedsADeclaredResultReturn() {
        Checked.CheckedModule m = ok(": parse ( string -> result<int,string> ) json-parse ? json-as-int if-some ok else \"not an int\" err then ; \"1\" parse");
        assertThat(finalStack(m)).containsExactly("result<int,string>");
        Checked.PropagateNode p = (Checked.PropagateNode) word(m, "parse").body().nodes().get(1);
        assertThat(p.inspected().toString()).isEqualTo("result<json,string>");
        assertThat(p.functionResult().toString()).isEqualTo("result<int,string>");
        fails("\"1\" json-parse ?", VerifyCode.PROPAGATE_TARGET);
        fails(": f \"1\" json-parse ? ;", VerifyCode.PROPAGATE_TARGET);
        fails(": f ( string -> json ) json-parse ? ;", VerifyCode.PROPAGATE_TARGET);
        fails("[: ( string -> json ) json-parse ? ;]", VerifyCode.PROPAGATE_TARGET);
        ok("[: ( string -> result<json,string> ) json-parse ? ok ;] drop"); // a closure declaring a result is a target
        fails(": f ( -> result<int,int> ) \"1\" json-parse ? drop 1 ok ;", VerifyCode.TYPE_MISMATCH);
        fails(": f ( int -> result<int,string> ) ? ;", VerifyCode.TYPE_MISMATCH);
    }

    @Test void constantsDefineDictionaryValues() {
        Checked.CheckedModule m = ok("42 constant answer answer 1 +");
        assertThat(m.newConstants()).containsEntry("answer", Type.Prim.INT);
        assertThat(finalStack(m)).containsExactly("int");
        Checked.CheckedModule d = ok("none constant<option<string>> maybe maybe");
        assertThat(d.newConstants()).containsEntry("maybe", t("option<string>"));
        fails("\"x\" constant<int> n", VerifyCode.TYPE_MISMATCH);
        fails("none constant nothing", VerifyCode.AMBIGUOUS_TYPE);
        fails("constant c", VerifyCode.STACK_UNDERFLOW);
        fails(": f 1 constant c ;", VerifyCode.CONSTANT_PLACEMENT);
        fails("true if 1 constant c then", VerifyCode.CONSTANT_PLACEMENT);
        fails(": f answer ; f 42 constant answer", VerifyCode.CONSTANT_NOT_YET_DEFINED);
        fails("['] answer", VerifyCode.UNKNOWN_WORD);
        fails("1 constant one ['] one", VerifyCode.BAD_QUOTE);
    }
}
