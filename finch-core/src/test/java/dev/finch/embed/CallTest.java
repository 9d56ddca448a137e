package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 13, item 1: values in, a defined word called directly, typed values out. */
class CallTest {
    private final Finch finch = Finch.create();

    private Session withDefinitions(String program) {
        Session s = finch.newSession();
        assertThat(s.submit(Submission.of(program, "defs")).status()).isEqualTo(Outcome.Status.COMPLETED);
        return s;
    }

    @Test void callsALispDefinitionWithValuesAndReadsTypedResults() {
        Session s = withDefinitions("(define (square x) (* x x)) (define (greet name) (string-append \"hi \" name)) 5");
        long revision = s.vmRevision();
        Outcome o = s.call("square", Value.of(7));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).containsExactly(Value.of(49));
        assertThat(o.values().get(0).asLong()).isEqualTo(49);
        assertThat(s.call("greet", Value.of("ada")).values().get(0).asString()).isEqualTo("hi ada");
        // The session is untouched: its stack, its revision.
        assertThat(s.vmRevision()).isEqualTo(revision);
        assertThat(s.stack()).hasSize(1);
        assertThat(s.submit(Submission.of("(square 3)", "t")).values()).containsExactly(Value.of(5), Value.of(9));
    }

    @Test void callsCoForthWordsWithStructuredValues() {
        Session s = withDefinitions(": norm2 ( record{x:int,y:int} -> int ) dup \"x\" record-get unwrap dup * swap \"y\" record-get unwrap dup * + ;\n"
                + ": firsts ( list<string> -> option<string> ) 0 list-get ;");
        record Point(long x, long y) { }
        assertThat(s.call("norm2", Value.of(new Point(3, 4))).values()).containsExactly(Value.of(25));
        assertThat(s.call("firsts", Value.of(List.of("a", "b"))).values()).containsExactly(Value.some(Value.of("a")));
        assertThat(s.call("firsts", Value.list("string", List.of())).values()).containsExactly(Value.none("string"));
    }

    @Test void genericWordsAreInstantiatedByTheArguments() {
        Session s = withDefinitions("(define (pair-up x) (list x x))");
        assertThat(s.call("pair-up", Value.of("q")).values().get(0).type().toString()).isEqualTo("list<string>");
        assertThat(s.call("pair-up", Value.of(2.5)).values().get(0).asList()).containsExactly(Value.of(2.5), Value.of(2.5));
    }

    @Test void vocabularyWordsToo() {
        Session s = finch.newSession();
        assertThat(s.call("string-length", Value.of("héllo")).values()).containsExactly(Value.of(5));
        assertThat(s.call("+", Value.of(1.5), Value.of(2.0)).values()).containsExactly(Value.of(3.5));
        Outcome m = s.call("map-set", Value.map("string", "int", Map.of()), Value.of("k"), Value.of(1));
        assertThat(m.values().get(0).asMap()).containsEntry(Value.of("k"), Value.of(1));
    }

    @Test void mistakesAreDiagnosticsAndChangeNothing() {
        Session s = withDefinitions("(define (square x) (* x x))");
        Outcome unknown = s.call("cube", Value.of(2));
        assertThat(unknown.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(unknown.diagnostics().get(0).code()).isEqualTo("E-SESSION-007");
        Outcome arity = s.call("square", Value.of(2), Value.of(3));
        assertThat(arity.diagnostics().get(0).code()).isEqualTo("E-SESSION-007");
        assertThat(arity.diagnostics().get(0).expected()).isEqualTo("1");
        Outcome type = s.call("square", Value.of("two"));
        assertThat(type.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(type.diagnostics().get(0).code()).startsWith("E-VERIFY-");
        Outcome immediate = s.call("record-get", Value.of(1));
        assertThat(immediate.diagnostics().get(0).code()).isEqualTo("E-SESSION-007");
        Outcome trap = withDefinitions(": div0 ( int -> int ) 0 / ;").call("div0", Value.of(1));
        assertThat(trap.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(trap.diagnostics().get(0).phase().spelling()).isEqualTo("execute");
        assertThat(s.vmRevision()).isEqualTo(1);
    }

    @Test void aCallPassesTheHostBoundaryAndCanBeApproved(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.txt"), "data");
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(dir));
        s.submit(Submission.of("(define (slurp name) (file-read (path name)))", "defs"));
        Outcome paused = s.call("slurp", Value.of("a.txt"));
        assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(paused.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        Outcome done = s.approve(paused.executionId(), Scope.ONCE);
        assertThat(done.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.values().get(0).asBytes()).isEqualTo("data".getBytes());
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(s.stack()).isEmpty();
        // A call commits nothing, so a session that moved on while it waited does not make it stale.
        Outcome again = s.call("slurp", Value.of("a.txt"));
        assertThat(s.submit(Submission.of("1", "t")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.approve(again.executionId(), Scope.ONCE).values().get(0).asBytes()).isEqualTo("data".getBytes());
    }

    @Test void outcomeValuesMatchTheDisplayedStack() {
        Outcome o = finch.newSession().submit(Submission.of("1 2.5 \"s\" [ 1 2 ] 3 some true", "t"));
        assertThat(o.values()).hasSize(o.stack().size());
        for (int i = 0; i < o.values().size(); i++) {
            assertThat(o.values().get(i).display()).isEqualTo(o.stack().get(i).display());
            assertThat(o.values().get(i).type().toString()).isEqualTo(o.stack().get(i).type());
        }
        assertThat(o.values().get(4)).isEqualTo(Value.some(Value.of(3)));
        assertThat(o.values().get(3).as(List.class)).isEqualTo(List.of(1L, 2L));
        assertThat(Optional.of(o.values().get(5).asBoolean())).contains(true);
    }
}
