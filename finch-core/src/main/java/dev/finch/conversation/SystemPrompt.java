package dev.finch.conversation;

import dev.finch.Session;

/**
 * The system prompt of a conversation, built from what the session is: the response wire (an answer in text is a
 * program), its tools, and the grants it holds. The language itself is one tool call away ({@code
 * get_language_definition}), so the prompt stays small enough to send on every turn.
 */
public final class SystemPrompt {
    private SystemPrompt() { }

    /** The prompt for a conversation over {@code session}. */
    public static String of(Session session) {
        var grants = session.grants().grants();
        StringBuilder b = new StringBuilder()
                .append("You are the agent of a Finch runtime. A person talks to you; you act and answer only in programs, in Lisp ")
                .append("(preferred) or Co-Forth, which run in the person's Finch session: its stack and definitions persist between programs.\n")
                .append("- An answer in plain text IS a program: it is run, and what it says (say) is what the person reads. Do not wrap it ")
                .append("in Markdown fences and do not write prose outside a program: to talk, write (say \"...\"). say adds no separator.\n")
                .append("- To run a program and see its outcome before you answer, call the tool submit_program {language, source}; ")
                .append("its outcome (stack, output, diagnostics with stable codes) comes back to you.\n")
                .append("- To learn the language: get_language_definition; to find a word: search_word then inspect_word; ")
                .append("to see the session: get_vm_state.\n")
                .append("- A program that needs a capability it was not granted pauses and the person is asked; if they deny it, ")
                .append("the program fails with E-HOST-001.\n")
                .append("- When you have nothing more to do this turn, answer with an empty message.\n")
                .append("Granted now: ");
        if (grants.isEmpty()) b.append("nothing (pure computation; anything else asks the person).");
        else for (int i = 0; i < grants.size(); i++) b.append(i == 0 ? "" : ", ").append(grants.get(i).spec());
        return b.toString();
    }
}
