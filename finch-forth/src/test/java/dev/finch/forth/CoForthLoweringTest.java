package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lowering rules one by one: literals, comments and signatures, locals, fusion, JSON, origins. */
class CoForthLoweringTest {
    private static final CoForth FORTH = new CoForth();

    private static Module lower(String text) {
        Lowering l = FORTH.lower(text, "unit.fth", Ir.ENV);
        assertThat(l.diagnostics()).as(text).isEmpty();
        return l.module().orElseThrow();
    }

    private static List<Instr> main(String text) { return lower(text).main().instrs(); }

    private static Literal literal(String text) { return ((Instr.Push) main(text).get(0)).literal(); }

    @Test
    void moduleCarriesLanguageAndSource() {
        Module m = lower("1");
        assertThat(FORTH.language()).isEqualTo("forth");
        assertThat(m.language()).isEqualTo("forth");
        assertThat(m.source()).isEqualTo("unit.fth");
    }

    @Test
    void numbers() {
        assertThat(literal("0x1F")).isEqualTo(new Literal.IntLit(31));
        assertThat(literal("-0x10")).isEqualTo(new Literal.IntLit(-16));
        assertThat(literal("-9223372036854775808")).isEqualTo(new Literal.IntLit(Long.MIN_VALUE));
        assertThat(literal("-2.0e3")).isEqualTo(new Literal.FloatLit(-2000));
        assertThat(literal("1E-3")).isEqualTo(new Literal.FloatLit(0.001));
        assertThat(literal("+nan.0")).isEqualTo(new Literal.FloatLit(Double.NaN));
        assertThat(main("1+ 1.")).extracting(i -> ((Instr.Call) i).word()).containsExactly("1+", "1.");
    }

    @Test
    void stringsAndForthStrings() {
        assertThat(literal("\"a\\tb\\u00e9\\ud83d\\ude00\"")).isEqualTo(new Literal.StringLit("a\tbé😀"));
        assertThat(literal("s\" hello\"")).isEqualTo(new Literal.StringLit("hello"));
        assertThat(literal("s\"tight\"")).isEqualTo(new Literal.StringLit("tight"));
        assertThat(literal("\"\"")).isEqualTo(new Literal.StringLit(""));
    }

    @Test
    void symbolsAndConstants() {
        assertThat(literal("'done")).isEqualTo(new Literal.SymbolLit("done"));
        assertThat(main("true false unit")).extracting(i -> ((Instr.Push) i).literal())
                .containsExactly(new Literal.BoolLit(true), new Literal.BoolLit(false), new Literal.UnitLit());
    }

    @Test
    void bracketsSplitWords() {
        List<Instr> m = main("[3] 9 list-get unwrap");
        assertThat(m.get(0)).isInstanceOf(Instr.ListLit.class);
        assertThat(((Instr.ListLit) m.get(0)).elements().instrs()).extracting(i -> ((Instr.Push) i).literal()).containsExactly(new Literal.IntLit(3));
        assertThat(Ir.erase(lower("[1, 2, 3]"))).isEqualTo(Ir.erase(lower("[ 1 2 3 ]"))).isEqualTo(Ir.erase(lower("list{ 1 2 3 }list")));
    }

    @Test
    void commentsAnywhereButTheSignatureSlot() {
        Module m = lower("( intro ) : sq ( int -- int ) ( not a sig ) dup \\ line\n * ; 3 ( (nested) parens ) sq");
        assertThat(m.words().get(0).declared()).contains(TypeSyntax.parseSignature("int -> int"));
        assertThat(m.words().get(0).body().instrs()).hasSize(2);
        assertThat(m.main().instrs()).hasSize(2);
        Module noSig = lower(": f \\ doc\n ( int -- int ) dup ;");
        assertThat(noSig.words().get(0).declared()).isEmpty();
        assertThat(lower(": f ( int -> int ) ;").words().get(0).declared()).contains(TypeSyntax.parseSignature("int -> int"));
    }

    @Test
    void signaturesCarryEffectsAndYields() {
        Module m = lower(": r ( path -- bytes ! {fs.read(${workspace}/**)} yields<int,unit> ) ;");
        assertThat(m.words().get(0).declared().orElseThrow().toString()).isEqualTo("path -> bytes ! {fs.read(${workspace}/**)} yields<int,unit>");
    }

