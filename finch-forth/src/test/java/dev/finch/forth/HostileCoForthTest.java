package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, Co-Forth's parse phase: hostile text ends in its diagnostic, fast, without recursing in its nesting —
 * each case asserts the code and the phase: the limit that refused it, which bounds its cost (no wall time is asserted).
 */
class HostileCoForthTest {
    private static Environment env(CompileLimits limits) {
        return Ir.ENV.withBudget(CompileBudget.of(limits, Long.MAX_VALUE, () -> false));
    }

    private static Diagnostic refused(String text, Environment env) {
        Lowering l = new CoForth().lower(text, "hostile.fth", env);
        assertThat(l.module()).isEmpty();
        assertThat(l.diagnostics()).hasSize(1);
        return l.diagnostics().get(0);
    }

    private static Diagnostic refused(String text) { return refused(text, env(CompileLimits.DEFAULT)); }

    /** {@code open} repeated {@code n} times around a literal, then {@code close} repeated. */
    private static String nest(String open, String close, int n) { return open.repeat(n) + "1 " + close.repeat(n); }

    @ParameterizedTest(name = "{0} nested 10^6 deep")
    @ValueSource(strings = {"[ |] ", "true if |then ", "begin |true until ", "{ a: |} ", "[: ( -- ) |;] ", "list{ |}list ",
            "map{ 1 |}map ", ": w |; ", "1 case 1 of |endof endcase "})
    void aMillionDeepNestingIsANestingLimitInMilliseconds(String shape) {
        String[] parts = shape.split("\\|");
        Diagnostic d = refused(nest(parts[0], parts.length > 1 ? parts[1] : "", 1_000_000));
        assertThat(d.code()).isIn("E-LIMIT-012", "E-FORTH-106"); // a definition inside a definition is refused as such
        assertThat(d.phase().spelling()).isIn("parse", "lower");
    }

    @Test void nestingAtTheLimitIsAcceptedAndOneMoreIsRefused() {
        assertThat(new CoForth().lower(nest("[ ", "] ", 255), "ok.fth", env(CompileLimits.DEFAULT)).diagnostics()).isEmpty();
        Diagnostic d = refused(nest("[ ", "] ", 257));
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("parse");
        assertThat(d.expected()).isEqualTo("256");
    }

    @Test void aRaisedLimitStillStopsAtTheFrontendsOwnBound() {
        Diagnostic d = refused(nest("[ ", "] ", 100_000), env(CompileLimits.DEFAULT.withMaxNesting(1_000_000)));
        assertThat(d.code()).isEqualTo("E-FORTH-115");
    }

    @Test void commentsNestedOrUnclosedAreLinear() {
        String deep = "( ".repeat(400_000) + ") ".repeat(400_000) + "1";
        assertThat(new CoForth().lower(deep, "c.fth", Ir.ENV).diagnostics()).isEmpty();
        assertThat(refused("1 " + "( ".repeat(400_000)).code()).isEqualTo("E-FORTH-104");
        assertThat(refused("( a ( b ) c ".repeat(50_000)).code()).isEqualTo("E-FORTH-104");
    }

    @Test void deepWrittenTypesAreNestingLimitsNotStackOverflows() {
        String deep = "list<".repeat(100_000) + "int" + ">".repeat(100_000);
        Diagnostic sig = refused(": f ( " + deep + " -- ) drop ; 1");
        assertThat(sig.code()).isEqualTo("E-LIMIT-012");
        Diagnostic ascription = refused("\"1\" json-parse<" + deep + ">");
        assertThat(ascription.code()).isEqualTo("E-LIMIT-012");
        Diagnostic parens = refused(": f ( " + "(".repeat(100_000) + "int" + ")".repeat(100_000) + " -- ) drop ; 1");
        assertThat(parens.code()).isEqualTo("E-LIMIT-012");
        Diagnostic typed = refused("1 constant<" + deep + "> x");
        assertThat(typed.code()).isEqualTo("E-LIMIT-012");
    }

    @Test void aWrittenTypeLargerThanTheLimitIsATypeSizeLimit() {
        StringBuilder record = new StringBuilder("record{");
        for (int i = 0; i < 11_000; i++) record.append(i == 0 ? "" : ",").append("f").append(i).append(":int");
        Diagnostic d = refused(": f ( " + record + "} -- ) drop ; 1");
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("parse");
    }

