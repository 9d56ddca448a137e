package dev.finch.norman.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/norman.md} true: each of its {@code ```norman} blocks is exactly one file of
 * {@code src/test/resources/docs/}, and each of those files appears on the page. The files themselves run as unit
 * tests through {@link NormanExamplesTest}, so every example on the page is a passing test.
 */
class NormanDocsTest {
    private static final Pattern BLOCK = Pattern.compile("```norman\\n(.*?)```", Pattern.DOTALL);

    @Test void everyCodeBlockIsAnExampleFileAndEveryExampleFileIsOnThePage() throws IOException {
        Path module = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
        String page = Files.readString(module.resolveSibling("docs").resolve("norman.md").normalize(), StandardCharsets.UTF_8);
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(module.resolve("src/test/resources/docs"))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".nm")).toList()) files.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
        }
        assertThat(files).isNotEmpty();
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(page);
        while (m.find()) blocks.add(m.group(1));
        assertThat(blocks).as("```norman blocks of docs/norman.md").isNotEmpty();
        List<String> shown = new ArrayList<>();
        for (String b : blocks) {
            String name = files.entrySet().stream().filter(e -> e.getValue().equals(b)).map(Map.Entry::getKey).findFirst().orElse(null);
            assertThat(name).as("this block of docs/norman.md is not (exactly) a file of src/test/resources/docs:%n%s", b).isNotNull();
            shown.add(name);
        }
        assertThat(shown).as("example files shown on the page").containsExactlyInAnyOrderElementsOf(files.keySet());
    }
}
