package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ContinuationLedger;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.store.FinchStore;
import dev.finch.store.Journal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code Finch} with a store ({@code Finch.Builder.store}): effects are journaled there before they are performed;
 * memory and project grants outlive the {@code Finch} that wrote them.
 */
class StoreWiringTest {
    private static final byte[] KEY = "store-wiring-test-image-key-0123".getBytes(StandardCharsets.UTF_8);
    private static final String EFFECT = "(process-run \"/bin/sh\" (list \"-c\" \"echo ran >> log.txt\"))";

    @TempDir Path dir;

    @Test void anEffectIsJournaledAndNeverPerformedTwiceEvenWhenTheClaimsAreNotShared() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            String image;
            String execution;
            try (Finch first = Finch.builder().store(store).imageKey(KEY).build()) {
                Session s = first.newSession(SessionOptions.DEFAULT.withWorkspace(ws));
                Outcome paused = s.submit(Submission.of(EFFECT, "effect.lisp"));
                assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
                execution = paused.executionId();
                image = s.save(execution);
            }
            // Two Finches whose continue-once ledgers are their own (not the store's): only the journal stands between them.
            try (Finch a = Finch.builder().store(store).continuations(ContinuationLedger.inMemory()).imageKey(KEY).build();
                 Finch b = Finch.builder().store(store).continuations(ContinuationLedger.inMemory()).imageKey(KEY).build()) {
                Outcome ran = a.restore(image, SessionOptions.DEFAULT.withWorkspace(ws)).approve(execution, Scope.ONCE);
                assertThat(ran.status()).as(ran.toString()).isEqualTo(Outcome.Status.COMPLETED);
                Outcome again = b.restore(image, SessionOptions.DEFAULT.withWorkspace(ws)).approve(execution, Scope.ONCE);
                assertThat(again.status()).isEqualTo(Outcome.Status.FAILED);
                assertThat(again.diagnostics().get(0).code()).isEqualTo("E-STORE-011");
            }
            assertThat(Files.readAllLines(ws.resolve("log.txt"))).containsExactly("ran");
            assertThat(store.journal().entries(execution, 0, 10)).singleElement()
                    .satisfies(e -> assertThat(e.kind()).isEqualTo(Journal.Status.Kind.SETTLED));
        }
    }

    @Test void aStateDirectoryIsTheEmbeddedStoreWhichTheFinchOpensAndCloses() {
        Path state = dir.resolve("by-directory");
        try (Finch f = Finch.builder().stateDirectory(state).project("demo").build()) {
            assertThat(f.store()).isPresent();
            Outcome wrote = f.newSession(SessionOptions.DEFAULT.withGrant("memory.write(tree=global,path=**)"))
                    .submit(Submission.of("(memory-put \"global\" \"k\" (json-of-int 42))", "w.lisp"));
            assertThat(wrote.status()).as(wrote.toString()).isEqualTo(Outcome.Status.COMPLETED);
        }
        assertThat(Files.exists(state.resolve(FinchStores.DATABASE_FILE))).isTrue();
        try (Finch f = Finch.builder().stateDirectory(state).build()) {
            Outcome read = f.newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=global,path=**)"))
                    .submit(Submission.of("(say (show (memory-get \"global\" \"k\")))", "r.lisp"));
            assertThat(read.output()).isEqualTo("{\"tag\":\"some\",\"value\":42}");
        }
    }

    @Test void memoryAndProjectGrantsOutliveTheFinch() {
        Path state = dir.resolve("state");
        try (FinchStore store = FinchStores.embedded(state);
             Finch f = Finch.builder().store(store).project("demo").build()) {
            Session s = f.newSession();
            Outcome asked = s.submit(Submission.of("(memory-put \"project\" \"notes/a\" (json-of-string \"kept\"))", "w.lisp"));
            assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(s.approve(asked.executionId(), Scope.PROJECT).status()).isEqualTo(Outcome.Status.COMPLETED);
        }
        try (FinchStore store = FinchStores.embedded(state);
             Finch f = Finch.builder().store(store).project("demo").build()) {
            Outcome read = f.newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=project,path=**)"))
                    .submit(Submission.of("(say (show (memory-get \"project\" \"notes/a\")))", "r.lisp"));
            assertThat(read.output()).isEqualTo("{\"tag\":\"some\",\"value\":\"kept\"}");
            Outcome notAsked = f.newSession().submit(Submission.of("(memory-put \"project\" \"notes/a\" (json-of-string \"again\"))", "w.lisp"));
            assertThat(notAsked.status()).as("the project grant was remembered").isEqualTo(Outcome.Status.COMPLETED);
        }
        try (FinchStore store = FinchStores.embedded(state);
             Finch other = Finch.builder().store(store).project("elsewhere").build()) {
            Outcome asked = other.newSession().submit(Submission.of("(memory-put \"project\" \"notes/a\" (json-of-string \"x\"))", "w.lisp"));
            assertThat(asked.status()).as("another project was never granted").isEqualTo(Outcome.Status.SUSPENDED);
        }
    }

    @Test void aConversationSavedInTheStoreIsRestoredByAnotherFinchAndItsPausedTurnGoesOnOnce() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("chat-ws"));
        String script = """
                >>> program lisp
                (file-write (path "n.txt") (string-to-bytes "kept"))
                >>> final
                (say "{{status}}")
                """;
        try (FinchStore store = FinchStores.embedded(dir.resolve("chat-state"))) {
            try (Finch first = Finch.builder().store(store).imageKey(KEY).build()) {
                var c = dev.finch.conversation.Conversation.builder(first.newSession(SessionOptions.DEFAULT.withWorkspace(ws)),
                        dev.finch.agent.ScriptedProvider.parse(script)).build();
                assertThat(c.turn("write it")).isInstanceOf(dev.finch.conversation.Step.AwaitingApproval.class);
                c.saveTo(store, "ada-1");
            }
            try (Finch second = Finch.builder().store(store).imageKey(KEY).build()) {
                var c = dev.finch.conversation.Conversation.restoreFrom(second, store, "ada-1", SessionOptions.DEFAULT.withWorkspace(ws),
                        dev.finch.agent.ScriptedProvider.parse(script), null).orElseThrow();
                assertThat(c.approve(Scope.ONCE).output()).isEqualTo("completed");
                assertThat(dev.finch.conversation.Conversation.restoreFrom(second, store, "nobody", SessionOptions.DEFAULT,
                        dev.finch.agent.ScriptedProvider.parse(script), null)).isEmpty();
            }
            try (Finch third = Finch.builder().store(store).imageKey(KEY).build()) {
                // The same saved turn again: its pause was continued once, in the second process's Finch.
                var c = dev.finch.conversation.Conversation.restoreFrom(third, store, "ada-1", SessionOptions.DEFAULT.withWorkspace(ws),
                        dev.finch.agent.ScriptedProvider.parse(script), null).orElseThrow();
                var again = c.approve(Scope.ONCE);
                assertThat(again.outcomes().get(0).diagnostics().get(0).code()).isEqualTo("E-SESSION-008");
            }
            assertThat(Files.readString(ws.resolve("n.txt"))).isEqualTo("kept");
        }
    }
}
