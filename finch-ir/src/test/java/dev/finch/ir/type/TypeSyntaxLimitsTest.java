package dev.finch.ir.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Issue 14: a type spelling is bounded in nesting and size; past a bound it is a normal parse error, never a crash. */
class TypeSyntaxLimitsTest {
    private static String nested(String open, String leaf, String close, int depth) { return open.repeat(depth) + leaf + close.repeat(depth); }

    @Test void withoutABudgetNestingStopsAtTheHardCapWithoutOverflowingTheStack() {
        assertThat(TypeSyntax.parse(nested("list<", "int", ">", TypeSyntax.MAX_NESTING)).toString()).startsWith("list<list<");
        for (String deep : new String[] {nested("list<", "int", ">", 1_000_000), nested("(", "int", ")", 1_000_000),
                nested("record{a:", "int", "}", 200_000), "-> " + nested("(-> ", "int", ")", 200_000), nested("variant{a(", "int", ")}", 200_000)}) {
            assertThatThrownBy(() -> TypeSyntax.parse(deep))
                    .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> {
                        assertThat(e.problem()).isEqualTo(TypeSyntax.Problem.TOO_DEEP);
                        assertThat(e.measured()).isEqualTo(TypeSyntax.MAX_NESTING + 1);
                    })
                    .hasMessageContaining("deeper than " + TypeSyntax.MAX_NESTING);
            assertThat(TypeSyntax.tryParse(deep)).isEmpty();
        }
    }

    @Test void aFrontendsBoundsAreItsOwnAndNeverLooserThanTheCap() {
        assertThat(TypeSyntax.parse(nested("list<", "int", ">", 256), 256, 10_000)).isNotNull();
        assertThatThrownBy(() -> TypeSyntax.parse(nested("list<", "int", ">", 257), 256, 10_000))
                .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> assertThat(e.problem()).isEqualTo(TypeSyntax.Problem.TOO_DEEP));
        assertThatThrownBy(() -> TypeSyntax.parse(nested("list<", "int", ">", 2000), 5000, 10_000))
                .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> assertThat(e.measured()).isEqualTo(TypeSyntax.MAX_NESTING + 1));
        StringBuilder wide = new StringBuilder("record{");
        for (int i = 0; i < 20_000; i++) wide.append(i == 0 ? "" : ",").append("f").append(i).append(":int");
        String record = wide.append('}').toString();
        assertThat(TypeSyntax.parse(record)).isInstanceOf(Type.RecordT.class);
        assertThatThrownBy(() -> TypeSyntax.parseSignature(record + " -> ", 256, 10_000))
                .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> {
                    assertThat(e.problem()).isEqualTo(TypeSyntax.Problem.TOO_LARGE);
                    assertThat(e.measured()).isEqualTo(10_001);
                });
    }

    @Test void aMessageQuotesAtMostAFewCharactersOfAHugeSpelling() {
        String junk = "int " + "x".repeat(1_000_000);
        assertThatThrownBy(() -> TypeSyntax.parse("int)" + junk))
                .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> {
                    assertThat(e.problem()).isEqualTo(TypeSyntax.Problem.MALFORMED);
                    assertThat(e.getMessage().length()).isLessThan(200);
                });
    }
}
