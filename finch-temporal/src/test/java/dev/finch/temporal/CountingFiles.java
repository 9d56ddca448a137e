package dev.finch.temporal;

import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.host.LocalFileHost;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local file host of a workspace, counting the reads it actually performs — in memory, and with a log file also on
 * disk (one line per read, naming the process), so that the worker processes of {@link ClusterFailoverTest} count into
 * one place.
 */
final class CountingFiles implements FileHost {
    private final LocalFileHost files;
    private final Path log;
    final AtomicInteger reads = new AtomicInteger();

    CountingFiles(Path workspace) { this(workspace, null); }

    /** Counting into {@code log} too: each read appends {@code read <path> by <pid>}. */
    CountingFiles(Path workspace, Path log) {
        this.files = LocalFileHost.workspace(workspace);
        this.log = log;
    }

    @Override public boolean installed(Root root) { return files.installed(root); }
    @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
        reads.incrementAndGet();
        if (log != null) {
            try {
                java.nio.file.Files.writeString(log, "read " + path + " by " + ProcessHandle.current().pid() + "\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND, java.nio.file.StandardOpenOption.SYNC);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return files.read(path, maxBytes);
    }
    @Override public void write(ConcretePath path, byte[] data) throws HostFailure { files.write(path, data); }
    @Override public long size(ConcretePath path) throws HostFailure { return files.size(path); }
    @Override public byte[] slice(ConcretePath path, long offset, int length) throws HostFailure { return files.slice(path, offset, length); }
    @Override public Listing list(ConcretePath directory, int max) throws HostFailure { return files.list(directory, max); }
    @Override public Reader open(ConcretePath path) throws HostFailure { return files.open(path); }
    @Override public InputStream openBytes(ConcretePath path) throws HostFailure { return files.openBytes(path); }
}
