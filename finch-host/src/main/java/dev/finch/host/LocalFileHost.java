package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Files on the local disk under installed roots. Every operation walks from the root's real directory one
 * segment at a time through {@link SecureDirectoryStream} (openat-style, never following a link), so a symlink
 * anywhere in the path — including one swapped in during the check — is refused rather than followed
 * (reliability rows 13–14). Paths arrive already canonical: no {@code ..}, no absolute names, no NUL.
 *
 * <p>A regular file with more than one hard link is refused ({@code E-HOST-019}) and left out of listings: a hard
 * link is not a link the walk can decline to follow — it is the file itself under a second name, and that other name
 * may be outside the root ({@code ln /etc/secret workspace/x} where the file system allows it), so reading or writing
 * it would reach a file the root does not hold. The count comes from a path-based {@code stat} matched to the walked
 * entry by its file key (device and inode), so a name swapped between the two is refused too. A host whose roots
 * legitimately hold multiply-linked files (a build cache, a deduplicated store) opts in with
 * {@link #allowingHardLinks()}.
 */
public final class LocalFileHost implements FileHost {
    private final Map<Root, Path> roots;
    private final boolean hardLinks;

    /** Installs roots (installing a root is availability, not a grant); files with several hard links are refused. */
    public LocalFileHost(Map<Root, Path> roots) { this(roots, false); }

    private LocalFileHost(Map<Root, Path> roots, boolean hardLinks) {
        this.roots = new EnumMap<>(Root.class);
        this.roots.putAll(roots);
        this.hardLinks = hardLinks;
    }

    /**
     * This host, also serving regular files with more than one hard link — for roots whose files no name outside
     * them can reach (the host's own decision: Finch cannot see where a file's other names are).
     */
    public LocalFileHost allowingHardLinks() { return new LocalFileHost(roots, true); }

    /** True when files with several hard links are served ({@link #allowingHardLinks()}). */
    public boolean allowsHardLinks() { return hardLinks; }

    /** A host whose only root is the workspace. */
    public static LocalFileHost workspace(Path dir) { return new LocalFileHost(Map.of(Root.WORKSPACE, dir)); }

    /** The installed roots. */
    public Map<Root, Path> roots() { return Map.copyOf(roots); }

    @Override public boolean installed(Root root) { return roots.containsKey(root); }

    @FunctionalInterface
    private interface InDirectory<T> {
        /** {@code where} is the entry's path under the root's real directory, for the path-based link count only. */
        T apply(SecureDirectoryStream<Path> dir, Path name, Path where) throws IOException, HostFailure;
    }

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> WRITE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);

    /** Opens the directory holding {@code path}'s last segment, walking without following links (never creating one). */
    private <T> T inParent(ConcretePath path, InDirectory<T> action) throws HostFailure {
        Path root = roots.get(path.root());
        if (root == null) throw new HostFailure(HostCode.NOT_INSTALLED, path.root() + " is not installed on this host");
        List<String> segs = path.segments();
        if (segs.isEmpty()) throw new HostFailure(HostCode.UNSUPPORTED_FILE, "the root itself is a directory, not a file");
        List<DirectoryStream<Path>> opened = new ArrayList<>();
        try {
            Path real = root.toRealPath();
            DirectoryStream<Path> top = Files.newDirectoryStream(real);
            opened.add(top);
            if (!(top instanceof SecureDirectoryStream<Path> dir)) {
                throw new HostFailure(HostCode.IO, "this file system offers no race-free directory walk; refusing");
            }
            for (int i = 0; i < segs.size() - 1; i++) {
                Path seg = Path.of(segs.get(i));
                // Missing directories are not created: a path-based mkdir could land outside the root if a parent
                // were swapped for a symlink meanwhile, and the race-free walk has no mkdir. Writes need their directory.
                SecureDirectoryStream<Path> next = dir.newDirectoryStream(seg, LinkOption.NOFOLLOW_LINKS);
                opened.add(next);
                dir = next;
            }
            Path where = real;
            for (String seg : segs) where = where.resolve(seg);
            return action.apply(dir, Path.of(segs.get(segs.size() - 1)), where);
        } catch (HostFailure f) {
            throw f;
        } catch (NoSuchFileException e) {
            throw new HostFailure(HostCode.NOT_FOUND, "no such file or directory: " + path);
        } catch (NotDirectoryException e) {
            throw new HostFailure(HostCode.UNSUPPORTED_FILE, "a path segment is not a directory: " + path);
        } catch (FileSystemException e) {
            String reason = e.getReason() == null ? "" : e.getReason();
            if (reason.contains("symbolic") || reason.contains("Too many levels")) {
                throw new HostFailure(HostCode.ESCAPE, "a symlink in " + path + " is refused (links are never followed)");
            }
            throw new HostFailure(HostCode.IO, "cannot access " + path + ": " + reason);
        } catch (IOException e) {
            throw new HostFailure(HostCode.IO, "cannot access " + path + ": " + e.getClass().getSimpleName());
        } finally {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try { opened.get(i).close(); } catch (IOException ignored) { /* closing a directory handle */ }
            }
        }
    }

    private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name) throws IOException {
        return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    }

    private void requireRegular(SecureDirectoryStream<Path> dir, Path name, Path where, ConcretePath path) throws IOException, HostFailure {
        BasicFileAttributes a = attributes(dir, name);
        if (a.isSymbolicLink()) throw new HostFailure(HostCode.ESCAPE, "a symlink at " + path + " is refused (links are never followed)");
        if (!a.isRegularFile()) throw new HostFailure(HostCode.UNSUPPORTED_FILE, path + " is not a regular file");
        requireOneLink(a, where, path);
    }

    /** Refuses a regular file that more than one name reaches, unless the host opted in (see the class documentation). */
    private void requireOneLink(BasicFileAttributes walked, Path where, ConcretePath path) throws IOException, HostFailure {
        if (hardLinks) return;
        int links = links(walked, where);
        if (links == UNCOUNTABLE) throw new HostFailure(HostCode.IO, "this file system cannot count the hard links of " + path + "; refused");
        if (links == SWAPPED) throw new HostFailure(HostCode.ESCAPE, path + " changed while it was checked; refused");
        if (links > 1) {
            throw new HostFailure(HostCode.HARD_LINK, path + " has " + links + " hard links (another name, possibly outside the root, "
                    + "reaches the same file); refused");
        }
    }

    private static final int UNCOUNTABLE = -1;
    private static final int SWAPPED = -2;

    /**
     * The link count of the file at {@code where}, which must be the entry the walk saw (same file key); else
     * {@link #SWAPPED}, or {@link #UNCOUNTABLE} on a file system without the {@code unix} attribute view.
     */
    private static int links(BasicFileAttributes walked, Path where) throws IOException {
        Map<String, Object> stat;
        try {
            stat = Files.readAttributes(where, "unix:nlink,fileKey", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return UNCOUNTABLE;
        } catch (FileSystemException gone) {
            return SWAPPED;
        }
        Object key = walked.fileKey();
        if (key == null || !key.equals(stat.get("fileKey")) || !(stat.get("nlink") instanceof Number n)) return SWAPPED;
        return n.intValue();
    }

    @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
        return inParent(path, (dir, name, where) -> {
            requireRegular(dir, name, where, path);
            try (SeekableByteChannel ch = dir.newByteChannel(name, READ)) {
                long size = ch.size();
                if (size > maxBytes) throw new HostFailure(HostCode.TOO_LARGE, path + " has " + size + " bytes, over the bound of " + maxBytes);
                ByteBuffer buf = ByteBuffer.allocate((int) size);
                while (buf.hasRemaining() && ch.read(buf) >= 0) { /* fill */ }
                return buf.position() == buf.capacity() ? buf.array() : java.util.Arrays.copyOf(buf.array(), buf.position());
            }
        });
    }

    @Override public void write(ConcretePath path, byte[] data) throws HostFailure {
        inParent(path, (dir, name, where) -> {
            try {
                requireRegular(dir, name, where, path);
            } catch (NoSuchFileException absent) {
                // A new file: created below without following links.
            }
            try (SeekableByteChannel ch = dir.newByteChannel(name, WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(data);
                while (buf.hasRemaining()) ch.write(buf);
            }
            return null;
        });
    }

    @Override public long size(ConcretePath path) throws HostFailure {
        return inParent(path, (dir, name, where) -> {
            requireRegular(dir, name, where, path);
            return attributes(dir, name).size();
        });
    }

    @Override public byte[] slice(ConcretePath path, long offset, int length) throws HostFailure {
        return inParent(path, (dir, name, where) -> {
            requireRegular(dir, name, where, path);
            try (SeekableByteChannel ch = dir.newByteChannel(name, READ)) {
                long size = ch.size();
                if (offset >= size) return new byte[0];
                ch.position(offset);
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(length, size - offset));
                while (buf.hasRemaining() && ch.read(buf) >= 0) { /* fill */ }
                return java.util.Arrays.copyOf(buf.array(), buf.position());
            }
        });
    }

    @Override public Listing list(ConcretePath directory, int max) throws HostFailure {
        List<Entry> out = new ArrayList<>();
        boolean[] truncated = {false};
        if (directory.segments().isEmpty()) {
            Path root = roots.get(directory.root());
            if (root == null) throw new HostFailure(HostCode.NOT_INSTALLED, directory.root() + " is not installed on this host");
            try {
                Path real = root.toRealPath();
                try (DirectoryStream<Path> top = Files.newDirectoryStream(real)) {
                    if (!(top instanceof SecureDirectoryStream<Path> dir)) throw new HostFailure(HostCode.IO, "no race-free directory walk here");
                    walk(dir, real, "", max, out, truncated);
                }
            } catch (IOException e) {
                throw new HostFailure(HostCode.IO, "cannot list " + directory + ": " + e.getClass().getSimpleName());
            }
            return new Listing(out, truncated[0]);
        }
        return inParent(directory, (dir, name, where) -> {
            BasicFileAttributes a = attributes(dir, name);
            if (a.isSymbolicLink()) throw new HostFailure(HostCode.ESCAPE, "a symlink at " + directory + " is refused");
            if (!a.isDirectory()) throw new HostFailure(HostCode.UNSUPPORTED_FILE, directory + " is not a directory");
            try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                walk(sub, where, directory.relative() + "/", max, out, truncated);
            }
            return new Listing(out, truncated[0]);
        });
    }

    /**
     * Depth-first, names sorted; symlinks and special files are left out and never followed, and so are files with
     * several hard links unless the host opted in. {@code real} is the directory's path, for the link count only.
     */
    private void walk(SecureDirectoryStream<Path> dir, Path real, String prefix, int max, List<Entry> out, boolean[] truncated) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        for (Path p : dir) {
            names.add(p.getFileName().toString());
            if (names.size() > 100_000) break;
        }
        for (String n : names) {
            if (out.size() >= max) { truncated[0] = true; return; }
            Path name = Path.of(n);
            BasicFileAttributes a = attributes(dir, name);
            if (a.isSymbolicLink() || a.isOther()) continue;
            if (a.isDirectory()) {
                out.add(new Entry(prefix + n, "dir", 0));
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    walk(sub, real.resolve(n), prefix + n + "/", max, out, truncated);
                }
                if (truncated[0]) return;
            } else if (a.isRegularFile()) {
                if (!hardLinks && links(a, real.resolve(n)) != 1) continue;
                out.add(new Entry(prefix + n, "file", a.size()));
            }
        }
    }

    @Override public java.io.InputStream openBytes(ConcretePath path) throws HostFailure {
        return inParent(path, (dir, name, where) -> {
            requireRegular(dir, name, where, path);
            return Channels.newInputStream(dir.newByteChannel(name, READ));
        });
    }

    @Override public Reader open(ConcretePath path) throws HostFailure {
        return inParent(path, (dir, name, where) -> {
            requireRegular(dir, name, where, path);
            SeekableByteChannel ch = dir.newByteChannel(name, READ);
            return new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
        });
    }
}
