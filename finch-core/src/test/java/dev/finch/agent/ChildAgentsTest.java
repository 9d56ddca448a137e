package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child agents end to end with the scripted provider: spawn, poll, await, cancel, in Lisp and Co-Forth. */
class ChildAgentsTest {
    @TempDir Path ws;
    private Finch finch;

    private static final String SCRIPT = """
            ## role reader
            >>> program lisp
            (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok s s) (err e e)))
            >>> final
            reader saw: {{output}}
            ## role snoop
            >>> program forth
            "secret/key.txt" path file-read drop
            >>> final
            snoop: {{status}} {{codes}}
            ## role sum
            >>> program forth
            2 3 + int-to-string say
            >>> final
            sum is {{output}}
            ## role *
            >>> final
            nothing to do
            """;

    private Session session(String... grants) throws Exception {
        Files.createDirectories(ws.resolve("public"));
        Files.createDirectories(ws.resolve("secret"));
        Files.writeString(ws.resolve("public/a.txt"), "hello");
        Files.writeString(ws.resolve("secret/key.txt"), "k");
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("script", "scripted", ScriptedProvider.parse(SCRIPT)))).build();
        return finch.newSession(new SessionOptions(java.util.Optional.of(ws), List.of(grants)));
    }

    @AfterEach void close() { if (finch != null) finch.close(); }

    private static Outcome run(Session s, String src, Language l) {
        Outcome o = s.submit(Submission.of(src, "test").withLanguage(l));
        return s.awaitTasks(o);
    }

    @Test void aLispParentSpawnsTwoChildrenWithDifferentGrantsAndAwaitsBoth() throws Exception {
        Session s = session("agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)", "fs.read(${workspace}/secret/**)");
        Outcome o = run(s, """
                (define grants (capability-list))
                (define (only [needle : string])
                  (list-map (list-filter grants (lambda (g) (match g (record ((capability c)) (string-contains c needle)))))
                            (lambda (g) (match g (record ((grant r)) r)))))
                (define (spec [role : string] [caps : list<resource<capability-grant>>])
                  { :task (string-append "read as " role) :role role :background "" :provider "" :model ""
                    :context-refs (empty-list record{id:string,kind:string,sha256:string}) :capabilities caps
                    :max-turns 4 :timeout-ms 20000 :max-output-bytes 4096 })
                (define a (agent-spawn-with (spec "reader" (only "public"))))
                (define b (agent-spawn-with (spec "snoop" (only "public"))))
                (define ra (agent-await a))
                (define rb (agent-await b))
                (match ra (record ((final-message m) (status st)) (begin (say m) (say "\\n") (say st) (say "\\n"))))
                (match rb (record ((final-message m) (status st)) (begin (say m) (say "\\n") (say st))))
                """, Language.LISP);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("reader saw: hello\ncompleted\nsnoop: failed E-HOST-001\ncompleted");
    }
}
