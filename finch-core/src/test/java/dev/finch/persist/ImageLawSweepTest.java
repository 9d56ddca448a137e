package dev.finch.persist;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.finch.Finch;
import dev.finch.Language;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The image law over every kind of value in every place a paused run keeps it ({@link PausingPrograms#allParts}), one
 * program each, in both languages and both tiers: the exhaustive half of {@link ImageLawProperties}.
 */
class ImageLawSweepTest {
    @TestFactory
    Stream<DynamicTest> everyKindInEveryPlace() {
        return PausingPrograms.allParts().stream().flatMap(part -> Stream.of(Language.FORTH, Language.LISP).flatMap(language ->
                Stream.of(Finch.Tier.INTERPRETED, Finch.Tier.COMPILED).map(tier -> dynamicTest(language.spelling() + " " + tier + " " + part,
                        () -> ImageLawProperties.check(PausingPrograms.write(language, List.of(part), part.hashCode()), tier)))));
    }
}
