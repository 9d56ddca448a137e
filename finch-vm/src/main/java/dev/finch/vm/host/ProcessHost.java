package dev.finch.vm.host;

import java.util.List;

/** Runs an executable directly with an argument list — never through a shell. The default is {@link LocalProcessHost}. */
public interface ProcessHost {
    /** The result of a finished process. */
    record Completed(int exit, String stdout, String stderr) { }

    Completed run(String executable, List<String> arguments) throws HostFailure;
}
