package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import org.junit.jupiter.api.Test;

/**
 * The memory words without a store: a run's writes are staged and written only when it commits; its own reads see
 * them; a failed run writes nothing; the project tree needs a project; trees and paths are checked; project and global
 * approvals are remembered for the Finch's later sessions.
 */
class MemoryWordsTest {
    private static final String ALL = "memory.read(tree=*,path=**)";
    private static final String WRITE_ALL = "memory.write(tree=*,path=**)";

    private static Outcome lisp(Session s, String src) { return s.submit(Submission.of(src, "m.lisp")); }

    private static Session session(Finch f) { return f.newSession(SessionOptions.DEFAULT.withGrant(ALL).withGrant(WRITE_ALL)); }

    @Test void aRunReadsItsOwnWritesAndTheNextRunReadsWhatItCommitted() {
        Finch f = Finch.builder().project("demo").build();
        Session s = session(f);
        Outcome o = lisp(s, "(memory-put \"project\" \"notes/todo\" (json-of-string \"milk\")) "
                + "(say (show (memory-get \"project\" \"notes/todo\"))) (say (show (memory-list \"project\" \"notes\")))");
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("{\"tag\":\"some\",\"value\":\"milk\"}[\"notes/todo\"]");
        // Another session of the same Finch and project: committed, so it is there.
        Outcome next = lisp(session(f), "(say (show (memory-get \"project\" \"notes/todo\")))");
        assertThat(next.output()).isEqualTo("{\"tag\":\"some\",\"value\":\"milk\"}");
        // But not the other session's own tree.
        lisp(s, "(memory-put \"session\" \"mine\" (json-of-int 1))");
        assertThat(lisp(session(f), "(say (show (memory-get \"session\" \"mine\")))").output()).isEqualTo("{\"tag\":\"none\"}");
        assertThat(lisp(s, "(say (show (memory-get \"session\" \"mine\")))").output()).isEqualTo("{\"tag\":\"some\",\"value\":1}");
    }

    @Test void aFailedRunWritesNothing() {
        Finch f = Finch.builder().project("demo").build();
        Session s = session(f);
        Outcome o = lisp(s, "(memory-put \"global\" \"k\" (json-of-int 7)) (say \"wrote\") (/ 1 0)");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.output()).isEqualTo("wrote");
        assertThat(lisp(s, "(say (show (memory-get \"global\" \"k\")))").output()).isEqualTo("{\"tag\":\"none\"}");
        // Deleting is staged the same way: a committed delete removes it.
        lisp(s, "(memory-put \"global\" \"k\" (json-of-int 7))");
        lisp(s, "(memory-delete \"global\" \"k\") (/ 1 0)");
        assertThat(lisp(s, "(say (show (memory-get \"global\" \"k\")))").output()).isEqualTo("{\"tag\":\"some\",\"value\":7}");
        lisp(s, "(memory-delete \"global\" \"k\")");
        assertThat(lisp(s, "(say (show (memory-get \"global\" \"k\")))").output()).isEqualTo("{\"tag\":\"none\"}");
    }

    @Test void treesPathsAndProjectsAreChecked() {
        Session noProject = session(Finch.create());
        assertThat(lisp(noProject, "(memory-get \"project\" \"a\")").diagnostics().get(0).code()).isEqualTo("E-MEMORY-004");
        Session s = session(Finch.builder().project("demo").build());
        assertThat(lisp(s, "(memory-get \"notes\" \"a\")").diagnostics().get(0).code()).isEqualTo("E-MEMORY-001");
        assertThat(lisp(s, "(memory-get \"session\" \"a/../b\")").diagnostics().get(0).code()).isEqualTo("E-MEMORY-002");
        assertThat(lisp(s, "(memory-get \"session\" \"a/*\")").diagnostics().get(0).code()).isEqualTo("E-MEMORY-002");
        assertThat(lisp(s, "(memory-put \"session\" \"big\" (json-of-string (string-repeat \"x\" 70000)))").diagnostics().get(0).code())
                .isEqualTo("E-MEMORY-003");
    }

    @Test void theRequirementIsInferredFromLiteralsAndANarrowGrantIsEnough() {
        Session s = Finch.builder().project("demo").build().newSession(SessionOptions.DEFAULT
                .withGrant("memory.write(tree=project,path=notes/**)").withGrant("memory.read(tree=project,path=notes/**)"));
        Outcome ok = lisp(s, "(memory-put \"project\" \"notes/a\" (json-of-int 1)) (say (show (memory-list \"project\" \"notes\")))");
        assertThat(ok.status()).as(ok.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(ok.inferredCapabilities()).contains("memory.write(tree=project,path=notes/a)", "memory.read(tree=project,path=notes/**)");
        Outcome outside = lisp(s, "(memory-put \"project\" \"secrets/a\" (json-of-int 1))");
        assertThat(outside.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(outside.requiredCapabilities()).containsExactly("memory.write(tree=project,path=secrets/a)");
    }

    @Test void projectAndGlobalApprovalsAreRememberedForLaterSessionsAndRevocationsToo() {
        Finch f = Finch.builder().project("demo").build();
        Session first = f.newSession();
        Outcome asked = lisp(first, "(memory-put \"project\" \"n\" (json-of-int 1))");
        assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
        Outcome approved = first.approve(asked.executionId(), Scope.PROJECT);
        assertThat(approved.status()).as(approved.toString()).isEqualTo(Outcome.Status.COMPLETED);
        Session second = f.newSession();
        Outcome notAsked = lisp(second, "(memory-put \"project\" \"n\" (json-of-int 2))");
        assertThat(notAsked.status()).as("a project grant holds in a new session").isEqualTo(Outcome.Status.COMPLETED);
        String id = second.grants().grants().stream().filter(g -> g.scope() == Scope.PROJECT).findFirst().orElseThrow().id();
        assertThat(second.revoke(id)).isTrue();
        assertThat(lisp(f.newSession(), "(memory-put \"project\" \"n\" (json-of-int 3))").status())
                .as("a revoked project grant is gone for later sessions").isEqualTo(Outcome.Status.SUSPENDED);
    }

    @Test void aDelegatedSessionHoldsOnlyItsOwnGrantsNeverTheRememberedOnes() {
        Finch f = Finch.builder().project("demo").build();
        Session first = f.newSession();
        Outcome asked = lisp(first, "(memory-put \"global\" \"k\" (json-of-int 1))");
        assertThat(first.approve(asked.executionId(), Scope.GLOBAL).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(f.newSession().grants().grants()).extracting(g -> g.scope()).contains(Scope.GLOBAL);
        // A child agent's session (ChildRun opens it this way): its ceiling is all it holds.
        Session child = f.newDelegatedSession(SessionOptions.DEFAULT);
        assertThat(child.grants().grants()).isEmpty();
        assertThat(lisp(child, "(memory-put \"global\" \"k\" (json-of-int 2))").status()).isEqualTo(Outcome.Status.SUSPENDED);
    }
}
