package dev.finch.all;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import javax.script.Invocable;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;
import org.junit.jupiter.api.Test;

/**
 * Runs against finch-all's jar alone (the build takes finch-core, finch-jsr223 and their libraries off the class path):
 * programs of all three languages run — ANTLR (the Co-Forth and µNorman lexers), ASM (the compiler), the collections and
 * Jackson (the outcome JSON) working from their relocated packages — the javax.script engines are found by name, and no
 * library is visible under its own name.
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

    @Test
    void theScriptEnginesAreFoundInTheSelfContainedJar() throws ScriptException, NoSuchMethodException {
        ScriptEngineManager manager = new ScriptEngineManager();
        ScriptEngine finch = manager.getEngineByName("finch");
        assertThat(finch).as("the finch engine, registered by the jar's merged META-INF/services").isNotNull();
        assertThat(finch.getClass().getProtectionDomain().getCodeSource().getLocation().getPath()).contains("finch-all");
        // The engine's version is the jar's Implementation-Version (finch-all's manifest), not "development".
        assertThat(finch.getFactory().getEngineVersion()).isEqualTo(Finch.class.getPackage().getImplementationVersion()).isNotNull();
        finch.put("n", 20);
        assertThat(finch.eval("(define (twice x) (* 2 x)) (+ (twice n) 2)")).isEqualTo(42L);
        assertThat(((Invocable) finch).invokeFunction("twice", 7L)).isEqualTo(14L);
        assertThat(manager.getEngineByName("finch-forth").eval("6 7 *")).isEqualTo(42L);
        assertThat(manager.getEngineByExtension("nm")).as("finch-norman by extension").isNotNull();
    }
}
