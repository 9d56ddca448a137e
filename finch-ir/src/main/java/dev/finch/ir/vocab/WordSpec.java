package dev.finch.ir.vocab;

import dev.finch.ir.type.Type;
import java.util.List;

/**
 * One word of the shared vocabulary: its name (the same in every frontend), its typed overloads, and a sentence
 * of documentation. A {@code special} word is typed by a dedicated verifier rule because its type depends on an
 * immediate or on the stack (for example {@code variant<T,tag>} or {@code execute}); its {@code overloads} then
 * hold the documented shape only.
 */
public record WordSpec(String name, List<Type.Fn> overloads, Category category, boolean special, String doc) {
    public WordSpec { overloads = List.copyOf(overloads); }

    /** Groups for discovery and documentation. */
    public enum Category { STACK, ARITHMETIC, COMPARISON, LOGIC, STRING, BYTES, OUTPUT, CONTROL, OPTION, RESULT, VARIANT, LIST, MAP, RECORD, JSON, SYMBOL, INSPECTION, FILE, PROCESS }

    /** The signature spelled for people: overloads joined by {@code |}. */
    public String signatureText() {
        StringBuilder b = new StringBuilder();
        for (Type.Fn f : overloads) { if (b.length() > 0) b.append(" | "); b.append(f); }
        return b.toString();
    }

    /**
     * True when a call may suspend the run: it yields, or it needs a capability other than {@code session.emit}
     * (a host boundary that may pause for approval or run in deferred-host mode).
     */
    public static boolean maySuspend(Type.Fn f) {
        return f.yields().isPresent() || f.effects().stream().anyMatch(c -> !c.equals(dev.finch.ir.cap.Capability.SESSION_EMIT));
    }
}
