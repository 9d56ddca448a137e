package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import java.util.List;
import java.util.Optional;

/**
 * Runs an executable directly with an argument list — never through a shell: the binding {@code process-run} reaches
 * once the boundary has authorized {@code process.run(EXECUTABLE)}. The default is {@link LocalProcessHost}; an
 * embedder installs its own (a sandbox, a container, a remote runner, a recorder in a test) through
 * {@code SessionOptions.withProcessHost} or {@code Finch.Builder.processHosts}. The executable is an absolute path
 * a grant can name, and each argument reaches the program verbatim (no NUL). Failures are {@link HostFailure}s,
 * usually {@link HostCode#PROCESS}; a run calls its host from one thread at a time, but an instance installed on
 * several sessions is called by all of them.
 */
public interface ProcessHost {
    /** The result of a finished process. */
    record Completed(int exit, String stdout, String stderr) { }


    /** Runs {@code executable} with {@code arguments} to its end (within the host's own bounds). */
    Completed run(String executable, List<String> arguments) throws HostFailure;

    /**
     * Runs {@code executable} for a run that may stop meanwhile: a host that can end its process early does so as
     * soon as {@code watch} answers, and then fails with any {@link HostFailure} — the run reports its own stop
     * ({@code E-RUN-001} cancelled, {@code E-LIMIT-002} deadline), not the host's message. {@code process-run}
     * always calls this method; the default ignores {@code watch} and calls {@link #run(String, List)}, so such a
     * host keeps the run waiting until its process ends (the run's own deadline still applies afterwards).
     */
    default Completed run(String executable, List<String> arguments, dev.finch.vm.boundary.Watch watch) throws HostFailure {
        return run(executable, arguments);
    }
}
