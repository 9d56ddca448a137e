package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.agent.AgentOptions;
import dev.finch.agent.AgentProfile;
import dev.finch.agent.ScriptedProvider;
import dev.finch.capabilities.Scope;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35 item 6: a revocation reaches a run that holds the grant, whether it is paused or running. A grant revoked
 * while its run waits is not handed to a child agent the run creates afterwards ({@code E-AGENT-004}, nothing
 * allocated), is gone from what the run lists, and a read it covered pauses for approval again at the next capability
 * boundary; the same holds for a run that is running when the grant is revoked.
 */
class RevocationReachesDelegationTest {
    static final ExecutorService POOL = Executors.newCachedThreadPool();
    static volatile CountDownLatch entered = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(1);

    /** An embedder's word that holds the run until the test has revoked a grant. */
    public static final class Hold {
        @Word(name = "hold", doc = "Waits until the test releases it.")
        @Overload(sig = "->")
        public static void hold() throws InterruptedException {
            entered.countDown();
            release.await(60, TimeUnit.SECONDS);
        }
    }

    @TempDir Path ws;
    private Finch finch;

    @BeforeEach void files() throws Exception {
        Files.createDirectories(ws.resolve("public"));
        Files.writeString(ws.resolve("public/a.txt"), "hello");
        Files.writeString(ws.resolve("other.txt"), "other");
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    @AfterEach void close() {
        release.countDown();
        if (finch != null) finch.close();
    }

    @AfterAll static void stop() { POOL.shutdownNow(); }

    private Session session() {
        finch = Finch.builder().words(Hold.class).agents(AgentOptions.of(new AgentProfile("script", "scripted", ScriptedProvider.parse("""
                ## role reader
                >>> program lisp
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok s s) (err e e)))
                >>> final
                reader saw: {{output}}
                """)))).build();
        return finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of("agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)")).build());
    }

    private static String fileGrant(Session s) {
        return s.grants().grants().stream().filter(g -> g.spec().toString().startsWith("fs.read")).findFirst().orElseThrow().id();
    }

    private static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "t.lisp").withLanguage(Language.LISP)); }

    private static String code(Outcome o) { return o.diagnostics().isEmpty() ? "none" : o.diagnostics().get(0).code(); }

    /** Lists the file grants, pauses for approval of an ungranted read, then delegates what it listed to a reader. */
    private static final String LIST_PAUSE_DELEGATE = """
            (define listed (list-map (list-filter (capability-list) (lambda (g) (match g (record ((kind k)) (= k "fs.read")))))
                                     (lambda (g) (match g (record ((grant r)) r)))))
            (file-read (path "other.txt"))
            (define r (agent-await (agent-spawn-with
              { :task "read" :role "reader" :background "" :provider "" :model ""
                :context-refs (empty-list record{id:string,kind:string,sha256:string}) :capabilities listed
                :max-turns 4 :timeout-ms 20000 :max-output-bytes 4096 })))
            (say (match r (record ((final-message m)) m)))
            """;

    @Test
    void aGrantRevokedWhileItsRunWaitsIsNotHandedToANewChild() {
        Session s = session();
        Outcome paused = lisp(s, LIST_PAUSE_DELEGATE);
        assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(s.revoke(fileGrant(s))).isTrue();
        Outcome o = s.awaitTasks(s.approve(paused.executionId(), Scope.ONCE));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-AGENT-004");
        assertThat(o.output()).doesNotContain("hello");
        assertThat(finch.agents().orElseThrow().snapshot("t1")).as("no child was allocated").isEmpty();
        assertThat(s.submit(Submission.of("1 2 +", "after")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test
    void withoutTheRevocationTheSameRunDelegatesAndTheChildReads() {
        // The control: the program above is sound; only the revocation stops it.
        Session s = session();
        Outcome paused = lisp(s, LIST_PAUSE_DELEGATE);
        assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
        Outcome o = s.awaitTasks(s.approve(paused.executionId(), Scope.ONCE));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("reader saw: hello");
    }

    @Test
    void aGrantRevokedWhileItsRunWaitsIsGoneAtItsNextCapabilityBoundary() {
        Session s = session();
        Outcome paused = lisp(s, """
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok t t) (err e e)))
                (file-read (path "other.txt"))
                (say (int-to-string (list-length (capability-list))))
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok t t) (err e e)))
                """);
        assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(paused.output()).isEqualTo("hello");
        assertThat(s.revoke(fileGrant(s))).isTrue();
        Outcome again = s.approve(paused.executionId(), Scope.ONCE);
        // The run lists one grant (agent.spawn) and the second read of a.txt asks again: the grant it began with is gone.
        assertThat(again.status()).as("%s", again).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(again.requiredCapabilities()).containsExactly("fs.read(${workspace}/public/a.txt)");
        assertThat(again.output()).isEqualTo("hello1");
        Outcome denied = s.deny(again.executionId(), "revoked");
        assertThat(code(denied)).isEqualTo("E-HOST-001");
        assertThat(denied.output()).doesNotContain("hellohello");
    }

    @Test
    void aGrantRevokedWhileItsRunRunsIsGoneAtItsNextCapabilityBoundary() throws Exception {
        Session s = session();
        Future<Outcome> f = POOL.submit(() -> lisp(s, """
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok t t) (err e e)))
                (hold)
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok t t) (err e e)))
                """));
        assertThat(entered.await(60, TimeUnit.SECONDS)).as("the run reached the host's word").isTrue();
        assertThat(s.revoke(fileGrant(s))).isTrue();
        release.countDown();
        Outcome o = f.get(60, TimeUnit.SECONDS);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/public/a.txt)");
        assertThat(o.output()).isEqualTo("hello");
    }

    /**
     * A grant already delegated follows the parent's revocation: the child's own copy is revoked with it, so the child's
     * next read of that file is denied (a child's request outside its ceiling is denied at once, E-HOST-001).
     */
    @Test
    void aGrantRevokedAfterItWasDelegatedIsRevokedInTheChildToo() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        dev.finch.agent.AgentProvider scripted = ScriptedProvider.parse("""
                ## role reader
                >>> program lisp
                (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok s s) (err e e)))
                >>> final
                reader: {{status}} {{codes}} [{{output}}]
                """);
        dev.finch.agent.AgentProvider waits = c -> {
            asked.countDown();
            go.await(60, TimeUnit.SECONDS);
            return scripted.next(c);
        };
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("script", "scripted", waits))).build();
        Session s = finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of("agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)")).build());
        Future<Outcome> f = POOL.submit(() -> s.awaitTasks(lisp(s, """
                (define listed (list-map (list-filter (capability-list) (lambda (g) (match g (record ((kind k)) (= k "fs.read")))))
                                         (lambda (g) (match g (record ((grant r)) r)))))
                (define r (agent-await (agent-spawn-with
                  { :task "read" :role "reader" :background "" :provider "" :model ""
                    :context-refs (empty-list record{id:string,kind:string,sha256:string}) :capabilities listed
                    :max-turns 4 :timeout-ms 60000 :max-output-bytes 4096 })))
                (say (match r (record ((final-message m)) m)))
                """)));
        // The child exists and holds its copy of the grant; the parent revokes the grant now.
        assertThat(asked.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(s.revoke(fileGrant(s))).isTrue();
        go.countDown();
        Outcome o = f.get(60, TimeUnit.SECONDS);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).startsWith("reader: failed E-HOST-001").doesNotContain("hello");
    }

    @Test
    void revokingAnIdTheSessionNeverGaveOrRevokedBeforeAnswersFalse() {
        Session s = session();
        String id = fileGrant(s);
        assertThat(s.revoke("g99")).isFalse();
        assertThat(s.revoke(id)).isTrue();
        assertThat(s.revoke(id)).as("revoking twice").isFalse();
    }
}
