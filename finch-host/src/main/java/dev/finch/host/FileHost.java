package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import java.io.Reader;
import java.util.List;

/**
 * File operations on canonical, root-relative paths: the binding every file word of a run reaches once the boundary
 * has authorized it. The default is {@link LocalFileHost}; an embedder installs its own (an in-memory tree, a remote
 * store, a wrapper that audits or meters the local one) through {@code SessionOptions.withFileHost} or
 * {@code Finch.Builder.fileHosts}.
 *
 * <p>What an implementation may rely on: every {@link ConcretePath} is canonical — a {@link Root} and literal segments,
 * never {@code ..}, {@code .}, an absolute name, a wildcard or NUL — and the concrete {@code fs.read}/{@code fs.write}
 * requirement of the call was granted or approved; a method is called at most once per request and only for a root
 * {@link #installed} says it serves. What it must still do: refuse anything that would leave the root in its own
 * storage (a symlink, a race), and report every failure as a {@link HostFailure} with the matching {@link HostCode}
 * ({@code NOT_FOUND}, {@code UNSUPPORTED_FILE}, {@code ESCAPE}, {@code TOO_LARGE}, {@code IO}, …), which the run shows
 * as a {@code host} diagnostic. A run calls its host from one thread at a time, but one instance installed on several
 * sessions is called by all of them, so such an instance must be thread-safe.
 */
public interface FileHost {
    /**
     * True when this host serves {@code root}. Installing a root is availability, never a grant (contract, "Hosts may
     * also install root&lt;project&gt; …"): a file word over a root that is not installed fails with {@code E-HOST-002}
     * before any request is made or approval asked, and a granted one still needs its own concrete grant.
     */
    boolean installed(Root root);

    /** The bytes of a regular file; more than {@code maxBytes} is {@link HostCode#TOO_LARGE}. */
    byte[] read(ConcretePath path, long maxBytes) throws HostFailure;

    /** Replaces a regular file's bytes, creating the file when it does not exist (its directory must). */
    void write(ConcretePath path, byte[] data) throws HostFailure;

    /** A regular file's size in bytes. */
    long size(ConcretePath path) throws HostFailure;

    /** Up to {@code length} bytes from {@code offset}; shorter (or empty) at the end of the file. */
    byte[] slice(ConcretePath path, long offset, int length) throws HostFailure;

    /** Entries under a directory, depth-first in sorted order, at most {@code max}; symlinks are never followed. */
    Listing list(ConcretePath directory, int max) throws HostFailure;

    /** A strict UTF-8 reader of a regular file. */
    Reader open(ConcretePath path) throws HostFailure;

    /** The raw bytes of a regular file, as a stream (line streams decode each line strictly by themselves). */
    java.io.InputStream openBytes(ConcretePath path) throws HostFailure;

    /** One listed entry: its root-relative path, kind ({@code file} or {@code dir}) and size in bytes. */
    record Entry(String path, String kind, long size) { }

    /** A bounded listing. */
    record Listing(List<Entry> entries, boolean truncated) { }
}
