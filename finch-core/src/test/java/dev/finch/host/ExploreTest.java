package dev.finch.host;

import static dev.finch.host.HostFixture.*;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import dev.finch.vm.host.HostResponse;
import dev.finch.vm.value.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExploreTest {
    @TempDir Path tmp;

    void show(String label, Object o) { System.out.println("### " + label + " -> " + o); }

    @Test void explore() throws Exception {
        Path ws = tmp.resolve("ws");
        Files.createDirectories(ws);
        writeFile(ws.resolve("a.txt"), "hello");
        Session s = session(ws, READ_ALL, WRITE_ALL, "process.run(/usr/bin/printf)");
        show("def", lisp(s, "(define (probe [t : string]) (file-size (path t)))"));
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 500; i++) { lisp(s, "(say (int-to-string (probe \"a.txt\")))"); }
            show("probe ms/run", (System.nanoTime() - t0) / 500 / 1e6);
            t0 = System.nanoTime();
            for (int i = 0; i < 500; i++) { lisp(s, readAndSay("a.txt")); }
            show("read ms/run", (System.nanoTime() - t0) / 500 / 1e6);
            t0 = System.nanoTime();
            for (int i = 0; i < 500; i++) { forth(s, "\"a.txt\" path file-size drop"); }
            show("forth ms/run", (System.nanoTime() - t0) / 500 / 1e6);
        }
        show("proc", lisp(s, "(say (show (process-run \"/usr/bin/printf\" (list \"<%s>\" \"a b\" \"$(x)\"))))"));
        show("tree", lisp(s, "(say (show (tree-list (path \".\") 10)))"));
        show("slice", lisp(s, "(say (show (file-slice (path \"a.txt\") 1 3)))"));
        show("summary", lisp(s, write("c.csv", "n,v\n1,x\n3,\n") + "(say (show (csv-summary (path \"c.csv\") 10)))"));
        show("lines", lisp(s, "(let ((st (file-lines-open (path \"a.txt\")))) (say (show (stream-next st))) (stream-close st) (say (show (stream-next st))))"));
        show("leave stream", lisp(s, "(file-lines-open (path \"a.txt\"))"));
        show("use stream", forth(s, "stream-next"));
        show("surrogate", lisp(s, readAndSay("\ud800")));
        show("neg", lisp(s, "(file-slice (path \"a.txt\") -1 3)"));
    }
}
