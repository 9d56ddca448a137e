package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every syntax error maps to its code, phase and the line/column of the token at fault. */
class CoForthDiagnosticsTest {

    @ParameterizedTest(name = "{0} -> {1} at {2}:{3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            1 then                          | E-FORTH-101 | 1 | 3
            1 2 ;                           | E-FORTH-101 | 1 | 5
            `1 2 3\n  4 then`               | E-FORTH-101 | 2 | 5
            : f 1 if 2 ;                    | E-FORTH-101 | 1 | 12
            1 if 2 else 3 else 4 then       | E-FORTH-101 | 1 | 15
            begin 1 repeat                  | E-FORTH-101 | 1 | 9
            begin 1 while 2 until           | E-FORTH-101 | 1 | 17
            begin 1 while 2 while 3 repeat  | E-FORTH-101 | 1 | 17
            endof                           | E-FORTH-101 | 1 | 1
            1 otherwise                     | E-FORTH-101 | 1 | 3
            1 2 ]                           | E-FORTH-101 | 1 | 5
            list{ 1 ]                       | E-FORTH-101 | 1 | 9
            map{ 1 2 }list                  | E-FORTH-101 | 1 | 10
            [: ( int -- int ) ;] ;]         | E-FORTH-101 | 1 | 22
            case 1 of 2 endcase             | E-FORTH-101 | 1 | 13
            `x "abc`                        | E-FORTH-102 | 1 | 3
            `s"abc`                         | E-FORTH-102 | 1 | 1
            : f 1 2 +                       | E-FORTH-103 | 1 | 1
            `1\n[ 1 2`                      | E-FORTH-103 | 2 | 1
            `{"a": 1`                       | E-FORTH-103 | 1 | 1
            1 ( unclosed comment            | E-FORTH-104 | 1 | 3
            `"x" 1 record-get`              | E-FORTH-105 | 1 | 7
            record-set                      | E-FORTH-105 | 1 | 1
            : f : g ; ;                     | E-FORTH-106 | 1 | 5
            1 if : g ; then                 | E-FORTH-106 | 1 | 6
            :>                              | E-FORTH-107 | 1 | 1
            1 constant                      | E-FORTH-107 | 1 | 3
            ['] if                          | E-FORTH-107 | 1 | 1
            : 42 ;                          | E-FORTH-107 | 1 | 1
            [: dup ;]                       | E-FORTH-108 | 1 | 1
            { 1 }                           | E-FORTH-109 | 1 | 3
            x: 1                            | E-FORTH-109 | 1 | 1
            1 , 2                           | E-FORTH-110 | 1 | 3
            foo<int> 1                      | E-FORTH-111 | 1 | 1
            3 case 1 2 of endof endcase     | E-FORTH-112 | 1 | 8
            3 case foo endcase              | E-FORTH-112 | 1 | 8
            : f ; : f ;                     | E-FORTH-113 | 1 | 9
            { a: 1 a: 2 }                   | E-FORTH-114 | 1 | 8
            : f ( int int ) ;               | E-FORTH-003 | 1 | 5
            : f ( int -- intt< ) ;          | E-FORTH-003 | 1 | 18
            `[: ( int -- list< ) ;]`        | E-FORTH-003 | 1 | 19
            `"bad \\q escape"`              | E-FORTH-004 | 1 | 6
            `"\\u12"`                       | E-FORTH-004 | 1 | 2
            99999999999999999999            | E-FORTH-005 | 1 | 1
            1e999                           | E-FORTH-005 | 1 | 1
            `{"a": 1,}`                     | E-FORTH-006 | 1 | 9
            `{"a": 1, "a": 2}`              | E-FORTH-006 | 1 | 10
            `{"a": 01}`                     | E-FORTH-006 | 1 | 8
            variant<int>                    | E-FORTH-007 | 1 | 1
            variant-get<1x>                 | E-FORTH-007 | 1 | 13
            empty-list<list<>               | E-FORTH-007 | 1 | 1
            empty-list<lis t>               | E-FORTH-007 | 1 | 17
            """)
    void reportsCodeAndPlace(String source, String code, int line, int column) {
        Lowering l = new CoForth().lower(source.replace("\\n", "\n").replace("\\\\", "\\"), "t.fth", Ir.ENV);
        assertThat(l.ok()).isFalse();
        assertThat(l.module()).isEmpty();
        Diagnostic d = l.diagnostics().get(0);
        assertThat(d.code()).as(d.toString()).isEqualTo(code);
        assertThat(d.phase()).isEqualTo(code.startsWith("E-FORTH-0") ? Phase.PARSE : Phase.LOWER);
        assertThat(d.origin().source()).isEqualTo("t.fth");
        assertThat(d.origin().line()).as(d.toString()).isEqualTo(line);
        assertThat(d.origin().column()).as(d.toString()).isEqualTo(column);
        assertThat(d.message()).isNotBlank();
    }

    @Test
    void misplacedWordNamesWhatIsOpen() {
        Diagnostic d = new CoForth().lower(": f 1 if 2 ;", "s", Ir.ENV).diagnostics().get(0);
        assertThat(d.message()).contains("'if'").contains("1:7").contains("then");
        assertThat(d.expected()).isEqualTo("then");
        assertThat(d.found()).isEqualTo(";");
    }

    @Test
    void unclosedDefinitionNamesTheWord() {
        Diagnostic d = new CoForth().lower("\n: square ( int -- int ) dup *", "s", Ir.ENV).diagnostics().get(0);
        assertThat(d.code()).isEqualTo("E-FORTH-103");
        assertThat(d.message()).contains(": square").contains(";");
        assertThat(d.origin().line()).isEqualTo(2);
    }

    @Test
    void severalLowerProblemsAreAllReported() {
        Lowering l = new CoForth().lower("\"a\\q\" 99999999999999999999 record-get", "s", Ir.ENV);
        assertThat(l.diagnostics()).extracting(Diagnostic::code).containsExactly("E-FORTH-004", "E-FORTH-005", "E-FORTH-105");
    }

    @Test
    void nestingDeeperThanTheLimitIsADiagnosticNotAStackOverflow() {
        String deep = "[ ".repeat(100_000) + "]".repeat(100_000);
        Lowering l = new CoForth().lower(deep, "s", Ir.ENV);
        assertThat(l.diagnostics()).extracting(Diagnostic::code).containsExactly("E-LIMIT-012");
        String deepJson = "{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        assertThat(new CoForth().lower(deepJson, "s", Ir.ENV).diagnostics()).extracting(Diagnostic::code).containsExactly("E-FORTH-006");
    }

    @Test
    void nullTextAndSourceDoNotThrow() {
        assertThat(new CoForth().lower(null, null, null).ok()).isTrue();
    }

    @Test
    void codesAreUniqueAndWellFormed() {
        Set<String> codes = Arrays.stream(ForthCode.values()).map(ForthCode::code).collect(Collectors.toSet());
        assertThat(codes).hasSize(ForthCode.values().length);
        for (ForthCode c : ForthCode.values()) {
            assertThat(c.code()).matches("E-FORTH-[01]\\d{2}");
            assertThat(c.phase()).isEqualTo(c.code().startsWith("E-FORTH-0") ? Phase.PARSE : Phase.LOWER);
            assertThat(c.meaning()).isNotBlank();
        }
    }
}
