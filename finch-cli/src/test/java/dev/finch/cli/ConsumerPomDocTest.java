package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The consumer {@code pom.xml} docs/embedding.md shows is exactly {@code examples/consumer/pom.xml}, the one the build
 * runs (so the page cannot show a pom that does not work), and the README states its prerequisites before its commands.
 */
class ConsumerPomDocTest {
    private static final Path ROOT = Path.of("..");

    @Test void embeddingShowsTheConsumerPomTheBuildRuns() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/embedding.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<!-- consumer-pom: (\\S+) -->\\n```xml\\n(.*?)\\n```", Pattern.DOTALL).matcher(doc);
        assertThat(m.find()).as("docs/embedding.md has a <!-- consumer-pom: PATH --> block").isTrue();
        String pom = Files.readString(ROOT.resolve(m.group(1)), StandardCharsets.UTF_8).stripTrailing();
        assertThat(m.group(2)).isEqualTo(pom);
        assertThat(pom).contains("<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.");
        String reactor = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        assertThat(reactor).contains("<module>examples/consumer</module>");
    }

    @Test void theReadmeStatesItsPrerequisitesBeforeItsTwoCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        int prerequisites = readme.indexOf("JDK 17");
        int firstCommand = readme.indexOf("```sh");
        assertThat(prerequisites).isPositive().isLessThan(firstCommand);
        assertThat(readme.substring(0, firstCommand)).contains("Maven 3.8");
    }
}
