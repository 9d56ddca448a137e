package dev.finch.lisp.lower;

import java.util.HashMap;
import java.util.Map;

/** A lexical scope of local bindings. */
final class Scope {
    private final Scope parent;
    private final Map<String, Local> vars = new HashMap<>();

    Scope(Scope parent) { this.parent = parent; }

    Local lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Local l = s.vars.get(name);
            if (l != null) return l;
        }
        return null;
    }

    void put(Local l) { vars.put(l.name, l); }

    /** Every visible name, for suggestions. */
    void names(java.util.Set<String> out) {
        for (Scope s = this; s != null; s = s.parent) out.addAll(s.vars.keySet());
    }
}
