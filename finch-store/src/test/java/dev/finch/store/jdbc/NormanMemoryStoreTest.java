package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.store.FinchStore;
import dev.finch.store.Journal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A µNorman memory grant over a store: the note one Finch's run puts under {@code project} (approved for the project,
 * journaled before it was written) is what another Finch on the same store reads, typed by its grant, with the
 * project's approval remembered; a run that fails after its put writes nothing to the store.
 */
class NormanMemoryStoreTest {
    private static final String NOTES = """
            (record Note (text (Text 200)) (tags (List Sym)))
            (grant notes (memory [tree project] [value Note]))
            """;

    @TempDir Path dir;

    private static Outcome norman(Session s, String src) { return s.submit(Submission.of(src, "agent.nm").withLanguage(Language.NORMAN)); }

    @Test void aNotePutByOneFinchIsReadByTheNextOnTheSameStore() {
        Path state = dir.resolve("state");
        String execution;
        try (FinchStore store = FinchStores.embedded(state);
             Finch first = Finch.builder().store(store).project("demo").build()) {
            Session s = first.newSession();
            Outcome asked = norman(s, NOTES + "(call notes put \"todo/milk\" (Note [text \"buy milk\"] [tags (list 'home)]))");
            assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(asked.requiredCapabilities()).containsExactly("memory.write(tree=project,path=todo/milk)");
            execution = asked.executionId();
            Outcome approved = s.approve(execution, Scope.PROJECT);
            assertThat(approved.status()).as(approved.toString()).isEqualTo(Outcome.Status.COMPLETED);
            // The effect was journaled before it was performed, and settled after.
            assertThat(store.journal().entries(execution, 0, 10)).singleElement().satisfies(e -> {
                assertThat(e.kind()).isEqualTo(Journal.Status.Kind.SETTLED);
                assertThat(((Journal.Status.Settled) e).intent().requirement()).isEqualTo("memory.write(tree=project,path=todo/milk)");
                assertThat(((Journal.Status.Settled) e).intent().operation()).isEqualTo("memory-put");
            });
            // A run that fails after its (approved) put writes nothing.
            Session t = first.newSession();
            Outcome eggs = norman(t, NOTES + "(call notes put \"todo/eggs\" (Note [text \"eggs\"] [tags '()])) (fail 'later)");
            assertThat(eggs.requiredCapabilities()).containsExactly("memory.write(tree=project,path=todo/eggs)");
            Outcome failed = t.approve(eggs.executionId(), Scope.ONCE);
            assertThat(failed.status()).as(failed.toString()).isEqualTo(Outcome.Status.FAILED);
        }
        try (FinchStore store = FinchStores.embedded(state);
             Finch second = Finch.builder().store(store).project("demo").build()) {
            Session s = second.newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=project,path=**)"));
            Outcome read = norman(s, NOTES + """
                    (case (call notes get "todo/milk") [(Some n) (. n text)] [None "forgotten"])
                    (call notes list "todo")
                    """);
            assertThat(read.status()).as(read.toString()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(read.stack()).extracting(e -> e.display()).containsExactly("\"buy milk\"", "[\"todo/milk\"]");
            Outcome again = norman(second.newSession(), NOTES + "(call notes put \"todo/milk\" (Note [text \"oat milk\"] [tags '()]))");
            assertThat(again.status()).as("the project's approval was remembered in the store").isEqualTo(Outcome.Status.COMPLETED);
        }
    }
}
