package dev.finch.conversation;

import dev.finch.Outcome;
import dev.finch.ir.diag.Diagnostic;
import java.util.List;

/** Where a turn of a {@link Conversation} stands: answered, waiting for the host's approval, or stopped. */
public sealed interface Step permits Step.Answered, Step.AwaitingApproval, Step.Stopped {
    /** Every program the turn ran so far (tool calls and text answers), in order. */
    List<Outcome> outcomes();

    /** The say output of every program of the turn so far, in order. */
    default String output() {
        StringBuilder b = new StringBuilder();
        for (Outcome o : outcomes()) b.append(o.output());
        return b.toString();
    }

    /**
     * The turn is over: the model answered with a program that completed (the response-wire boundary: its text was
     * source) or with no program at all. {@code answer} is the outcome of that final program, if there was one.
     */
    record Answered(List<Outcome> outcomes, java.util.Optional<Outcome> answer) implements Step {
        public Answered { outcomes = List.copyOf(outcomes); }
    }

    /**
     * A program of the turn waits for a capability it was not granted: {@code pending} says what it asks. The host
     * answers with {@link Conversation#approve} or {@link Conversation#deny}, and the turn goes on.
     */
    record AwaitingApproval(List<Outcome> outcomes, Outcome.Suspended pending) implements Step {
        public AwaitingApproval { outcomes = List.copyOf(outcomes); }
    }

    /** A budget or the provider ended the turn: {@code why} says which. */
    record Stopped(List<Outcome> outcomes, Diagnostic why) implements Step {
        public Stopped { outcomes = List.copyOf(outcomes); }
    }
}