    @Test
    void localsAreFlatPerWordInProgramOrder() {
        Module m = lower("x 1 :> x x : w x ; [: ( -- int ) x ;]");
        List<Instr> main = m.main().instrs();
        assertThat(main.get(0)).isInstanceOf(Instr.Call.class);
        assertThat(main.get(2)).isEqualTo(new Instr.LocalStore("x", Origin.of("unit.fth", 1, 5)));
        assertThat(main.get(3)).isInstanceOf(Instr.LocalLoad.class);
        assertThat(m.words().get(0).body().instrs().get(0)).isInstanceOf(Instr.Call.class);
        assertThat(((Instr.Closure) main.get(4)).body().instrs().get(0)).isInstanceOf(Instr.LocalLoad.class);
    }

    @Test
    void fieldNamesFuseIntoTheImmediate() {
        Instr get = main("r s\" city\" record-get").get(1);
        assertThat(get).isEqualTo(new Instr.Call("record-get", List.of(new Immediate.NameArg("city")), Origin.of("unit.fth", 1, 3)));
        assertThat(FORTH.lower("[ \"a\", record-get ]", "s", Ir.ENV).diagnostics()).extracting(d -> d.code()).containsExactly("E-FORTH-105");
    }

    @Test
    void parameterizedWords() {
        Instr.Call v = (Instr.Call) main("7 variant<variant{none|some(int)}, some>").get(1);
        assertThat(v.immediates()).containsExactly(new Immediate.TypeArg(TypeSyntax.parse("variant{none|some(int)}")), new Immediate.NameArg("some"));
        Instr.Call e = (Instr.Call) main("empty-list<(int -> int)>").get(0);
        assertThat(e.immediates()).containsExactly(new Immediate.TypeArg(TypeSyntax.parse("(int -> int)")));
        Instr.Constant c = (Instr.Constant) main("1 constant<int> one").get(1);
        assertThat(c.name()).isEqualTo("one");
        assertThat(c.declared()).contains(TypeSyntax.parse("int"));
    }

    @Test
    void jsonIsValidatedAndCanonical() {
        assertThat(literal("{ \"a\" : [ 1 , 2.5e1 ] ,\n \"b\\/c\": \"\\u00e9\\ud83d\\ude00\\u0001\", \"n\":null}"))
                .isEqualTo(new Literal.JsonLit("{\"a\":[1,2.5e1],\"b/c\":\"é😀\\u0001\",\"n\":null}"));
        assertThat(literal("{\"}\": \"{\"}")).isEqualTo(new Literal.JsonLit("{\"}\":\"{\"}"));
        for (String bad : List.of("{\"a\":tru}", "{\"a\":1 \"b\":2}", "{\"a\":'x'}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":\"\\x\"}", "{\"a\":[1,]}")) {
            assertThat(FORTH.lower(bad, "s", Ir.ENV).diagnostics()).as(bad).extracting(d -> d.code()).containsExactly("E-FORTH-006");
        }
    }

    @Test
    void recordsKeepSourceOrderAndAcceptCommas() {
        Instr.RecordLit r = (Instr.RecordLit) main("{ name: \"Ada\", age: 36 }").get(0);
        assertThat(r.fields()).extracting(Instr.RecordLit.Field::name).containsExactly("name", "age");
        assertThat(((Instr.RecordLit) main("{}").get(0)).fields()).isEmpty();
    }

    @Test
    void originsAreFirstTokensInCodePoints() {
        List<Instr> m = main("\"😀\" say\n  if 1 then");
        assertThat(m.get(1).origin()).isEqualTo(Origin.of("unit.fth", 1, 5));
        assertThat(m.get(2).origin()).isEqualTo(Origin.of("unit.fth", 2, 3));
        Instr.Case c = (Instr.Case) main("1 case\n 2 of endof endcase").get(1);
        assertThat(c.origin()).isEqualTo(Origin.of("unit.fth", 1, 3));
        assertThat(c.arms().get(0).origin()).isEqualTo(Origin.of("unit.fth", 2, 2));
    }

    @Test
    void caseArmsAndOtherwise() {
        Instr.Case with = (Instr.Case) main("case 1 of endof otherwise endcase").get(0);
        assertThat(with.otherwise()).isPresent();
        Instr.Case without = (Instr.Case) main("case -0x2 of 1 endof endcase").get(0);
        assertThat(without.otherwise()).isEmpty();
        assertThat(without.arms().get(0).value()).isEqualTo(-2);
    }
}
