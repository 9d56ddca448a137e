package dev.finch.vm.word;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What Finch's word libraries give the engine besides their words: the saved forms of
 * their own values ({@code dev.finch.vm.persist.ValueForms}), the kinds of state they keep per run
 * ({@code dev.finch.vm.boundary.RunState.Kind}), the openers of their streams, … — found by type wherever the engine
 * meets one of their values or states (saving a run, restoring it in another process), however it got there. Registered
 * when the library is first built ({@link Library}); Finch's own libraries are the same in every session of a JVM, so
 * one registry serves them all.
 */
public final class Extensions {
    private static final List<Object> ALL = new CopyOnWriteArrayList<>();

    private Extensions() { }

    /** Registers {@code extension} (once: registering the same object again changes nothing). */
    public static void register(Object extension) {
        for (Object o : ALL) if (o == extension) return;
        ALL.add(extension);
    }

    /** Every registered extension of type {@code type}, in registration order. */
    public static <T> List<T> all(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Object o : ALL) if (type.isInstance(o)) out.add(type.cast(o));
        return out;
    }
}
