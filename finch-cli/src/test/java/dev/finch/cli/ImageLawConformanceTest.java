package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Submission;
import dev.finch.persist.ImageLaw;
import dev.finch.persist.Images;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The image law ({@link ImageLaw}) over the conformance cases, in both tiers: each Lisp and Co-Forth submission with
 * a pause before it and after it (a read nobody granted), each µNorman file as it is, every submission of a case to
 * one session.
 */
class ImageLawConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyConformanceCaseInBothTiers() throws IOException, URISyntaxException {
        Path dir = Path.of(ImageLawConformanceTest.class.getResource("/conformance").toURI());
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path expect : files.filter(p -> p.getFileName().toString().endsWith(".expect.json")).sorted().toList()) {
                String base = expect.getFileName().toString().replace(".expect.json", "");
                for (Finch.Tier tier : List.of(Finch.Tier.INTERPRETED, Finch.Tier.COMPILED)) {
                    tests.add(DynamicTest.dynamicTest(tier + " " + base, () -> {
                        ImageLaw.Verdict v = ImageLaw.check(scenario(dir, base, JSON.readTree(expect.toFile()), tier));
                        assertThat(v.holds()).as("%s", v).isTrue();
                    }));
                }
            }
        }
        assertThat(tests).as("conformance cases found").hasSizeGreaterThanOrEqualTo(40);
        return tests.stream();
    }

    private static ImageLaw.Scenario scenario(Path dir, String base, JsonNode expect, Finch.Tier tier) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        expect.path("workspace").fields().forEachRemaining(f -> files.put(f.getKey(), f.getValue().asText()));
        List<String> grants = new ArrayList<>();
        JsonNode args = expect.path("args");
        for (int i = 0; i + 1 < args.size(); i++) if (args.get(i).asText().equals("--grant")) grants.add(args.get(i + 1).asText());
        List<Submission> turns = new ArrayList<>();
        for (String source : ConformanceTest.sources(dir, base)) {
            String text = Files.readString(Path.of(source));
            Language language = source.endsWith(".lisp") ? Language.LISP : source.endsWith(".nm") ? Language.NORMAN : Language.FORTH;
            String pause = switch (language) {
                case LISP -> "(when true (file-read (path \"pause.txt\")))";
                case FORTH -> "\"pause.txt\" path file-read drop";
                case NORMAN -> "";
            };
            String program = pause.isEmpty() ? text : pause + "\n" + text + "\n" + pause;
            turns.add(Submission.of(program, Path.of(source).getFileName().toString()).withLanguage(language));
        }
        return new ImageLaw.Scenario(base, ws -> Finch.builder().tier(tier).imageKey(Images.KEY).build(), ImageLaw.texts(files), grants, turns, List.of());
    }
}
