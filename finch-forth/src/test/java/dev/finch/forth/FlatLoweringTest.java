package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * A flat program (no construct: {@link CoForthLowerer#flat}) is lowered straight from its tokens, without the
 * structure check and the parser; these check that it lowers exactly as the parse tree does — the same module, origins
 * included, or the same diagnostics — over generated texts that are mostly flat and sometimes not.
 */
class FlatLoweringTest {
    private static Lowering both(String text, CompileLimits limits) {
        Lowering direct = new CoForth().lower(text, "flat.fth", env(limits), true);
        Lowering parsed = new CoForth().lower(text, "flat.fth", env(limits), false);
        assertThat(direct).as(text).isEqualTo(parsed);
        return direct;
    }

    /** The vocabulary of the tests, each run under a fresh budget (a budget counts the tokens and work it meters). */
    private static Environment env(CompileLimits limits) {
        return Ir.ENV.withBudget(CompileBudget.of(limits, Long.MAX_VALUE, () -> false));
    }

    private static boolean flat(String text) { return CoForthLowerer.flat(CoForth.tokens(text)); }

    @Test
    void oneLinersWithoutConstructsAreFlat() {
        assertThat(flat("1000001 :> x x 2 * 1 +")).isTrue();
        assertThat(flat("\"city\" record-get 'done ( a comment ) 2.5 s\" hi\" ? ['] dup constant k constant<int> j type<int> t"))
                .isTrue();
        assertThat(flat("{\"a\": 1} variant<int,a> \\ a line comment\n true false unit")).isTrue();
        assertThat(flat("")).isTrue();
    }

    @Test
    void constructsClosersAndUnnamedNamingTokensAreNot() {
        for (String text : List.of("1 if 2 then", ": sq dup * ;", "[ 1 2 ]", "then", ";", "1 , 2", "x: 1", ":>", ":> if",
                "[']", "constant 1", "( never closed", "\"unterminated", "{ a: 1 }", "begin 1 until", "[: ( -- ) ;]")) {
            assertThat(flat(text)).as(text).isFalse();
        }
    }

    @Test
    void theSameLoweringForTheIssueProgramsAndTheirMistakes() {
        for (String text : List.of("1000001 :> x x 2 * 1 +", "99999999999999999999 1 +", "1e999", "\"a\\q\" 1", "city record-get",
                "\"city\" record-get", "variant<int> 1", "nosuch<int>", "empty-list<int,int>", "constant<bad type> k",
                "type<record{a:int}> point", "type<nope> t", "list<int>x", "dup<", "1 :> x :> y x y", "'a 'b ?")) {
            both(text, CompileLimits.DEFAULT);
        }
    }

    @Test
    void theFlatPathStillMetersTheBudget() {
        Lowering l = both("1 2 3 4 5", CompileLimits.DEFAULT.withMaxTokens(3));
        assertThat(l.diagnostics()).extracting(d -> d.code()).containsExactly("E-LIMIT-011");
    }

    @Provide
    Arbitrary<String> mostlyFlat() {
        Arbitrary<String> flat = Arbitraries.of("1", "-7", "0x1F", "99999999999999999999", "2.5", "1e999", "+nan.0", "\"s\"", "\"a\\q\"",
                "s\" hi\"", "true", "false", "unit", "'sym", "{\"k\": [1, 2]}", "{\"k\": }", "?", "dup", "x", "y", "+", "record-get",
                "\"name\"", "variant<int,a>", "variant<int>", "empty-list<int>", "nosuch<int>", "dup<", ":> x", ":> y", "['] dup",
                "constant k", "constant<int> k", "constant<oops> k", "type<record{a:int}> t", "type<int> t", "type<int> if",
                "( comment )", "\\ line\n", "\n");
        Arbitrary<String> any = Arbitraries.of("if", "then", "else", ":", ";", "[", "]", "{", "}", ",", "begin", "until", "[:", ";]",
                "(", "\"", "case", "of", "x:", ":>", "[']", "constant", "constant<int>",
                "type<int>");
        Arbitrary<String> token = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, flat), net.jqwik.api.Tuple.of(1, any));
        return token.list().ofMaxSize(14).map(ts -> String.join(ts.size() % 5 == 0 ? "" : " ", ts));
    }

    @Property(tries = 2000)
    void flatAndParsedLoweringsAgree(@ForAll("mostlyFlat") String text) {
        Statistics.label("flat").collect(flat(text))
                .coverage(c -> c.check(true).percentage(p -> p > 30.0)); // the direct path is what is under test
        both(text, CompileLimits.DEFAULT);
    }
}
