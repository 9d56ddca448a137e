package dev.finch.cli;

import dev.finch.SessionOptions;
import dev.finch.capabilities.Root;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The roots a session of {@code run} or {@code repl} installs, one option each. Installing a root is availability,
 * never a grant: each file operation under it still needs {@code --grant} or an approval. A path that is not a
 * directory is a usage error (exit 2), before anything runs.
 */
final class RootOptions {
    @Option(names = "--workspace", paramLabel = "DIR", description = "The workspace root for path values.")
    Path workspace;

    @Option(names = "--project", paramLabel = "DIR", description = "Install root<project> for project-path values (grants nothing).")
    Path project;

    @Option(names = "--task-output", paramLabel = "DIR", description = "Install root<task.output> for task-output-path values (grants nothing).")
    Path taskOutput;

    @Option(names = "--host-root", paramLabel = "DIR", description = "Install root<host-machine> for host-path values (grants nothing); keep it narrow.")
    Path hostRoot;

    /** {@code options} with every root given on the command line installed. */
    SessionOptions install(SessionOptions options) throws UsageException {
        options = install(options, Root.WORKSPACE, workspace, "workspace");
        options = install(options, Root.PROJECT, project, "project");
        options = install(options, Root.TASK_OUTPUT, taskOutput, "task output");
        return install(options, Root.HOST_MACHINE, hostRoot, "host root");
    }

    private static SessionOptions install(SessionOptions options, Root root, Path dir, String what) throws UsageException {
        if (dir == null) return options;
        if (!Files.isDirectory(dir)) throw new UsageException(what + " is not a directory: " + dir);
        return options.withRoot(root, dir);
    }
}
