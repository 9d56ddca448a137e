package dev.finch.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 2: a definition's capabilities are templates over its parameters — inferred, and spellable in a
 * signature — so a call site with a known argument previews the concrete requirement, composed through calls and
 * across submissions, while an unknown argument, a function value and a narrower declared bound stay as they were.
 */
class CapabilityTemplatesTest {
    @TempDir
    Path workspace;

    private final Finch finch = Finch.create();

    private CheckResult check(String source) { return finch.newSession().check(Submission.of(source, "t")); }

    private CheckResult lisp(String source) { return finch.newSession().check(Submission.of(source, "t").withLanguage(Language.LISP)); }

    private static String signature(CheckResult r, String word) {
        return r.definitions().stream().filter(d -> d.name().equals(word)).findFirst().orElseThrow().signature();
    }

    @Test void aWordThatPassesItsParameterToAFileWordHasATemplateAndItsCallSiteThePath() {
        CheckResult r = check(": load-doc ( string -- bytes ! {fs.read(${workspace}/**)} ) path file-read ;\n\"docs/a.md\" load-doc drop");
        assertThat(r.status()).isEqualTo(CheckResult.Status.OK);
        assertThat(signature(r, "load-doc")).isEqualTo("string -> bytes ! {fs.read(${workspace}/$0)}");
        assertThat(r.inferredCapabilities()).containsExactly("fs.read(${workspace}/docs/a.md)");
        // Inferred without a declaration, and in Lisp.
        assertThat(check(": load-doc path file-read ; \"docs/a.md\" load-doc drop").inferredCapabilities())
                .containsExactly("fs.read(${workspace}/docs/a.md)");
        CheckResult l = lisp("(define (load-doc [p : string]) (file-read (path p))) (load-doc \"docs/a.md\")");
        assertThat(signature(l, "load-doc")).isEqualTo("string -> bytes ! {fs.read(${workspace}/$0)}");
        assertThat(l.inferredCapabilities()).containsExactly("fs.read(${workspace}/docs/a.md)");
    }

    @Test void aTemplateIsSpellableInASignatureInBothLanguages() {
        CheckResult forth = check(": load-doc ( string -- bytes ! {fs.read(${workspace}/$0)} ) path file-read ;\n\"a.md\" load-doc drop");
        assertThat(forth.status()).isEqualTo(CheckResult.Status.OK);
        assertThat(forth.inferredCapabilities()).containsExactly("fs.read(${workspace}/a.md)");
        CheckResult lisp = lisp("(define (load-doc [p : string]) : bytes ! {fs.read(${workspace}/$0)} (file-read (path p))) (load-doc \"a.md\")");
        assertThat(lisp.status()).as("%s", lisp.diagnostics()).isEqualTo(CheckResult.Status.OK);
        assertThat(signature(lisp, "load-doc")).isEqualTo("string -> bytes ! {fs.read(${workspace}/$0)}");
        assertThat(lisp.inferredCapabilities()).containsExactly("fs.read(${workspace}/a.md)");
        // A declared template covers its own instantiations only: a word that also reads a fixed file must say so.
        CheckResult more = check(": two ( string -- bytes bytes ! {fs.read(${workspace}/$0)} ) path file-read \"x\" path file-read ;");
        assertThat(more.diagnostics()).extracting(d -> d.code()).containsExactly("E-VERIFY-025");
    }

    @Test void aNarrowerBoundIsStillRefusedAndTheDiagnosticNamesTheTemplate() {
        CheckResult r = check(": load-doc ( string -- bytes ! {fs.read(${workspace}/docs/**)} ) path file-read ;");
        assertThat(r.diagnostics()).hasSize(1);
        assertThat(r.diagnostics().get(0).code()).isEqualTo("E-VERIFY-025");
        assertThat(r.diagnostics().get(0).found()).isEqualTo("fs.read(${workspace}/$0)");
        assertThat(r.diagnostics().get(0).message()).contains("declare that template").contains("or its bound fs.read(${workspace}/**)");
    }

