package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Field selection when several records have the field (issue 36): the record is whatever the program's use says,
 * the basis's selections see only the basis's records, and a selection nothing ever decides is refused with a
 * diagnostic that says how to let it be decided.
 */
class FieldSelectionTest {
    @Test void aProgramRecordWithTheBasissFieldNameLoads() {
        NormanProgram p = Support.check("(record Ticket (role Text) (body Text))\n(val t (Ticket [role \"a\"] [body \"b\"]))\n(check-expect (. t role) \"a\")\n");
        assertThat(p.diagnostics()).isEmpty();
    }

    @Test void aParameterSelectedFromIsTheRecordItsUseSays() {
        NormanProgram p = Support.check("""
                (record A (name Text) (x Num))
                (record B (name Text) (y Num))
                (define name-of (a) (. a name))
                (check-expect (name-of (A [name "p"] [x 1])) "p")
                """);
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types().get("name-of")).isEqualTo("(A -> Text)");
    }

    @Test void aSelectionNothingDecidesSaysHowToDecideIt() {
        NormanProgram p = Support.check("""
                (record A (name Text) (x Num))
                (record B (name Text) (y Num))
                (define name-of (a) (. a name))
                """);
        assertThat(p.diagnostics()).hasSize(1);
        Diagnostic d = p.diagnostics().get(0);
        assertThat(d.code()).isEqualTo("E-NORMAN-104");
        assertThat(d.origin().line()).isEqualTo(3);
        assertThat(d.message()).isEqualTo("records A and B both have a field `name`, and nothing in the program says which one this selects from: "
                + "use it on a value built with one of them somewhere, e.g. (A [name …] …), so its type is known, or give the fields different names");
        assertThat(d.found()).isEqualTo("A or B");
    }

    @Test void usingItOnTwoRecordsIsATypeMismatch() {
        NormanProgram p = Support.check("""
                (record A (name Text) (x Num))
                (record B (name Text) (y Num))
                (define name-of (a) (. a name))
                (check-expect (name-of (A [name "p"] [x 1])) "p")
                (check-expect (name-of (B [name "q"] [y 1])) "q")
                """);
        assertThat(p.diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-101");
    }
}
