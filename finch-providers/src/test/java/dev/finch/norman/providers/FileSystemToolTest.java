package dev.finch.norman.providers;

import static dev.finch.norman.providers.ToolTesting.O;
import static dev.finch.norman.providers.ToolTesting.TEXT;
import static dev.finch.norman.providers.ToolTesting.failure;
import static dev.finch.norman.providers.ToolTesting.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.NormanTests;
import dev.finch.host.ToolCapability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem binding over the capability-checked file host, on a temporary workspace. */
class FileSystemToolTest {
    private static final ToolCapability FS = new ToolCapability("fs", 0);

    @TempDir Path root;
    @TempDir Path outside;

    private FileSystemTool tool() { return FileSystemTool.workspace(root); }

    @Test void writeThenReadThenList() throws IOException {
        Files.createDirectories(root.resolve("notes"));
        FileSystemTool t = tool();
        assertThat(ok(t.call(FS, "write", List.of("notes/a.txt", "héllo"), TEXT, O))).isEqualTo("6");
        assertThat(Files.readString(root.resolve("notes/a.txt"))).isEqualTo("héllo");
        assertThat(ok(t.call(FS, "read", List.of("notes/a.txt"), TEXT, O))).isEqualTo("héllo");
        Files.writeString(root.resolve("top.txt"), "t");
        assertThat(ok(t.call(FS, "list", List.of("notes"), TEXT, O))).isEqualTo("notes/a.txt\n");
        assertThat((String) ok(t.call(FS, "list", List.of("."), TEXT, O))).contains("notes/", "notes/a.txt", "top.txt");
    }

    @Test void escapesAreToolErrorsAndTouchNothing() throws IOException {
        Files.writeString(outside.resolve("secret.txt"), "s");
        FileSystemTool t = tool();
        String rel = root.relativize(outside.resolve("secret.txt")).toString();   // ../…/secret.txt
        assertThat(failure(t.call(FS, "read", List.of(rel), TEXT, O))).startsWith("ToolError: the path `" + rel + "` is refused");
        assertThat(failure(t.call(FS, "read", List.of(outside.resolve("secret.txt").toString()), TEXT, O))).startsWith("ToolError: the path");
        assertThat(failure(t.call(FS, "write", List.of("a/../../x.txt", "x"), TEXT, O))).startsWith("ToolError: the path");
        assertThat(Files.exists(root.getParent().resolve("x.txt"))).isFalse();
    }

    @Test void aSymlinkOutOfTheRootIsRefusedByTheFileHost() throws IOException {
        Files.writeString(outside.resolve("secret.txt"), "s");
        try {
            Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("secret.txt"));
        } catch (UnsupportedOperationException | IOException e) {
            return;   // no symlinks on this file system
        }
        assertThat(failure(tool().call(FS, "read", List.of("link.txt"), TEXT, O))).startsWith("ToolError: read link.txt").contains("symlink");
    }

    @Test void missingFilesBoundsAndUnknownOperationsAreToolErrors() throws IOException {
        FileSystemTool t = new FileSystemTool(dev.finch.host.LocalFileHost.workspace(root), dev.finch.capabilities.Root.WORKSPACE, 4, 10);
        assertThat(failure(t.call(FS, "read", List.of("nope.txt"), TEXT, O))).startsWith("ToolError: read nope.txt");
        Files.write(root.resolve("big.txt"), "12345".getBytes(StandardCharsets.UTF_8));
        assertThat(failure(t.call(FS, "read", List.of("big.txt"), TEXT, O))).contains("bound");
        assertThat(failure(t.call(FS, "delete", List.of("big.txt"), TEXT, O))).startsWith("ToolError: a filesystem tool has read, write and list");
        assertThat(failure(t.call(FS, "write", List.of("big.txt"), TEXT, O))).isEqualTo("ToolError: write takes 2 argument(s), not 1");
        assertThat(failure(t.call(FS, "fork", List.of(), "fork", O))).startsWith("ToolError");
    }
}
