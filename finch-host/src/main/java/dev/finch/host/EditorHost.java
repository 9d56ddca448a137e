package dev.finch.host;

import dev.finch.vm.boundary.HostFailure;

/**
 * Where {@code proposal-open} goes (contract "Editor-backed proposals are language-neutral host operations…"): the
 * host's editor shows a proposed program — its language, a title and its source — to the person, who edits it and
 * decides. The answer is data only: an accepted program is never run by the proposal; a Finch payload must be
 * submitted again through the verifier, an external script follows its own authorized workflow.
 *
 * <p>A session without an editor host does not dispatch proposals: the run pauses at the request and the embedder
 * answers it with a result ({@code VmResume}) of the word's type {@code option<result<string,string>>}.
 */
@FunctionalInterface
public interface EditorHost {
    /** What the person decided. */
    sealed interface Decision permits Decision.Execute, Decision.Chat, Decision.Cancel {
        /** Accepted: the (edited) source, returned to the program as {@code some(ok source)}. */
        record Execute(String source) implements Decision { }

        /** Talk about it instead: the edited buffer, returned as context, {@code some(err buffer)}. */
        record Chat(String buffer) implements Decision { }

        /** Discarded: {@code none}. */
        record Cancel() implements Decision { }
    }

    /**
     * Shows the proposal and waits for the decision. {@link HostFailure} when the editor cannot be shown (no terminal,
     * the editor failed); the program then sees the failure as a host diagnostic.
     */
    Decision propose(String language, String title, String source) throws HostFailure;
}
