package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.finalStack;
import static dev.finch.verifier.Check.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import org.junit.jupiter.api.Test;

class LiteralsTest {
    @Test void listLiterals() {
        Checked.CheckedModule m = ok("\"keep\" [ 1 2 3 + ]");
        assertThat(finalStack(m)).containsExactly("string", "list<int>");
        Checked.ListNode n = (Checked.ListNode) m.main().body().nodes().get(1);
        assertThat(n.count()).isEqualTo(2);
        assertThat(n.element()).isEqualTo(Type.Prim.INT);
        assertThat(n.elements().in()).containsExactly(Type.Prim.STRING);
        assertThat(n.elements().out()).containsExactly(Type.Prim.STRING, Type.Prim.INT, Type.Prim.INT);
        assertThat(finalStack(ok("[ none 1 some ]"))).containsExactly("list<option<int>>");
        assertThat(finalStack(ok("[ [ 1 ] [ 2 3 ] ]"))).containsExactly("list<list<int>>");
        Diagnostic d = fails("[ ]", VerifyCode.EMPTY_LIST_LITERAL);
        assertThat(d.message()).contains("empty-list<T>");
        fails("[ 1 \"a\" ]", VerifyCode.TYPE_MISMATCH);
        fails("1 [ 2 + ]", VerifyCode.LITERAL_UNDERFLOW);
        fails("1 [ drop 2 ]", VerifyCode.LITERAL_UNDERFLOW);
    }

    @Test void mapLiterals() {
        Checked.CheckedModule m = ok("map{ \"a\" 1 \"b\" 2 }map");
        assertThat(finalStack(m)).containsExactly("map<string,int>");
        assertThat(((Checked.MapNode) m.main().body().nodes().get(0)).count()).isEqualTo(2);
        fails("map{ \"a\" 1 \"b\" }map", VerifyCode.ODD_MAP_LITERAL);
        fails("map{ \"a\" 1 2 3 }map", VerifyCode.TYPE_MISMATCH);
        fails("map{ \"a\" 1 \"b\" \"c\" }map", VerifyCode.TYPE_MISMATCH);
        fails("1 map{ 2 }map", VerifyCode.ODD_MAP_LITERAL);
        fails("1 map{ drop }map", VerifyCode.LITERAL_UNDERFLOW);
        assertThat(finalStack(ok("map{ }map \"k\" 1 map-set"))).containsExactly("map<string,int>");
        fails("map{ }map", VerifyCode.AMBIGUOUS_TYPE);
    }

    @Test void recordLiterals() {
        Checked.CheckedModule m = ok("{ name: \"Ada\" age: 30 6 + }");
        assertThat(finalStack(m)).containsExactly("record{age:int,name:string}");
        Checked.RecordNode n = (Checked.RecordNode) m.main().body().nodes().get(0);
        assertThat(n.values()).hasSize(2);
        assertThat(n.values().get(1).in()).containsExactly(Type.Prim.STRING);
        fails("{ name: \"Ada\" name: \"Bob\" }", VerifyCode.DUPLICATE_FIELD);
        fails("{ name: \"Ada\" \"x\" }", VerifyCode.RECORD_FIELD_ARITY);
        fails("{ name: }", VerifyCode.RECORD_FIELD_ARITY);
        fails("1 { n: drop 2 }", VerifyCode.LITERAL_UNDERFLOW);
        fails("{ a: 1 b: drop 2 }", VerifyCode.LITERAL_UNDERFLOW);
    }
}
