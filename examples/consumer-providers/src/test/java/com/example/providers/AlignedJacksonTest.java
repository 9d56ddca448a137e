package com.example.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.providers.LangChain4jProvider;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.io.File;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What finch-bom is for. This application depends on finch-core, finch-providers and langchain4j-core, each naming a
 * Jackson release of its own (LangChain4j 1.19.0 names 2.22.1, so without the BOM Maven's nearest-wins resolves
 * jackson-core 2.22.1 beside jackson-databind of Finch's release), and imports the BOM. Its test class path — what
 * Maven resolved for it — must hold one Jackson: jackson-core, jackson-databind, jackson-annotations and every other
 * Jackson module of one release, and the Jackson classes that load are those jars'. Then a LangChain4j chat model
 * answers a µNorman ask through finch-providers, both sides reading and writing JSON with that one Jackson.
 */
class AlignedJacksonTest {
    /** A jar of the local repository, {@code GROUP/ARTIFACT/VERSION/ARTIFACT-VERSION.jar}. */
    record Jar(String group, String artifact, String version, Path path) {}

    @Test
    void theClassPathHoldsOneJacksonRelease() {
        Map<String, List<Jar>> jackson = new TreeMap<>();
        for (Jar jar : classPathJars()) {
            if (jar.group().startsWith("com.fasterxml.jackson")) jackson.computeIfAbsent(jar.artifact(), a -> new ArrayList<>()).add(jar);
        }
        for (String artifact : List.of("jackson-core", "jackson-databind", "jackson-annotations")) {
            assertEquals(1, jackson.getOrDefault(artifact, List.of()).size(), artifact + " once on the class path: " + jackson);
        }
        String release = jackson.get("jackson-core").get(0).version();
        jackson.forEach((artifact, jars) -> {
            // Since 2.20 jackson-annotations is versioned by major.minor alone (2.21 beside 2.21.3).
            String expected = artifact.equals("jackson-annotations") && !jars.get(0).version().equals(release)
                    ? release.substring(0, release.lastIndexOf('.')) : release;
            assertEquals(expected, jars.get(0).version(), artifact + " is of jackson-core's release: " + jackson);
        });
        // The classes that load are those jars' (no second copy inside another jar).
        assertEquals(release, com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString());
        assertEquals(release, com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
        assertEquals(jackson.get("jackson-core").get(0).path(), jarOf(JsonFactory.class));
        assertEquals(jackson.get("jackson-databind").get(0).path(), jarOf(ObjectMapper.class));
        assertEquals(jackson.get("jackson-annotations").get(0).path(), jarOf(JsonProperty.class));
    }

    @Test
    void aLangChain4jModelAnswersAnAskThroughOneJackson() {
        List<String> asked = new ArrayList<>();
        ChatModel model = new ChatModel() {
            @Override public ChatResponse doChat(ChatRequest request) {
                List<ChatMessage> messages = request.messages();
                asked.add(ChatMessageSerializer.messageToJson(messages.get(messages.size() - 1)));  // LangChain4j's Jackson
                return ChatResponse.builder().aiMessage(AiMessage.from("{\"value\": 4}")).tokenUsage(new TokenUsage(12, 5))
                        .finishReason(FinishReason.STOP).build();
            }
        };
        try (Finch finch = Finch.builder()
                .models(ModelWorld.over(LangChain4jProvider.of(model))
                        .model("gpt", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096))
                        .budget(new BigDecimal("0.05")).build())
                .build()) {
            Session session = finch.newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)"));
            Outcome o = session.submit(Submission.of("""
                    (grant gpt (model [ceiling 100]))
                    (record Answer (value Num))
                    (. (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'sum) value)""", "agent.nm")
                    .withLanguage(Language.NORMAN));
            String json = FinchJson.write(o);  // finch-core's Jackson
            assertEquals(Outcome.Status.COMPLETED, o.status(), json);
            assertEquals("4.0", o.stack().get(0).display());
            assertTrue(json.contains("\"status\":\"completed\""), json);
        }
        assertEquals(1, asked.size());
        assertTrue(asked.get(0).contains("2+2?"), asked.get(0));
        assertFalse(asked.get(0).isBlank());
    }

    private static List<Jar> classPathJars() {
        List<Jar> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path jar = Path.of(entry).toAbsolutePath();
            if (jar.getNameCount() < 4 || !jar.getFileName().toString().endsWith(".jar")) continue;
            String version = jar.getParent().getFileName().toString();
            String artifact = jar.getParent().getParent().getFileName().toString();
            if (!jar.getFileName().toString().equals(artifact + "-" + version + ".jar")) continue;
            Path groupDir = jar.getParent().getParent().getParent();
            String group = groupDir.toString().replace(File.separatorChar, '/');
            int com = group.lastIndexOf("/com/");
            jars.add(new Jar(com < 0 ? "" : group.substring(com + 1).replace('/', '.'), artifact, version, jar));
        }
        return jars;
    }

    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
