package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 item 7: a requirement raised by a concrete call is approved as something concrete, never as a pattern.
 * {@code process-run "/usr/bin/*"} pauses for {@code process.run(/usr/bin/*)}; approving it (once or for the session)
 * is refused, no grant is added, and {@code /usr/bin/id} afterwards still pauses for its own approval.
 */
class ApprovalsNeverWidenTest {
    static final Finch FINCH = Finch.create();

    static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "t").withLanguage(Language.LISP)); }

    @Test
    void approvingAPatternRequirementIsRefusedAndGrantsNothing() {
        for (Scope scope : new Scope[] {Scope.ONCE, Scope.SESSION}) {
            Session s = FINCH.newSession();
            Outcome paused = lisp(s, "(process-run \"/usr/bin/*\" (empty-list string))");
            assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(paused.requiredCapabilities()).containsExactly("process.run(/usr/bin/*)");
            Outcome approved = s.approve(paused.executionId(), scope);
            assertThat(approved.status()).as("%s", approved).isEqualTo(Outcome.Status.REFUSED);
            assertThat(approved.diagnostics().get(0).code()).isEqualTo("E-HOST-012");
            assertThat(approved.diagnostics().get(0).message()).contains("pattern");
            assertThat(s.grants().toString()).doesNotContain("/usr/bin/*");
            // The execution still waits; denying it ends it.
            assertThat(s.deny(paused.executionId(), "no").diagnostics().get(0).code()).isEqualTo("E-HOST-001");
            Outcome id = lisp(s, "(process-run \"/usr/bin/id\" (empty-list string))");
            assertThat(id.status()).as("/usr/bin/id is not approved by the pattern (%s)", scope).isEqualTo(Outcome.Status.SUSPENDED);
            assertThat(id.requiredCapabilities()).containsExactly("process.run(/usr/bin/id)");
            assertThat(s.submit(Submission.of("1 2 +", "after")).status()).isEqualTo(Outcome.Status.COMPLETED);
        }
    }

    @Test
    void aConcreteRequirementIsStillApproved() {
        Session s = FINCH.newSession();
        Outcome paused = lisp(s, "(process-run \"/bin/true\" (empty-list string))");
        assertThat(paused.requiredCapabilities()).containsExactly("process.run(/bin/true)");
        assertThat(s.approve(paused.executionId(), Scope.ONCE).status()).isEqualTo(Outcome.Status.COMPLETED);
    }
}
