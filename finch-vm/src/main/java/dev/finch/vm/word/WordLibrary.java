package dev.finch.vm.word;

import java.util.List;

/**
 * A library of Finch's own words beside the engine (the standard library, the hosts, workbooks, …), found as a service
 * ({@code provides dev.finch.vm.word.WordLibrary with …} in its {@code module-info}, and
 * {@code META-INF/services/dev.finch.vm.word.WordLibrary} for the class path): its words' {@link WordIndex}, and what
 * it gives the engine besides words — the saved forms of its values, the kinds of state it keeps per run, the openers
 * of its streams, the class a named type holds ({@link Extensions}). {@link Library#core()} is every library found.
 */
public interface WordLibrary {
    /** The library's name, unique among libraries ({@code "lib"}, {@code "host"}, …); the order they are assembled in. */
    String name();

    /** The index of the library's declarations. */
    WordIndex index();

    /** What the library registers with the engine besides its words; none by default. */
    default List<Object> extensions() { return List.of(); }
}
