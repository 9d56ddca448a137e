package dev.finch.norman;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Where {@code (use file)} finds files: resolves a name relative to the using file, then reads it. */
public interface SourceLoader {
    /** The canonical identity of {@code file} as written in a use inside {@code from} (the using file's identity). */
    String resolve(String from, String file);

    /** The text of the file with identity {@code id}, or empty when it cannot be read. */
    Optional<String> read(String id);

    /**
     * The text of the file with identity {@code id}, or empty when it cannot be read, reading no more than
     * {@code maxChars + 1} characters: a longer text is cut there, so that the caller knows it is too long without
     * reading all of it (a use of {@code /dev/zero} ends at the limit). Loaders whose texts are already in memory
     * need not override it.
     */
    default Optional<String> read(String id, int maxChars) { return read(id); }

    /** Files on the default file system; identities are normalized absolute paths. */
    static SourceLoader fileSystem() {
        return new SourceLoader() {
            @Override public String resolve(String from, String file) {
                Path base = from == null ? Path.of("") : Path.of(from).toAbsolutePath().getParent();
                Path p = base == null ? Path.of(file) : base.resolve(file);
                return p.toAbsolutePath().normalize().toString();
            }

            @Override public Optional<String> read(String id) {
                try {
                    return Optional.of(Files.readString(Path.of(id), StandardCharsets.UTF_8));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }

            @Override public Optional<String> read(String id, int maxChars) {
                try (java.io.Reader in = Files.newBufferedReader(Path.of(id), StandardCharsets.UTF_8)) {
                    return Optional.of(upTo(in, maxChars));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
        };
    }

    /**
     * No files at all: every {@code use} is refused ({@code E-NORMAN} "cannot read"). What a session gets unless the
     * embedder installs sources ({@code Finch.builder().normanSources(…)}): a submitted program must not read the
     * host's files by naming them in a {@code use}, which no grant or approval would see.
     */
    static SourceLoader none() {
        return new SourceLoader() {
            @Override public String resolve(String from, String file) { return file; }

            @Override public Optional<String> read(String id) { return Optional.empty(); }
        };
    }

    /**
     * Files on the default file system under {@code root} only: a use resolves relative to the using file as with
     * {@link #fileSystem()}, and a file whose real path (symlinks followed) is not a regular file inside {@code root}'s
     * real path cannot be read.
     */
    static SourceLoader under(Path root) {
        SourceLoader files = fileSystem();
        Path top;
        try {
            top = root.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("not a directory: " + root);
        }
        return new SourceLoader() {
            @Override public String resolve(String from, String file) { return files.resolve(from, file); }

            @Override public Optional<String> read(String id) { return inside(id) ? files.read(id) : Optional.empty(); }

            @Override public Optional<String> read(String id, int maxChars) { return inside(id) ? files.read(id, maxChars) : Optional.empty(); }

            private boolean inside(String id) {
                try {
                    Path real = Path.of(id).toRealPath();
                    return real.startsWith(top) && Files.isRegularFile(real);
                } catch (IOException | RuntimeException e) {
                    return false;
                }
            }
        };
    }

    /** At most {@code maxChars + 1} characters of {@code in}. */
    private static String upTo(java.io.Reader in, int maxChars) throws IOException {
        StringBuilder b = new StringBuilder();
        char[] buf = new char[8192];
        long want = (long) maxChars + 1;
        while (b.length() < want) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, want - b.length()));
            if (n < 0) break;
            b.append(buf, 0, n);
        }
        return b.toString();
    }

    /** Files held in memory, keyed by slash-separated paths such as {@code lib/util.nm}; for tests and embedders. */
    static SourceLoader inMemory(Map<String, String> files) {
        Map<String, String> copy = Map.copyOf(files);
        return new SourceLoader() {
            @Override public String resolve(String from, String file) { return relative(from, file); }

            @Override public Optional<String> read(String id) { return Optional.ofNullable(copy.get(id)); }
        };
    }

    /**
     * The µNorman resources of {@code loader} ({@code .nm}), named by slash-separated resource paths such as
     * {@code examples/basics.nm}. Any other resource cannot be read ({@code E-NORMAN-020} at the use): a class path
     * also holds configuration ({@code application.properties}), which a use would otherwise parse and quote, line by
     * line, into a test report.
     */
    static SourceLoader classpath(ClassLoader loader) {
        return new SourceLoader() {
            @Override public String resolve(String from, String file) { return relative(from, file); }

            @Override public Optional<String> read(String id) { return read(id, Integer.MAX_VALUE - 1); }

            @Override public Optional<String> read(String id, int maxChars) {
                if (!id.endsWith(".nm")) return Optional.empty();
                try (java.io.InputStream in = loader.getResourceAsStream(id)) {
                    if (in == null) return Optional.empty();
                    var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
                    return Optional.of(upTo(new java.io.InputStreamReader(in, decoder), maxChars));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
        };
    }

    /** {@code file} relative to the folder of {@code from}, both slash-separated, with . and .. resolved. */
    private static String relative(String from, String file) {
        String dir = from == null || !from.contains("/") ? "" : from.substring(0, from.lastIndexOf('/') + 1);
        java.util.Deque<String> parts = new java.util.ArrayDeque<>();
        for (String s : (file.startsWith("/") ? file.substring(1) : dir + file).split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) { if (!parts.isEmpty()) parts.removeLast(); continue; }
            parts.addLast(s);
        }
        return String.join("/", parts);
    }
}
