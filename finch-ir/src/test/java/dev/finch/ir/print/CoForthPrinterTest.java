package dev.finch.ir.print;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The canonical Co-Forth spellings (the frontend's round-trip properties check that they read back). */
class CoForthPrinterTest {
    private static final Origin O = Origin.UNKNOWN;

    private static Instr push(Literal l) { return new Instr.Push(l, O); }

    private static Instr call(String w) { return new Instr.Call(w, O); }

    @Test
    void definitionsComeFirstWithTheirSignature() {
        WordDef sq = new WordDef("sq", Optional.of(TypeSyntax.parseSignature("int -> int")), Block.of(call("dup"), call("*")), O);
        WordDef inferred = new WordDef("two", Optional.empty(), Block.of(push(new Literal.IntLit(2))), O);
        Module m = new Module("s", "lisp", List.of(sq, inferred), Block.of(push(new Literal.IntLit(9)), call("sq")));
        assertThat(CoForthPrinter.print(m)).isEqualTo(": sq ( int -- int ) dup * ;\n: two 2 ;\n9 sq\n");
    }

    @Test
    void signaturesUseTheD7Form() {
        assertThat(CoForthPrinter.signature(TypeSyntax.parseSignature("(int -> int) path -> bytes ! {fs.read(${workspace}/**)} yields<int,unit>")))
                .isEqualTo("(int -> int) path -- bytes ! {fs.read(${workspace}/**)} yields<int,unit>");
        assertThat(CoForthPrinter.signature(Type.Fn.of(List.of(), List.of()))).isEqualTo("--");
    }

    @Test
    void literals() {
        assertThat(CoForthPrinter.literal(new Literal.IntLit(Long.MIN_VALUE))).isEqualTo("-9223372036854775808");
        assertThat(CoForthPrinter.literal(new Literal.FloatLit(2))).isEqualTo("2.0");
        assertThat(CoForthPrinter.literal(new Literal.FloatLit(1e21))).isEqualTo("1.0e21");
        assertThat(CoForthPrinter.literal(new Literal.FloatLit(-0.0))).isEqualTo("-0.0");
        assertThat(CoForthPrinter.literal(new Literal.FloatLit(Double.NaN))).isEqualTo("+nan.0");
        assertThat(CoForthPrinter.literal(new Literal.FloatLit(Double.NEGATIVE_INFINITY))).isEqualTo("-inf.0");
        assertThat(CoForthPrinter.literal(new Literal.BoolLit(false))).isEqualTo("false");
        assertThat(CoForthPrinter.literal(new Literal.UnitLit())).isEqualTo("unit");
        assertThat(CoForthPrinter.literal(new Literal.SymbolLit("done"))).isEqualTo("'done");
        assertThat(CoForthPrinter.literal(new Literal.JsonLit("{\"a\":1}"))).isEqualTo("{\"a\":1}");
    }

    @Test
    void stringsAreReEscaped() {
        assertThat(CoForthPrinter.quote("a\"b\\c\nd\te\rf\0g")).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\rf\\0g\"");
        assertThat(CoForthPrinter.quote("\u0001\u007f")).isEqualTo("\"\\u0001\\u007f\"");
        assertThat(CoForthPrinter.quote("é😀")).isEqualTo("\"é😀\"");
        assertThat(CoForthPrinter.quote("\ud800x")).isEqualTo("\"\\ud800x\"");
    }

    @Test
    void controlAndData() {
        Instr ifElse = new Instr.If(Block.of(push(new Literal.IntLit(1))), Block.EMPTY, O);
        assertThat(CoForthPrinter.print(ifElse)).isEqualTo("if 1 then");
        Instr someNone = new Instr.IfSome(Block.EMPTY, Block.of(call("drop")), O);
        assertThat(CoForthPrinter.print(someNone)).isEqualTo("if-some else drop then");
        assertThat(CoForthPrinter.print(new Instr.Loop(Block.of(call("t")), Block.of(call("b")), O))).isEqualTo("begin t while b repeat");
        assertThat(CoForthPrinter.print(new Instr.Until(Block.of(call("b")), O))).isEqualTo("begin b until");
        Instr c = new Instr.Case(List.of(new Instr.Case.Arm(-1, Block.of(call("x")), O)), Optional.of(Block.EMPTY), O);
        assertThat(CoForthPrinter.print(c)).isEqualTo("case -1 of x endof otherwise endcase");
        assertThat(CoForthPrinter.print(new Instr.Case(List.of(), Optional.empty(), O))).isEqualTo("case endcase");
        assertThat(CoForthPrinter.print(new Instr.ListLit(Block.EMPTY, O))).isEqualTo("[ ]");
        assertThat(CoForthPrinter.print(new Instr.MapLit(Block.of(push(new Literal.StringLit("k")), push(new Literal.IntLit(1))), O)))
                .isEqualTo("map{ \"k\" 1 }map");
        Instr rec = new Instr.RecordLit(List.of(new Instr.RecordLit.Field("name", Block.of(push(new Literal.StringLit("Ada"))), O)), O);
        assertThat(CoForthPrinter.print(rec)).isEqualTo("{ name: \"Ada\" }");
        Instr closure = new Instr.Closure(TypeSyntax.parseSignature("int -> int"), Block.of(call("dup"), call("*")), O);
        assertThat(CoForthPrinter.print(closure)).isEqualTo("[: ( int -- int ) dup * ;]");
    }

    @Test
    void wordsLocalsConstantsAndImmediates() {
        assertThat(CoForthPrinter.print(new Instr.Quote("sq", O))).isEqualTo("['] sq");
        assertThat(CoForthPrinter.print(new Instr.LocalStore("x", O))).isEqualTo(":> x");
        assertThat(CoForthPrinter.print(new Instr.LocalLoad("x", O))).isEqualTo("x");
        assertThat(CoForthPrinter.print(new Instr.Propagate(O))).isEqualTo("?");
        assertThat(CoForthPrinter.print(new Instr.Constant("limit", Optional.empty(), O))).isEqualTo("constant limit");
        assertThat(CoForthPrinter.print(new Instr.Constant("limit", Optional.of(Type.Prim.INT), O))).isEqualTo("constant<int> limit");
        assertThat(CoForthPrinter.print(new Instr.Call("record-get", List.of(new Immediate.NameArg("first \"name\"")), O)))
                .isEqualTo("\"first \\\"name\\\"\" record-get");
        Type v = TypeSyntax.parse("variant{none|some(int)}");
        assertThat(CoForthPrinter.print(new Instr.Call("variant", List.of(new Immediate.TypeArg(v), new Immediate.NameArg("some")), O)))
                .isEqualTo("variant<variant{none|some(int)},some>");
        assertThat(CoForthPrinter.print(new Instr.Call("variant-get", List.of(new Immediate.NameArg("some")), O))).isEqualTo("variant-get<some>");
        assertThat(CoForthPrinter.print(new Instr.Call("empty-list", List.of(new Immediate.TypeArg(Type.Prim.INT)), O))).isEqualTo("empty-list<int>");
    }

    @Test
    void everyInstructionKindHasASpelling() {
        Instr[] samples = {push(new Literal.IntLit(1)), call("x"), new Instr.If(Block.EMPTY, Block.EMPTY, O), new Instr.IfSome(Block.EMPTY, Block.EMPTY, O),
                new Instr.IfOk(Block.EMPTY, Block.EMPTY, O), new Instr.Loop(Block.EMPTY, Block.EMPTY, O), new Instr.Until(Block.EMPTY, O),
                new Instr.Case(List.of(), Optional.empty(), O), new Instr.ListLit(Block.EMPTY, O), new Instr.MapLit(Block.EMPTY, O),
                new Instr.RecordLit(List.of(), O), new Instr.Quote("q", O), new Instr.Closure(Type.Fn.of(List.of(), List.of()), Block.EMPTY, O),
                new Instr.LocalStore("l", O), new Instr.LocalLoad("l", O), new Instr.Propagate(O), new Instr.Constant("c", Optional.empty(), O)};
        java.util.Set<Instr.Kind> seen = java.util.EnumSet.noneOf(Instr.Kind.class);
        for (Instr i : samples) {
            assertThat(CoForthPrinter.print(i)).isNotBlank();
            seen.add(i.kind());
        }
        assertThat(seen).containsExactlyInAnyOrder(Instr.Kind.values());
    }
    /** One instruction of each kind and its canonical spelling: adding a kind fails to compile until it has both. */
    record Sample(Instr instr, String text) { }

    static Sample sample(Instr.Kind kind) {
        Block one = Block.of(push(new Literal.IntLit(1)));
        return switch (kind) {
            case PUSH -> new Sample(push(new Literal.StringLit("s")), "\"s\"");
            case CALL -> new Sample(new Instr.Call("empty-list", List.of(new Immediate.TypeArg(Type.Prim.INT)), O), "empty-list<int>");
            case IF -> new Sample(new Instr.If(one, Block.of(call("x")), O), "if 1 else x then");
            case IF_SOME -> new Sample(new Instr.IfSome(Block.EMPTY, one, O), "if-some else 1 then");
            case IF_OK -> new Sample(new Instr.IfOk(one, Block.EMPTY, O), "if-ok 1 else then");
            case LOOP -> new Sample(new Instr.Loop(Block.of(call("t")), one, O), "begin t while 1 repeat");
            case UNTIL -> new Sample(new Instr.Until(Block.of(call("b")), O), "begin b until");
            case CASE -> new Sample(new Instr.Case(List.of(new Instr.Case.Arm(2, one, O)), Optional.of(Block.of(call("drop"))), O),
                    "case 2 of 1 endof otherwise drop endcase");
            case LIST -> new Sample(new Instr.ListLit(one, O), "[ 1 ]");
            case MAP -> new Sample(new Instr.MapLit(Block.of(push(new Literal.SymbolLit("k")), push(new Literal.IntLit(1))), O), "map{ 'k 1 }map");
            case RECORD -> new Sample(new Instr.RecordLit(List.of(new Instr.RecordLit.Field("a", one, O)), O), "{ a: 1 }");
            case QUOTE -> new Sample(new Instr.Quote("sq", O), "['] sq");
            case CLOSURE -> new Sample(new Instr.Closure(TypeSyntax.parseSignature("int -> int"), Block.of(call("dup"), call("*")), O),
                    "[: ( int -- int ) dup * ;]");
            case LOCAL_STORE -> new Sample(new Instr.LocalStore("x", O), ":> x");
            case LOCAL_LOAD -> new Sample(new Instr.LocalLoad("x", O), "x");
            case PROPAGATE -> new Sample(new Instr.Propagate(O), "?");
            case CONSTANT -> new Sample(new Instr.Constant("limit", Optional.of(Type.Prim.INT), O), "constant<int> limit");
        };
    }

    @Test
    void everyKindHasASampleWithItsCanonicalSpelling() {
        for (Instr.Kind k : Instr.Kind.values()) {
            Sample s = sample(k);
            assertThat(s.instr().kind()).as(k.name()).isEqualTo(k);
            assertThat(CoForthPrinter.print(s.instr())).as(k.name()).isEqualTo(s.text());
        }
    }

    static Literal literalSample(Literal.Kind kind) {
        return switch (kind) {
            case INT -> new Literal.IntLit(-7);
            case FLOAT -> new Literal.FloatLit(0.5);
            case STRING -> new Literal.StringLit("");
            case BOOL -> new Literal.BoolLit(true);
            case UNIT -> new Literal.UnitLit();
            case SYMBOL -> new Literal.SymbolLit("s");
            case JSON -> new Literal.JsonLit("[]");
        };
    }

    @Test
    void everyLiteralKindHasASpelling() {
        for (Literal.Kind k : Literal.Kind.values()) {
            Literal l = literalSample(k);
            assertThat(l.kind()).isEqualTo(k);
            assertThat(CoForthPrinter.literal(l)).as(k.name()).isNotBlank();
        }
    }
}
