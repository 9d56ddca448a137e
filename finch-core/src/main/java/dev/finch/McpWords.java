package dev.finch;

import dev.finch.host.words.McpBindings;
import dev.finch.vm.word.DataWord;
import java.util.List;

/**
 * Installs a session's MCP tools as words ({@code mcp.<server>.<tool>}) and keeps them in step with what the servers
 * list: a {@code tools/list_changed} marks them stale, and they are reinstalled when the session is next idle.
 */
final class McpWords {
    private final McpServers.Connection connection;
    /** Set when a server's tools changed while a submission ran: the words are reinstalled before the next one. */
    private volatile boolean stale;

    McpWords(McpServers.Connection connection) { this.connection = connection; }

    McpServers.Connection connection() { return connection; }

    /** A server's tools changed: reinstall at the next chance. */
    void markStale() { stale = true; }

    boolean stale() { return stale; }

    /**
     * Installs or reinstalls the words from what the servers list now: when any binding is new or its schema hash
     * changed, the manifest generation goes up by one. A tool a server stopped listing keeps its word (a definition may
     * call it); the server refuses such a call. Called with the session idle (when it opens, or holding the session).
     */
    void install(SessionState state) {
        stale = false;
        List<DataWord> words = McpBindings.words(connection.tools(), connection);
        var vocabulary = state.current().state().library().vocabulary();
        boolean changed = false;
        for (var w : words) {
            var now = vocabulary.word(w.name());
            if (now.isEmpty() || now.get().overload(w.overloadId()).isEmpty()) changed = true;
        }
        if (changed) state.installWords(library -> library.withWords(words));
    }
}
