package dev.finch.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** A command of decisions D2 that a later issue delivers: it says so plainly and exits 2, whatever it is given. */
@Command(mixinStandardHelpOptions = false)
final class LaterCommand implements Callable<Integer> {
    private final Io io;
    private final String name;
    private final String what;
    private final int issue;

    @Unmatched
    List<String> ignored = new ArrayList<>();

    LaterCommand(Io io, String name, String what, int issue) {
        this.io = io;
        this.name = name;
        this.what = what;
        this.issue = issue;
    }

    @Override public Integer call() {
        io.err().println("finch " + name + ": not available in this build yet (" + what + " arrives with issue " + issue + ")");
        io.err().flush();
        return Main.EXIT_USAGE;
    }
}
