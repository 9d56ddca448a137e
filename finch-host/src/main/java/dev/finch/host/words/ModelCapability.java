package dev.finch.host.words;

/**
 * A model as a run's value (IR type {@code model}): the µNorman model grant it names. It confers nothing by itself:
 * every ask through it passes the host boundary with {@code model.ask(grant)}. It has no written form ({@code show}
 * refuses it) and is never askable, so no model answer or tool result can contain one.
 */
public record ModelCapability(String grant) {
    public ModelCapability { java.util.Objects.requireNonNull(grant, "grant"); }

    @Override public String toString() { return grant; }
}
