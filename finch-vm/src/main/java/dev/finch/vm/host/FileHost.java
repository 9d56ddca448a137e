package dev.finch.vm.host;

import dev.finch.capabilities.ConcretePath;
import java.io.Reader;
import java.util.List;

/**
 * File operations on canonical, root-relative paths. Authorization already happened at the boundary; an
 * implementation must still refuse anything that leaves the root on disk (symlinks, races). The default is
 * {@link LocalFileHost}.
 */
public interface FileHost {
    byte[] read(ConcretePath path, long maxBytes) throws HostFailure;

    void write(ConcretePath path, byte[] data) throws HostFailure;

    long size(ConcretePath path) throws HostFailure;

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
