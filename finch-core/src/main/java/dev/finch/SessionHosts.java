package dev.finch;

import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.host.LocalFileHost;
import dev.finch.host.LocalProcessHost;
import dev.finch.host.ProcessHost;
import dev.finch.vm.boundary.Watch;
import java.io.InputStream;
import java.io.Reader;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which file and process hosts a session dispatches to (its own options' first, then the builder's factories, then
 * Finch's local bindings), and the guard every embedder-supplied host is wrapped in: a binding's exception or
 * malformed answer becomes the operation's {@code host} diagnostic ({@code E-HOST-005} for files, {@code E-HOST-010}
 * for processes) instead of an internal error, and an answer over the bound the run asked for is refused.
 */
final class SessionHosts {
    private SessionHosts() { }

    /** Bytes each captured stream of a local process may hold. */
    static final int LOCAL_PROCESS_OUTPUT = 8 << 20;

    /** The session's file host, or null when it has none (no host given and no root installed). */
    static FileHost files(SessionOptions options, Function<? super SessionOptions, ? extends FileHost> factory) {
        if (options.fileHost().isPresent()) return new GuardedFiles(options.fileHost().get());
        if (factory != null) return new GuardedFiles(Objects.requireNonNull(factory.apply(options), "Finch.Builder.fileHosts answered null"));
        return options.roots().isEmpty() ? null : new LocalFileHost(options.roots());
    }

    /**
     * The session's process host: always one, the local one working in the workspace (its children getting
     * {@code environment} over the allowlist) unless the embedder gives another.
     */
    static ProcessHost processes(SessionOptions options, Function<? super SessionOptions, ? extends ProcessHost> factory, Duration timeout,
                                 java.util.Map<String, String> environment) {
        if (options.processHost().isPresent()) return new GuardedProcesses(options.processHost().get());
        if (factory != null) return new GuardedProcesses(Objects.requireNonNull(factory.apply(options), "Finch.Builder.processHosts answered null"));
        return new LocalProcessHost(options.workspace().orElse(null), timeout, LOCAL_PROCESS_OUTPUT, environment);
    }

    /** What a diagnostic says of an embedder host's exception: nothing of it (it goes to the host's log). */
    private static String what(RuntimeException e) {
        dev.finch.vm.boundary.HostText.log("an embedder's host threw", e);
        return "the host's code stopped with an error (the host's log has it)";
    }

    @FunctionalInterface
    private interface Call<T> { T run() throws HostFailure; }

    /** An embedder's file host, held to the SPI's contract. */
    private record GuardedFiles(FileHost host) implements FileHost {
        private <T> T guard(String operation, ConcretePath path, Call<T> call) throws HostFailure {
            T value;
            try {
                value = call.run();
            } catch (RuntimeException e) {
                throw new HostFailure(HostCode.IO, "the file host failed to " + operation + " " + path + ": " + what(e));
            }
            if (value == null) throw new HostFailure(HostCode.IO, "the file host answered nothing to " + operation + " " + path);
            return value;
        }

        /** A host that cannot tell fails closed: the root is treated as not installed. */
        @Override public boolean installed(Root root) {
            try {
                return host.installed(root);
            } catch (RuntimeException e) {
                return false;
            }
        }

        @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
            byte[] b = guard("read", path, () -> host.read(path, maxBytes));
            if (b.length > maxBytes) throw new HostFailure(HostCode.TOO_LARGE, path + " has " + b.length + " bytes, over the bound of " + maxBytes);
            return b;
        }

        @Override public void write(ConcretePath path, byte[] data) throws HostFailure {
            guard("write", path, () -> {
                host.write(path, data);
                return Boolean.TRUE;
            });
        }

        @Override public long size(ConcretePath path) throws HostFailure {
            long n = guard("size", path, () -> host.size(path));
            if (n < 0) throw new HostFailure(HostCode.IO, "the file host answered a negative size for " + path);
            return n;
        }

        @Override public byte[] slice(ConcretePath path, long offset, int length) throws HostFailure {
            byte[] b = guard("slice", path, () -> host.slice(path, offset, length));
            if (b.length > length) throw new HostFailure(HostCode.IO, "the file host answered " + b.length + " bytes for a slice of " + length);
            return b;
        }

        @Override public Listing list(ConcretePath directory, int max) throws HostFailure {
            Listing l = guard("list", directory, () -> host.list(directory, max));
            if (l.entries() == null || l.entries().size() > max) {
                throw new HostFailure(HostCode.IO, "the file host answered a listing of " + directory + " that is missing or longer than " + max);
            }
            for (Entry e : l.entries()) {
                if (e == null || e.path() == null || !("file".equals(e.kind()) || "dir".equals(e.kind()))) {
                    throw new HostFailure(HostCode.IO, "the file host answered a malformed entry listing " + directory);
                }
            }
            return l;
        }

        @Override public Reader open(ConcretePath path) throws HostFailure { return guard("open", path, () -> host.open(path)); }

        @Override public InputStream openBytes(ConcretePath path) throws HostFailure { return guard("open", path, () -> host.openBytes(path)); }
    }

    /** An embedder's process host, held to the SPI's contract. */
    private record GuardedProcesses(ProcessHost host) implements ProcessHost {
        @Override public Completed run(String executable, java.util.List<String> arguments) throws HostFailure {
            return run(executable, arguments, Watch.NONE);
        }

        @Override public Completed run(String executable, java.util.List<String> arguments, Watch watch) throws HostFailure {
            Completed c;
            try {
                c = host.run(executable, java.util.List.copyOf(arguments), watch);
            } catch (RuntimeException e) {
                throw new HostFailure(HostCode.PROCESS, "the process host failed to run " + executable + ": " + what(e));
            }
            if (c == null || c.stdout() == null || c.stderr() == null) {
                throw new HostFailure(HostCode.PROCESS, "the process host answered no complete result for " + executable);
            }
            return c;
        }
    }
}