    @Test void tokensAreCountedBeforeAnythingIsBuilt() {
        assertThat(new CoForth().lower("1 ".repeat(250_000), "ok.fth", Ir.ENV).diagnostics()).isEmpty();
        Diagnostic d = refused("1 ".repeat(250_001));
        assertThat(d.code()).isEqualTo("E-LIMIT-011");
        assertThat(refused("1 2 3", env(CompileLimits.DEFAULT.withMaxTokens(2))).code()).isEqualTo("E-LIMIT-011");
    }

    @Test void hugeNamesHaveTheirOwnDiagnostic() {
        String huge = "x".repeat(1_000_000);
        for (String text : new String[] {huge, ": " + huge + " 1 ;", "1 :> " + huge, "'" + huge, "{ " + huge + ": 1 }", huge + "<int>"}) {
            Diagnostic d = refused(text);
            assertThat(d.code()).as(text.substring(0, 8)).isEqualTo("E-FORTH-008");
            assertThat(d.phase().spelling()).isEqualTo("parse");
        }
        assertThat(new CoForth().lower(": " + "w".repeat(256) + " 1 ;", "ok.fth", Ir.ENV).diagnostics()).isEmpty();
    }

    @Test void jsonLiteralsHaveJsonParsesBoundsAndAreNeverInternal() {
        String deep = "{\"a\": " + "[".repeat(600_000) + "]".repeat(600_000) + "}";
        assertThat(refused(deep).code()).isEqualTo("E-FORTH-006");
        String at512 = "{\"a\": " + "[".repeat(511) + "]".repeat(511) + "}";
        assertThat(new CoForth().lower(at512, "ok.fth", Ir.ENV).diagnostics()).isEmpty();
        assertThat(refused("{\"a\": " + "[".repeat(512) + "]".repeat(512) + "}").code()).isEqualTo("E-FORTH-006");
        assertThat(refused("{\"a\": " + "1".repeat(1001) + "}").code()).isEqualTo("E-FORTH-006");
        assertThat(refused("{\"a\": \"" + "x".repeat(900_000)).code()).isEqualTo("E-FORTH-103");
    }

    @Test void aPassedDeadlineOrACancellationStopsLexing() {
        Environment late = Ir.ENV.withBudget(CompileBudget.of(CompileLimits.DEFAULT, System.nanoTime() - 1, () -> false));
        assertThat(refused("1 ".repeat(100_000), late).code()).isEqualTo("E-LIMIT-016");
        Environment cancelled = Ir.ENV.withBudget(CompileBudget.of(CompileLimits.DEFAULT, Long.MAX_VALUE, () -> true));
        assertThat(refused("1 ".repeat(100_000), cancelled).code()).isEqualTo("E-LIMIT-017");
    }

    private static final String[] PIECES = {"[ ", "] ", "{ a: ", "} ", "if ", "else ", "then ", "begin ", "while ", "repeat ", "until ",
            "case ", "1 of ", "endof ", "endcase ", "[: ( -- ) ", ";] ", ": w ", "; ", "list{ ", "}list ", "map{ ", "}map ", "( ", ") ",
            "\"s\" ", "1 ", "true ", "dup ", "drop ", ", ", "x: ", "empty-list<", "list<", "int> ", "> ", "{\"k\": ", "['] ", ":> v ", "v "};

    /** Random, mostly deeply nested Co-Forth: each run ends in a module or in diagnostics, never in an exception. */
    @Property(tries = 300)
    void randomDeepNestingNeverThrows(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int depth) {
        Random r = new Random(seed);
        StringBuilder b = new StringBuilder();
        IntFunction<String> piece = i -> PIECES[r.nextInt(PIECES.length)];
        int opener = r.nextInt(4);
        for (int i = 0; i < depth; i++) b.append(r.nextInt(8) == 0 ? piece.apply(i) : PIECES[opener * 2 + (r.nextInt(3) == 0 ? 1 : 0)]);
        for (int i = 0; i < r.nextInt(200); i++) b.append(piece.apply(i));
        String text = r.nextBoolean() ? b.toString() : b.substring(0, r.nextInt(b.length() + 1));
        Lowering l = new CoForth().lower(text, "fuzz.fth", env(CompileLimits.DEFAULT.withMaxNesting(1 + r.nextInt(600))));
        List<String> codes = new ArrayList<>();
        for (Diagnostic d : l.diagnostics()) codes.add(d.code());
        assertThat(codes).as(text.length() > 200 ? text.substring(0, 200) : text).doesNotContain(ForthCode.INTERNAL.code());
        assertThat(l.module().isPresent() || !l.diagnostics().isEmpty()).isTrue();
    }
}
