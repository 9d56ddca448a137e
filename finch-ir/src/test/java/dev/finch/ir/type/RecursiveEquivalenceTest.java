package dev.finch.ir.type;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A recursive type equals its unfolding at any depth (issue 36: an answer read as structure equals a constructed value). */
class RecursiveEquivalenceTest {
    private static final String EXPR = "rec<Expr,variant{Lit(record{n:float})|Add(record{left:Expr,right:Expr})}>";

    @Test void aFoldedAndAnUnfoldedSpellingAreOneType() {
        Type.Named expr = (Type.Named) TypeSyntax.parse(EXPR);
        Type unfolded = expr.unfold();
        assertThat(Type.equivalent(expr, unfolded)).isTrue();
        // The payload of Add, with the fields folded on one side and unfolded one level on the other.
        Type folded = TypeSyntax.parse("record{left:" + EXPR + ",right:" + EXPR + "}");
        Type open = TypeSyntax.parse("record{left:" + unfolded + ",right:" + unfolded + "}");
        assertThat(folded).isNotEqualTo(open);
        assertThat(Type.equivalent(folded, open)).isTrue();
        assertThat(Type.equivalent(TypeSyntax.parse("list<" + EXPR + ">"), TypeSyntax.parse("list<" + unfolded + ">"))).isTrue();
    }

    @Test void differentTypesStayDifferent() {
        Type.Named expr = (Type.Named) TypeSyntax.parse(EXPR);
        Type other = TypeSyntax.parse("rec<Expr,variant{Lit(record{n:int})|Add(record{left:Expr,right:Expr})}>");
        assertThat(Type.equivalent(expr, other)).isFalse();
        assertThat(Type.equivalent(expr, Type.INT)).isFalse();
        assertThat(Type.equivalent(TypeSyntax.parse("record{a:int}"), TypeSyntax.parse("record{b:int}"))).isFalse();
    }
}
