package dev.finch.cli;

import dev.finch.Language;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One input of a command: its text, the name it was given on the command line ({@code -} for standard input)
 * and the language its name implies (decisions D3), if any.
 */
record Source(String name, String text, Optional<Language> languageByName) {
    static final String STDIN = "-";

    /** Reads {@code name} (a path, or {@code -} for {@code in}) as strict UTF-8. */
    static Source read(String name, InputStream in) throws UsageException {
        byte[] bytes;
        try {
            bytes = STDIN.equals(name) ? in.readAllBytes() : Files.readAllBytes(Path.of(name));
        } catch (NoSuchFileException e) {
            throw new UsageException("no such file: " + name);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new UsageException("cannot read " + name + ": " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new UsageException(name + " is not valid UTF-8 text");
        }
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        return new Source(name, text, STDIN.equals(name) ? Optional.empty() : Language.forFileName(name));
    }

    /** The source identity the host attaches: the path as given, or {@code <stdin>}. */
    String defaultSourceId() { return STDIN.equals(name) ? "<stdin>" : name; }

    /** The language to submit in: {@code --lang}, else the extension, else null so that the session infers it. */
    Language language(Language override) { return override != null ? override : languageByName.orElse(null); }

    /** Parses a {@code --lang} value. */
    static Language parseLanguage(String value) throws UsageException {
        if (value == null) return null;
        return Language.named(value).orElseThrow(() -> new UsageException("unknown language '" + value + "' (use lisp, forth or norman)"));
    }
}
