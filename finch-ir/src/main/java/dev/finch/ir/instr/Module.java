package dev.finch.ir.instr;

import java.util.List;

/**
 * One submission lowered to IR: its definitions and its top-level code. The top-level code starts on the
 * session's persistent stack; definitions may refer to each other in any order.
 *
 * @param source   the host-attached source identity
 * @param language the frontend that produced it ({@code forth}, {@code lisp}, {@code norman})
 */
public record Module(String source, String language, List<WordDef> words, Block main) {
    public Module { words = List.copyOf(words); }
}
