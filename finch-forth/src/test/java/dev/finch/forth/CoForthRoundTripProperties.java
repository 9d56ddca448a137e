package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Module;
import dev.finch.ir.print.CoForthPrinter;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The printer and the frontend are inverse: parse(print(m)) == m (origins aside), and printing is idempotent. */
class CoForthRoundTripProperties {

    @Provide
    Arbitrary<Module> modules() { return Arbitraries.randomValue(r -> new IrGen(r).module()); }

    @Property(tries = 400)
    void parseOfPrintIsIdentity(@ForAll("modules") Module m) {
        String text = CoForthPrinter.print(m);
        Lowering l = new CoForth().lower(text, "rt", Ir.ENV);
        assertThat(l.diagnostics()).as(text).isEmpty();
        assertThat(Ir.erase(l.module().orElseThrow())).as(text).isEqualTo(Ir.erase(m));
    }

    @Property(tries = 200)
    void printIsIdempotent(@ForAll("modules") Module m) {
        String once = CoForthPrinter.print(m);
        Module back = new CoForth().lower(once, "rt", Ir.ENV).module().orElseThrow();
        assertThat(CoForthPrinter.print(back)).isEqualTo(once);
    }

    @Provide
    Arbitrary<String> noise() {
        Arbitrary<String> token = Arbitraries.of(":", ";", "if", "else", "then", "begin", "while", "repeat", "until", "case", "of",
                "endof", "otherwise", "endcase", "[", "]", "[:", ";]", "{", "}", "map{", "}map", "list{", "}list", ",", "(", ")", "( x )",
                "\"", "\"s\"", "s\"", "\\", "\n", "x:", ":>", "[']", "constant", "record-get", "variant<int,a>", "empty-list<", ">",
                "{\"a\":", "1", "-0x", "1e999", "+nan.0", "'", "?", "dup", "\\u12", "\"\\q\"", "( int -- int )", "constant<int>");
        return token.list().ofMaxSize(30).map(ts -> String.join(r(ts.size()), ts));
    }

    private static String r(int n) { return n % 3 == 0 ? "" : " "; }

    @Property(tries = 1000)
    void arbitraryTokenSoupNeverThrowsOrFailsInternally(@ForAll("noise") String text) {
        Lowering l = new CoForth().lower(text, "soup", Ir.ENV);
        assertThat(l.ok() || !l.diagnostics().isEmpty()).isTrue();
        for (Diagnostic d : l.diagnostics()) {
            assertThat(d.code()).as(text + " -> " + d).isNotEqualTo(ForthCode.INTERNAL.code());
            assertThat(d.origin().line()).isPositive();
            assertThat(d.origin().column()).isPositive();
        }
        new ForthBuffer().feed(text).isComplete();
    }

    @Property(tries = 300)
    void arbitraryTextNeverThrows(@ForAll String text) {
        Lowering l = new CoForth().lower(text, "any", Ir.ENV);
        assertThat(l.diagnostics()).extracting(Diagnostic::code).doesNotContain(ForthCode.INTERNAL.code());
    }

}
