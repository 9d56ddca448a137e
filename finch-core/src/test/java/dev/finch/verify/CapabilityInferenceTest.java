package dev.finch.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * Issue 6 item 2: requirements are inferred transitively; argument-dependent file requirements are templates
 * instantiated at call sites with known arguments (else the conservative bound stands); declarations are checked
 * with sound containment, and a pure declaration cannot hide a capability-bearing call.
 */
class CapabilityInferenceTest {
    private final Finch finch = Finch.create();

    private CheckResult check(String source) { return finch.newSession().check(Submission.of(source, "t")); }

    @Test void aLiteralPathInstantiatesTheTemplate() {
        assertThat(check("(file-read (path \"notes/n.txt\"))").inferredCapabilities()).containsExactly("fs.read(${workspace}/notes/n.txt)");
        assertThat(check("\"notes/n.txt\" path dup drop file-size").inferredCapabilities()).containsExactly("fs.read(${workspace}/notes/n.txt)");
        assertThat(check("(let ((p (path \"a/b\"))) (file-write p (string-to-bytes \"x\")))").inferredCapabilities())
                .containsExactly("fs.write(${workspace}/a/b)");
        assertThat(check("\"src\" path 10 tree-list").inferredCapabilities()).containsExactly("fs.read(${workspace}/src/**)");
    }

    @Test void anUnknownPathKeepsTheBound() {
        // The word's requirement is a template over its parameter; computed text leaves the argument unknown.
        CheckResult r = check(": rd ( string -- bytes ! {fs.read(${workspace}/**)} ) path file-read ; \"a\" \"b\" string-append rd drop");
        assertThat(r.inferredCapabilities()).containsExactly("fs.read(${workspace}/**)");
    }

    @Test void functionsMadeInTheProgramAddNothingBeyondTheirBodies() {
        // The closure's type declares the bound; its body needs only the instantiated path, and no function value
        // comes from outside the program, so the preview is the call site's.
        CheckResult closed = check("[: ( -- bytes ! {fs.read(${workspace}/**)} ) \"a.txt\" path file-read ;] execute drop");
        assertThat(closed.inferredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        assertThat(check("[: ( -- int ) 1 ;] execute").inferredCapabilities()).isEmpty();
        // A function from the session's stack is executed as its type says.
        var s = finch.newSession();
        assertThat(s.submit(Submission.of("[: ( -- bytes ! {fs.read(${workspace}/**)} ) \"a.txt\" path file-read ;]", "t")))
                .isInstanceOf(dev.finch.Outcome.Completed.class);
        assertThat(s.check(Submission.of("execute drop", "t")).inferredCapabilities()).containsExactly("fs.read(${workspace}/**)");
    }

    @Test void aNormanProgramsPreviewIsItsAsksAndCallsOnly() {
        var norman = Submission.of("(define f (x) (catch (if (> x 0) x (fail 'neg)) e 0)) (par (f 1) (f 2))", "t.nm")
                .withLanguage(dev.finch.Language.NORMAN);
        assertThat(finch.newSession().check(norman).inferredCapabilities()).isEmpty();
        var agent = Submission.of("(grant gpt (model)) (define a () (ask gpt Num (list (Message [role User] [content \"n?\"])))) (retry 1 a)", "t.nm")
                .withLanguage(dev.finch.Language.NORMAN);
        assertThat(finch.newSession().check(agent).inferredCapabilities()).containsExactly("model.ask(gpt)");
    }

    @Test void aLiteralThatEscapesItsRootIsRefusedBeforeRunning() {
        CheckResult r = check("(file-read (path \"../../etc/passwd\"))");
        assertThat(r.status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(r.diagnostics().get(0).code()).isEqualTo("E-CAP-005");
        assertThat(r.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
    }

    @Test void declarationsAreCheckedWithContainment() {
        assertThat(check(": notes ( -- bytes ! {fs.read(${workspace}/notes/**)} ) \"notes/a.txt\" path file-read ;").status())
                .isEqualTo(CheckResult.Status.OK);
        CheckResult outside = check(": notes ( -- bytes ! {fs.read(${workspace}/notes/**)} ) \"secrets/a.txt\" path file-read ;");
        assertThat(outside.diagnostics().get(0).code()).isEqualTo("E-VERIFY-025");
        CheckResult pure = check(": sneaky ( -- bytes ) \"a\" path file-read ;");
        assertThat(pure.diagnostics().get(0).code()).isEqualTo("E-VERIFY-025");
    }

    @Test void requirementsComposeThroughCalls() {
        CheckResult r = check(": inner ( -- bytes ! {fs.read(${workspace}/**)} ) \"x\" path file-read ; : outer ( -- bytes ! {fs.read(${workspace}/**)} ) inner ; outer drop");
        assertThat(r.inferredCapabilities()).containsExactly("fs.read(${workspace}/x)");
        assertThat(r.definitions()).anySatisfy(d -> assertThat(d.signature()).contains("fs.read(${workspace}/x)"));
    }
}
