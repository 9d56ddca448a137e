package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How a word library saves its own values — a host family's capabilities and handles — in images, continuations and
 * deferred requests: {@link ValueCodec} asks the registered forms ({@code Extensions.all(ValueForms.class)}) for a
 * value of a host-defined type it does not hold itself, and to remake one. A saved form names itself by its own keys
 * (an object with a key no other form uses), so each form knows its own.
 */
public interface ValueForms {
    /** Whether {@code v} is one of the values this form saves. */
    boolean saves(Object v);

    /** The saved form of {@code v}, one of this form's values. */
    JsonNode encode(Object v);

    /**
     * The value {@code saved} holds, or null when it is not one of this form's; a {@link ValueCodec.Malformed} when it
     * is this form's but broken.
     */
    Object decode(JsonNode saved);

    /** The form that saves {@code v}, or null. */
    static ValueForms of(Object v) {
        for (ValueForms f : dev.finch.vm.word.Extensions.all(ValueForms.class)) if (f.saves(v)) return f;
        return null;
    }

    /** The value a registered form finds in {@code saved}, or null when none does. */
    static Object decodeAny(JsonNode saved) {
        for (ValueForms f : dev.finch.vm.word.Extensions.all(ValueForms.class)) {
            Object v = f.decode(saved);
            if (v != null) return v;
        }
        return null;
    }
}
