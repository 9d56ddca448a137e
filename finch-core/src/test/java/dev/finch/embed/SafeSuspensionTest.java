package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ContinuationLedger;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 13, item 4: images are authenticated, carry no authority, keep ids unique, and a pause is continued once. */
class SafeSuspensionTest {
    static final byte[] KEY = "the host's image key, 32 bytes or more".getBytes(StandardCharsets.UTF_8);
    static final String APPEND = "\"log.txt\" path \"x\" string-to-bytes file-write";

    @TempDir Path a;
    @TempDir Path b;

    private static Finch keyed() { return Finch.builder().imageKey(KEY).build(); }

    /** A session over workspace {@code a} with a wide grant, suspended before appending to log.txt (which it has no grant for). */
    private Saved suspended(Finch finch) throws Exception {
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(a).withGrant("fs.read(${workspace}/**)"));
        Outcome o = s.submit(Submission.of("\"pre\" say " + APPEND + " 1", "turn.fth"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.write(${workspace}/log.txt)");
        return new Saved(s, o.executionId(), s.save(o.executionId()));
    }

    record Saved(Session session, String executionId, String image) { }

    @Test void anEditedImageIsRefusedEvenWhenItsChecksumIsRecomputed() throws Exception {
        Saved saved = suspended(keyed());
        ObjectNode doc = (ObjectNode) new ObjectMapper().readTree(saved.image());
        assertThat(doc.has("mac")).isTrue();
        // The attack of the issue: widen what the image says and make its integrity field agree again.
        doc.put("vm_revision", 0);
        doc.remove("mac");
        String rehashed = doc.toString();
        doc.put("checksum", sha256(rehashed));
        assertThatThrownBy(() -> keyed().restore(doc.toString(), SessionOptions.DEFAULT)).isInstanceOf(SessionImage.ImageException.class)
                .hasMessageContaining("not signed");
        String tampered = saved.image().replace("\"pre\\\" say", "\"PRE\\\" say");
        assertThat(tampered).isNotEqualTo(saved.image());
        assertThatThrownBy(() -> keyed().restore(tampered, SessionOptions.DEFAULT)).hasMessageContaining("not authentic");
        assertThatThrownBy(() -> Finch.builder().imageKey("another key, also 32 bytes or more!!".getBytes(StandardCharsets.UTF_8)).build()
                .restore(saved.image(), SessionOptions.DEFAULT)).hasMessageContaining("not authentic");
        assertThatThrownBy(() -> Finch.create().restore(saved.image())).hasMessageContaining("has none");
        assertThatThrownBy(() -> Finch.builder().imageKey(new byte[16])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test void unkeyedImagesOnlyWhenTheEmbedderSaysSo() throws Exception {
        Saved saved = suspended(Finch.create());
        assertThatThrownBy(() -> Finch.create().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a)))
                .isInstanceOf(SessionImage.ImageException.class).hasMessageContaining("acceptUnkeyedImages");
        Session back = Finch.builder().acceptUnkeyedImages().build().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        assertThat(back.suspendedExecutions()).containsExactly(saved.executionId());
        assertThatThrownBy(() -> Finch.builder().acceptUnkeyedImages().build().restore(saved.image().replace("\"pre", "\"PRE"), SessionOptions.DEFAULT))
                .hasMessageContaining("checksum");
    }

    @Test void theRestoringHostSuppliesTheAuthority() throws Exception {
        Saved saved = suspended(keyed());
        // Restored over another workspace with no grants: the image's workspace and grants are not used.
        Session back = keyed().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(b));
        assertThat(back.grants().grants()).isEmpty();
        Outcome done = back.approve(saved.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("pre");
        assertThat(Files.readString(b.resolve("log.txt"))).isEqualTo("x");
        assertThat(a.resolve("log.txt")).doesNotExist();
        // A later read in the restored session asks again: the image's fs.read grant was not carried over.
        Files.writeString(b.resolve("r.txt"), "r");
        Outcome read = back.submit(Submission.of("\"r.txt\" path file-read", "t.fth"));
        assertThat(read.requiredCapabilities()).containsExactly("fs.read(${workspace}/r.txt)");
        // Restored with no workspace at all: the write cannot happen anywhere.
        Session nowhere = keyed().restore(saved.image());
        Outcome refused = nowhere.approve(saved.executionId(), Scope.ONCE);
        assertThat(refused.status()).isEqualTo(Outcome.Status.FAILED);
    }

    @Test void idsAreUniqueAcrossRestores() throws Exception {
        Finch finch = keyed();
        Saved saved = suspended(finch);
        Session one = finch.restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        Session two = finch.restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        Session other = Finch.builder().imageKey(KEY).build().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        Set<String> sessionIds = new HashSet<>(List.of(saved.session().id(), one.id(), two.id(), other.id()));
        assertThat(sessionIds).hasSize(4);
        assertThat(one.suspendedExecutions()).containsExactly(saved.executionId());
        Set<String> executionIds = new HashSet<>();
        for (Session s : List.of(saved.session(), one, two, other)) {
            for (int i = 0; i < 3; i++) assertThat(executionIds.add(s.submit(Submission.of("1 drop", "t.fth")).executionId())).isTrue();
        }
        assertThat(executionIds).doesNotContain(saved.executionId());
        assertThat(Finch.builder().instanceId("node-a.1".replace("-", "_")).build().newSession().id()).isEqualTo("s1-node_a.1");
    }

    @Test void aPauseIsContinuedOnceHoweverOftenItsImageIsRestored() throws Exception {
        Finch finch = keyed();
        Saved saved = suspended(finch);
        Session one = finch.restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        Session two = finch.restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        assertThat(one.approve(saved.executionId(), Scope.ONCE).status()).isEqualTo(Outcome.Status.COMPLETED);
        Outcome second = two.approve(saved.executionId(), Scope.ONCE);
        assertThat(second.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(second.diagnostics().get(0).code()).isEqualTo("E-SESSION-008");
        Outcome original = saved.session().approve(saved.executionId(), Scope.ONCE);
        assertThat(original.diagnostics().get(0).code()).isEqualTo("E-SESSION-008");
        assertThat(Files.readString(a.resolve("log.txt"))).isEqualTo("x");
        assertThat(two.suspendedExecutions()).isEmpty();
    }

    @Test void aCancelledSavedExecutionIsNotContinuedFromAnyCopy() throws Exception {
        Finch finch = keyed();
        Saved saved = suspended(finch);
        Session copy = finch.restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        assertThat(saved.session().cancel(saved.executionId())).isTrue();
        assertThat(copy.approve(saved.executionId(), Scope.ONCE).diagnostics().get(0).code()).isEqualTo("E-SESSION-008");
        assertThat(a.resolve("log.txt")).doesNotExist();
    }

    @Test void aSharedLedgerHoldsAcrossFinches() throws Exception {
        ContinuationLedger shared = ContinuationLedger.inMemory();
        Saved saved = suspended(Finch.builder().imageKey(KEY).continuations(shared).build());
        Session here = Finch.builder().imageKey(KEY).continuations(shared).build().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        Session there = Finch.builder().imageKey(KEY).continuations(shared).build().restore(saved.image(), SessionOptions.DEFAULT.withWorkspace(a));
        assertThat(there.approve(saved.executionId(), Scope.ONCE).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(here.approve(saved.executionId(), Scope.ONCE).diagnostics().get(0).code()).isEqualTo("E-SESSION-008");
        assertThat(Files.readString(a.resolve("log.txt"))).isEqualTo("x");
    }

    @Test void aSuspensionThatNeverLeftTheSessionNeedsNoLedger() throws Exception {
        Session s = Finch.builder().continuations((id, pause) -> { throw new AssertionError("no claim for an unsaved pause"); }).build()
                .newSession(SessionOptions.DEFAULT.withWorkspace(a));
        Outcome o = s.submit(Submission.of(APPEND, "t.fth"));
        assertThat(s.approve(o.executionId(), Scope.ONCE).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
