package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.persist.PausingPrograms.Holder;
import dev.finch.persist.PausingPrograms.Kind;
import dev.finch.persist.PausingPrograms.Part;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The image law ({@link ImageLaw}) as a property over random well-typed programs that pause while they hold values
 * ({@link PausingPrograms}): in Co-Forth and Lisp, in both tiers, continuing through save → restore at each pause is
 * continuing in place.
 */
class ImageLawProperties {
    static java.util.function.Function<java.nio.file.Path, Finch> finch(Finch.Tier tier) {
        // The compiled tier's worlds verify a restored image's whole history at restore; the others rebuild it as it is used.
        return ws -> (tier == Finch.Tier.COMPILED ? Finch.builder().verifyRestoredHistory() : Finch.builder()).tier(tier).imageKey(Images.KEY).timeout(dev.finch.HangGuard.LIMIT).build();
    }

    @Property(tries = 150)
    void continuingThroughAnImageIsContinuingInPlace(@ForAll("parts") List<Part> parts, @ForAll("languages") Language language,
                                                     @ForAll("tiers") Finch.Tier tier, @ForAll long seed) {
        check(PausingPrograms.write(language, parts, seed), tier);
    }

    static void check(PausingPrograms.Program p, Finch.Tier tier) {
        ImageLaw.Scenario s = new ImageLaw.Scenario(p.toString(), finch(tier), ImageLaw.texts(Map.of(PausingPrograms.DATA, PausingPrograms.DATA_TEXT)),
                List.of(PausingPrograms.GRANT), p.turns(), p.laterTurns());
        ImageLaw.Verdict v = ImageLaw.check(s);
        assertThat(v.holds()).as("%s", v).isTrue();
        // Not vacuous: the program ran and paused.
        assertThat(v.pauses()).as("pauses of %s", p).isGreaterThanOrEqualTo(1);
    }

    @Provide
    Arbitrary<List<Part>> parts() {
        Arbitrary<Part> part = Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.of(Holder.class), Arbitraries.of(true, false)).as(Part::new);
        return part.list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<Language> languages() { return Arbitraries.of(Language.FORTH, Language.LISP); }

    @Provide
    Arbitrary<Finch.Tier> tiers() { return Arbitraries.of(Finch.Tier.INTERPRETED, Finch.Tier.COMPILED, Finch.Tier.AUTO); }
}