    @Test void templatesComposeThroughCalls() {
        CheckResult r = check(": load-doc path file-read ; : load-pair swap load-doc swap load-doc ;\n"
                + "\"a.md\" \"b.md\" load-pair drop drop");
        assertThat(signature(r, "load-pair")).isEqualTo("string string -> bytes bytes ! {fs.read(${workspace}/$0),fs.read(${workspace}/$1)}");
        assertThat(r.inferredCapabilities()).containsExactly("fs.read(${workspace}/a.md)", "fs.read(${workspace}/b.md)");
        // Through a Lisp local and a word of another root.
        CheckResult host = lisp("(define (peek [p : string]) (let ((hp (host-path p))) (host-file-read hp))) (peek \"etc/motd\")");
        assertThat(signature(host, "peek")).isEqualTo("string -> bytes ! {fs.read(${host-machine}/$0)}");
        assertThat(host.inferredCapabilities()).containsExactly("fs.read(${host-machine}/etc/motd)");
    }

    @Test void anUnknownArgumentOrAFunctionValueLeavesTheBound() {
        assertThat(check(": load-doc path file-read ; \"a\" \"b\" string-append load-doc drop").inferredCapabilities())
                .containsExactly("fs.read(${workspace}/**)");
        assertThat(check(": load-doc path file-read ; \"a.md\" ['] load-doc execute drop").inferredCapabilities())
                .containsExactly("fs.read(${workspace}/**)");
        // A literal its refinement refuses makes nothing concrete: the word's own path refusal is at run time.
        assertThat(check(": load-doc path file-read ; \"../x\" load-doc drop").inferredCapabilities()).containsExactly("fs.read(${workspace}/**)");
    }

    @Test void otherCapabilitiesTemplateTheirNames() {
        CheckResult r = check(": run empty-list<string> process-run ; \"/bin/echo\" run drop");
        assertThat(signature(r, "run")).endsWith("! {process.run($0)}");
        assertThat(r.inferredCapabilities()).containsExactly("process.run(/bin/echo)");
        assertThat(check(": run empty-list<string> process-run ; \"/bin/\" \"ls\" string-append run drop")
                .inferredCapabilities()).containsExactly("process.run(**)");
    }

    @Test void aMalformedTemplateIsRefused() {
        for (String sig : new String[] {
                "( string -- bytes ! {fs.read($0)} )",                 // a path slot names its root
                "( string -- bytes ! {fs.read(${workspace}/$1)} )",    // there is no parameter 1
                "( int -- bytes ! {fs.read(${workspace}/$0)} )",       // an int is no path
                "( string -- bytes ! {fs.read(${nowhere}/$0)} )",      // no such root
                "( string -- bytes ! {fs.read(${workspace}/docs/$0)} )"}) {
            CheckResult r = check(": w " + sig + " drop \"a\" path file-read ;");
            assertThat(r.diagnostics()).as(sig).extracting(d -> d.code()).contains("E-VERIFY-031");
        }
        // A function value's type states the bound: a closure's declared type cannot name a parameter.
        assertThat(check("[: ( string -- bytes ! {fs.read(${workspace}/$0)} ) path file-read ;] drop").diagnostics())
                .extracting(d -> d.code()).contains("E-VERIFY-031");
    }

    @Test void theDictionaryKeepsTheTemplateForLaterSubmissionsInEitherLanguage() throws IOException {
        Files.writeString(workspace.resolve("a.md"), "A");
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(workspace));
        assertThat(s.submit(Submission.of(": load-doc path file-read ;", "d.fth"))).isInstanceOf(Outcome.Completed.class);
        assertThat(s.check(Submission.of("\"a.md\" load-doc", "u.fth")).inferredCapabilities()).containsExactly("fs.read(${workspace}/a.md)");
        assertThat(s.check(Submission.of("(load-doc \"a.md\")", "u.lisp").withLanguage(Language.LISP)).inferredCapabilities())
                .containsExactly("fs.read(${workspace}/a.md)");
        // A Lisp function of a later submission that passes its own parameter on has a template too.
        CheckResult later = s.check(Submission.of("(define (again [p : string]) (load-doc p)) (again \"a.md\")", "v.lisp").withLanguage(Language.LISP));
        assertThat(signature(later, "again")).isEqualTo("string -> bytes ! {fs.read(${workspace}/$0)}");
        assertThat(later.inferredCapabilities()).containsExactly("fs.read(${workspace}/a.md)");
        // The run asks for exactly what the preview showed.
        Outcome o = s.submit(Submission.of("\"a.md\" load-doc", "u.fth"));
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.md)");
    }
}
