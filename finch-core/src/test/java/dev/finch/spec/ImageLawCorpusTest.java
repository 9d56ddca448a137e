package dev.finch.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Submission;
import dev.finch.persist.ImageLaw;
import dev.finch.persist.Images;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The image law ({@link ImageLaw}) over the spec corpus in both tiers: every case with a pause put before it and
 * another after it (a read the session has no grant for, or a yield where the case grants reads), so that what each
 * program leaves behind — its stack, constants, definitions, locals, closures, handles — crosses an image, then is read
 * back by later turns.
 */
class ImageLawCorpusTest {
    static java.util.function.Function<java.nio.file.Path, Finch> finch(Finch.Tier tier) {
        // The compiled tier's worlds verify a restored image's whole history at restore; the others rebuild it as it is used.
        return ws -> SpecCorpusTest.schedules(tier == Finch.Tier.COMPILED ? Finch.builder().verifyRestoredHistory() : Finch.builder()).tier(tier).imageKey(Images.KEY).timeout(dev.finch.HangGuard.LIMIT).agents(SpecCorpusTest.AGENTS).build();
    }

    @TestFactory
    Stream<DynamicTest> everyCaseInBothTiers() {
        return SpecCase.all().stream().flatMap(c -> Stream.of(Finch.Tier.INTERPRETED, Finch.Tier.COMPILED, Finch.Tier.COMPILED_APART)
                .map(tier -> dynamicTest(tier + " " + c.name(), () -> {
                    ImageLaw.Verdict v = ImageLaw.check(scenario(c, tier));
                    assertThat(v.holds()).as("%s", v).isTrue();
                    // Not vacuous: a case that runs to its end pauses before it and after it.
                    if (c.error().isEmpty()) assertThat(v.pauses()).as("pauses of %s", c.name()).isGreaterThanOrEqualTo(2);
                })));
    }

    /** The case with a pause before and after it: a read nobody granted, or (where the case grants reads) a yield. */
    static ImageLaw.Scenario scenario(SpecCase c, Finch.Tier tier) {
        boolean lisp = c.language().equals("lisp");
        boolean reads = c.grants().stream().anyMatch(g -> g.startsWith("fs.read") || g.startsWith("file.read"));
        String pause = lisp ? (reads ? "(yield)" : "(when true (file-read (path \"pause.txt\")))")
                : (reads ? "unit yield" : "\"pause.txt\" path file-read drop");
        Language language = lisp ? Language.LISP : Language.FORTH;
        List<Submission> turns = new ArrayList<>();
        turns.add(Submission.of(pause + "\n" + c.source() + "\n" + pause, "case").withLanguage(language));
        return new ImageLaw.Scenario(c.name(), finch(tier), c.files(), c.grants(), turns, List.of());
    }
}
