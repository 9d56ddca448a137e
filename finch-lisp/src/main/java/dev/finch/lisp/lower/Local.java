package dev.finch.lisp.lower;

import dev.finch.lisp.types.Ty;

/** A local binding: its source name, its unique IR name within the enclosing word, its type and owner body. */
final class Local {
    final String name;
    final String ir;
    final Ty type;
    final Body owner;
    /** For the name of a named let: its loop node (calls of it are loop continuations); null for ordinary locals. */
    Node loop;

    Local(String name, String ir, Ty type, Body owner) {
        this.name = name;
        this.ir = ir;
        this.type = type;
        this.owner = owner;
    }
}
