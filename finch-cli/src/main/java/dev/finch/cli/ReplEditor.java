package dev.finch.cli;

import dev.finch.host.EditorHost;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;

/**
 * The REPL's editor for {@code proposal-open}: the proposed source in a temporary file opened with {@code $VISUAL} or
 * {@code $EDITOR} (its words split on spaces, the file last: {@code code --wait}), then a prompt to execute (the edited
 * source goes back to the program as data), chat (the buffer as context) or cancel. The file is deleted afterwards.
 */
final class ReplEditor implements EditorHost {
    private final Map<String, String> env;
    private final boolean console;
    private LineReader reader;
    private PrintWriter out;

    ReplEditor(Map<String, String> env, boolean console) {
        this.env = env;
        this.console = console;
    }

    /** Binds the REPL's reader and terminal writer, once they exist. */
    void attach(LineReader reader, PrintWriter out) {
        this.reader = reader;
        this.out = out;
    }

    @Override public Decision propose(String language, String title, String source) throws HostFailure {
        String editor = env.getOrDefault("VISUAL", "").isBlank() ? env.getOrDefault("EDITOR", "") : env.get("VISUAL");
        if (editor.isBlank()) throw new HostFailure(HostCode.NO_BINDING, "proposal-open needs an editor: set $EDITOR (or $VISUAL) before starting the REPL");
        if (reader == null) throw new HostFailure(HostCode.NO_BINDING, "the REPL's terminal is not ready for an editor");
        Path file = null;
        try {
            file = Files.createTempFile("finch-proposal-", "." + extension(language));
            Files.writeString(file, source, StandardCharsets.UTF_8);
            out.println("proposal: " + title + " (" + language + "), opening " + editor + " " + file.getFileName());
            out.flush();
            List<String> command = new ArrayList<>(List.of(editor.strip().split("\\s+")));
            command.add(file.toString());
            ProcessBuilder pb = new ProcessBuilder(command);
            if (console) pb.inheritIO();
            else pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            int exit = pb.start().waitFor();
            if (exit != 0) throw new HostFailure(HostCode.PROCESS, "the editor " + editor + " exited with status " + exit + "; the proposal was not decided");
            String edited = Files.readString(file, StandardCharsets.UTF_8);
            return decide(edited);
        } catch (IOException e) {
            throw new HostFailure(HostCode.PROCESS, "the editor " + editor + " could not be started: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostFailure(HostCode.PROCESS, "interrupted while the editor was open");
        } finally {
            if (file != null) {
                try { Files.deleteIfExists(file); } catch (IOException ignored) { /* a temporary file; best effort */ }
            }
        }
    }

    private Decision decide(String edited) {
        reader.setVariable(LineReader.DISABLE_HISTORY, true);
        try {
            while (true) {
                String answer;
                try {
                    answer = reader.readLine("[e]xecute / [c]hat / [x] cancel? ");
                } catch (UserInterruptException | EndOfFileException e) {
                    return new Decision.Cancel();
                }
                String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
                if (a.equals("e") || a.equals("execute")) return new Decision.Execute(edited);
                if (a.equals("c") || a.equals("chat")) return new Decision.Chat(edited);
                if (a.equals("x") || a.equals("cancel")) return new Decision.Cancel();
                out.println("answer e (execute: the edited source goes back to the program), c (chat) or x (cancel)");
                out.flush();
            }
        } finally {
            reader.setVariable(LineReader.DISABLE_HISTORY, false);
        }
    }

    private static String extension(String language) {
        return switch (language) {
            case "python" -> "py";
            case "bash", "sh" -> "sh";
            case "lisp" -> "lisp";
            case "forth" -> "fth";
            case "norman" -> "nm";
            default -> "txt";
        };
    }
}
