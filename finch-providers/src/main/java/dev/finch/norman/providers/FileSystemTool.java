package dev.finch.norman.providers;

import dev.finch.capabilities.Attempt;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.ir.diag.Origin;
import dev.finch.norman.harness.ToolResults;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.host.LocalFileHost;
import dev.finch.host.ToolCapability;
import dev.finch.host.ToolHost;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@code filesystem} tool binding over the capability-checked file host (issue 8 item 8). Every path argument is
 * relative to one root the embedder fixes and is refined with {@link ConcretePath#of(Root, String)}, so {@code ..},
 * absolute paths and other escapes are refused as {@code ToolError} before the file host is asked; the file host
 * ({@link LocalFileHost} by default) still refuses symlinks and anything that would leave the root on disk.
 *
 * <ul>
 *   <li>{@code (call fs read "notes/a.txt")} — the file's text (strict UTF-8, at most the read bound);</li>
 *   <li>{@code (call fs write "notes/a.txt" "text")} — writes the text and answers the number of bytes written;</li>
 *   <li>{@code (call fs list "notes")} — the entries under a directory, depth-first in sorted order, one per line,
 *   directories ending with {@code /}; a last line {@code …} when the listing was cut at its bound.</li>
 * </ul>
 * The results are Text, typed by the grant's declaration (which each call carries).
 */
public final class FileSystemTool implements ToolHost {
    private final FileHost files;
    private final Root root;
    private final long maxReadBytes;
    private final int maxEntries;

    /** A binding on {@code files} under {@code root}, with a read bound in bytes and a listing bound in entries. */
    public FileSystemTool(FileHost files, Root root, long maxReadBytes, int maxEntries) {
        this.files = files;
        this.root = root;
        this.maxReadBytes = maxReadBytes;
        this.maxEntries = maxEntries;
    }

    /** A binding on the directory {@code dir} as the workspace root, reading at most 1 MiB and listing 1000 entries. */
    public static FileSystemTool workspace(Path dir) {
        return new FileSystemTool(LocalFileHost.workspace(dir), Root.WORKSPACE, 1 << 20, 1000);
    }

    /** Calls are real I/O and thread-safe, so concurrent steps' calls overlap. */
    @Override public boolean concurrent() { return true; }

    @Override public Object call(ToolCapability cap, String op, List<String> args, String key, Origin origin) {
        if (ToolResults.isFork(key)) return ToolResults.toolError("a filesystem tool cannot be forked");
        Map<String, Integer> arity = Map.of("read", 1, "write", 2, "list", 1);
        if (!arity.containsKey(op)) return ToolResults.toolError("a filesystem tool has read, write and list, not " + op);
        if (args.size() != arity.get(op)) return ToolResults.toolError(op + " takes " + arity.get(op) + " argument(s), not " + args.size());
        Attempt<ConcretePath> p = ConcretePath.of(root, args.get(0), origin);
        if (!p.isOk()) return ToolResults.toolError("the path `" + args.get(0) + "` is refused: " + p.refusal().map(d -> d.message()).orElse("not a path under the root"));
        try {
            String text = switch (op) {
                case "read" -> {
                    byte[] bytes = files.read(p.value(), maxReadBytes);
                    try {
                        yield StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
                    } catch (CharacterCodingException e) {
                        yield null;
                    }
                }
                case "write" -> {
                    byte[] bytes = args.get(1).getBytes(StandardCharsets.UTF_8);
                    files.write(p.value(), bytes);
                    yield Integer.toString(bytes.length);
                }
                default -> {
                    FileHost.Listing l = files.list(p.value(), maxEntries);
                    StringBuilder sb = new StringBuilder();
                    for (FileHost.Entry e : l.entries()) sb.append(e.path()).append(e.kind().equals("dir") ? "/" : "").append('\n');
                    if (l.truncated()) sb.append("…\n");
                    yield sb.toString();
                }
            };
            if (text == null) return ToolResults.toolError(args.get(0) + " is not UTF-8 text");
            return ToolResults.typed(cap, op, key, text, origin);
        } catch (HostFailure e) {
            return ToolResults.toolError(op + " " + args.get(0) + ": " + e.getMessage());
        }
    }
}
