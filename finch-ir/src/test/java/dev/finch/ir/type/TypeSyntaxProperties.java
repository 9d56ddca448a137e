package dev.finch.ir.type;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link TypeSyntax#parse} and {@link Type#toString()} are inverse on the canonical spelling. */
class TypeSyntaxProperties {

    @Provide Arbitrary<Type> types() { return TypeArbitraries.types(); }

    @Provide Arbitrary<Type.Fn> signatures() { return TypeArbitraries.fns(2); }

    @Property(tries = 1000)
    void parseOfPrintIsIdentity(@ForAll("types") Type t) {
        assertThat(TypeSyntax.parse(t.toString())).isEqualTo(t);
    }

    @Property(tries = 1000)
    void printOfParseIsIdentityOnTheCanonicalSpelling(@ForAll("types") Type t) {
        String canonical = t.toString();
        assertThat(TypeSyntax.parse(canonical).toString()).isEqualTo(canonical);
    }

    @Property(tries = 500)
    void extraWhitespaceDoesNotChangeTheType(@ForAll("types") Type t) {
        String spaced = t.toString().replace(",", " , ").replace("<", "< ").replace(">", " >").replace("- >", "->").replace(":", " : ");
        assertThat(TypeSyntax.parse("  " + spaced + "  ")).isEqualTo(t);
    }

    @Property(tries = 500)
    void signaturesRoundTrip(@ForAll("signatures") Type.Fn f) {
        assertThat(TypeSyntax.parseSignature(f.toString())).isEqualTo(f);
        assertThat(TypeSyntax.tryParse(f.toString())).contains(f);
    }
}
