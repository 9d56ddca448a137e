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
 * Every consumer {@code pom.xml} docs/embedding.md shows is exactly the one under {@code examples/} the build
 * runs (so the page cannot show a pom that does not work), and the README states its prerequisites before its commands.
 */
class ConsumerPomDocTest {
    private static final Path ROOT = Path.of("..");

    @Test void embeddingShowsTheConsumerPomTheBuildRuns() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/embedding.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<!-- consumer-pom: (\\S+) -->\\n```xml\\n(.*?)\\n```", Pattern.DOTALL).matcher(doc);
        String reactor = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        java.util.List<String> shown = new java.util.ArrayList<>();
        while (m.find()) {
            String pom = Files.readString(ROOT.resolve(m.group(1)), StandardCharsets.UTF_8).stripTrailing();
            assertThat(m.group(2)).as(m.group(1)).isEqualTo(pom);
            assertThat(pom).as(m.group(1)).contains("<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.");
            // Built in the reactor, so CI exercises every consumer the page shows.
            assertThat(reactor).contains("<module>" + m.group(1).replace("/pom.xml", "") + "</module>");
            shown.add(m.group(1));
        }
        assertThat(shown).as("docs/embedding.md's <!-- consumer-pom: PATH --> blocks")
                .contains("examples/consumer/pom.xml", "examples/consumer-jsr223/pom.xml", "examples/consumer-modular/pom.xml");
    }

    /**
     * finch-bom pins every published module of the reactor (all {@code finch-*} modules but the benchmarks, the test
     * modules — the engine's and the API snapshot's, neither installed nor deployed — and itself).
     */
    @Test void theBomListsEveryPublishedModule() throws IOException {
        String reactor = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        String bom = Files.readString(ROOT.resolve("finch-bom/pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<module>(finch-[a-z0-9-]+)</module>").matcher(reactor);
        java.util.Set<String> published = new java.util.TreeSet<>();
        while (m.find()) published.add(m.group(1));
        published.removeAll(java.util.Set.of("finch-bench", "finch-bom", "finch-engine-tests", "finch-api-tests"));
        Matcher d = Pattern.compile("<groupId>dev\\.finch</groupId><artifactId>(finch-[a-z0-9-]+)</artifactId>").matcher(bom);
        java.util.Set<String> pinned = new java.util.TreeSet<>();
        while (d.find()) pinned.add(d.group(1));
        assertThat(published).as("the reactor's published modules").contains("finch-core", "finch-mcp");
        assertThat(pinned).as("the modules finch-bom pins").isEqualTo(published);
    }

    @Test void theReadmeStatesItsPrerequisitesBeforeItsTwoCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        int prerequisites = readme.indexOf("JDK 17");
        int firstCommand = readme.indexOf("```sh");
        assertThat(prerequisites).isPositive().isLessThan(firstCommand);
        assertThat(readme.substring(0, firstCommand)).contains("Maven 3.8");
    }

    /** The README, the guide and CI name one Maven: 3.8 or newer (the machine's and CI's is 3.8.7). */
    @Test void theReadmeTheGuideAndCiAgreeOnMaven() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        String guide = Files.readString(ROOT.resolve("docs/guide.md"), StandardCharsets.UTF_8);
        String ci = Files.readString(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8);
        for (String text : new String[] {readme, guide, ci}) {
            assertThat(text).contains("Maven 3.8 or newer").doesNotContain("Maven 3.9").contains("3.8.7");
        }
    }

    /** No documented Maven command is offline: each must run on a fresh clone, whose local repository is empty. */
    @Test void noDocumentedMavenCommandIsOffline() throws IOException {
        java.util.List<Path> pages = new java.util.ArrayList<>(java.util.List.of(ROOT.resolve("README.md")));
        try (var docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        Pattern offline = Pattern.compile("\\bmvn\\b[^`\\n]*\\s-o\\b");
        for (Path page : pages) {
            Matcher m = offline.matcher(Files.readString(page, StandardCharsets.UTF_8));
            assertThat(m.find()).as("%s: %s", page, m.find(0) ? m.group() : "").isFalse();
        }
    }
}
