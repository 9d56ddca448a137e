package dev.finch.all;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * Runs against finch-all's jar alone (the build takes finch-core and its libraries off the class path): programs of
 * all three languages run — ANTLR (the Co-Forth and µNorman lexers), ASM (the compiler), the collections and Jackson
 * (the outcome JSON) working from their relocated packages — and no library is visible under its own name.
 */
class ShadedJarTest {
    @Test
    void programsRunFromTheSelfContainedJar() {
        try (Finch finch = Finch.create()) {
            Session s = finch.newSession();
            Outcome lisp = s.submit(Submission.of("(define (square x) (* x x)) (say (int-to-string (square 7)))", "a.lisp"));
            assertThat(lisp.status()).as(FinchJson.write(lisp)).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(lisp.output()).isEqualTo("49");
            Outcome forth = s.submit(Submission.of("3 square [ 1 2 3 ] list-length", "b.fth"));
            assertThat(forth.status()).as(FinchJson.write(forth)).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(forth.values().get(1).display()).isEqualTo("3");
            Outcome norman = s.submit(Submission.of("(define twice (x) (* 2 x))", "c.nm").withLanguage(Language.NORMAN));
            assertThat(norman.status()).as(FinchJson.write(norman)).isEqualTo(Outcome.Status.COMPLETED);
            // A json word takes Jackson's (relocated) JsonNode: the index of the word declarations names its method's
            // parameter types, so they must be relocated with it — interpreted (a handle) and compiled (invokestatic).
            Outcome json = finch.newSession().submit(Submission.of("\"{\\\"a\\\": 2}\" json-parse result-unwrap \"a\" json-get unwrap json-as-int unwrap"
                    + " : a-of ( string -- int ) json-parse result-unwrap \"a\" json-get unwrap json-as-int unwrap ; \"{\\\"a\\\": 5}\" a-of", "d.fth"));
            assertThat(json.status()).as(FinchJson.write(json)).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(json.values()).extracting(v -> v.display()).containsExactly("2", "5");
            // Jackson writes the D4 JSON, from its relocated package.
            assertThat(FinchJson.write(forth)).contains("\"status\":\"completed\"");
        }
    }

    @Test
    void theLibrariesAreInsideUnderDevFinchShaded() throws ClassNotFoundException {
        for (String name : new String[] {"com.fasterxml.jackson.databind.ObjectMapper", "org.antlr.v4.runtime.Lexer",
                "org.objectweb.asm.ClassWriter", "io.vavr.collection.Vector", "com.cronutils.parser.CronParser"}) {
            assertThatThrownBy(() -> Class.forName(name)).as(name).isInstanceOf(ClassNotFoundException.class);
        }
        Class.forName("dev.finch.shaded.jackson.databind.ObjectMapper");
        Class.forName("dev.finch.shaded.asm.ClassWriter");
        Class.forName("dev.finch.shaded.antlr.v4.runtime.Lexer");
        Class.forName("dev.finch.shaded.vavr.collection.Vector");
        Class.forName("dev.finch.shaded.cronutils.parser.CronParser");
        assertThat(Finch.class.getProtectionDomain().getCodeSource().getLocation().getPath()).contains("finch-all");
    }
}
