package dev.finch.ir.vocab;

import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Optional;

/**
 * One word of a vocabulary: its name (the same in every frontend), a sentence of documentation, how the verifier
 * types it, and its overloads in the order a call tries them. A word other than {@link Typing#ORDINARY} is typed by
 * a dedicated verifier rule; its overloads then hold the documented shape only.
 *
 * @param name the word's name in every frontend
 * @param category the group it is listed under in discovery and documentation
 * @param doc one or two sentences for people and models
 * @param typing how a call is typed
 * @param overloads the overloads, tried in this order (a call whose stack fits several takes the first)
 * @param foldsLeft true when Lisp accepts more than two arguments and folds them from the left ({@code (+ 1 2 3)})
 * @param origin whether Finch or the embedding host installed it
 * @param pauses true when a call may pause the run whatever its signature says: it waits on other work (a fiber's
 *               body, a concurrent step, a CPU task) that may itself pause, so its call sites need resume points
 * @param aka names other languages give what it does ({@code display} and {@code .} for {@code say}), which an
 *            unknown name is matched against by meaning ({@link Vocabulary#byMeaning}); never callable
 */
public record WordSpec(String name, Category category, String doc, Typing typing, List<Overload> overloads, boolean foldsLeft,
                       Provenance origin, boolean pauses, List<String> aka) {
    public WordSpec {
        overloads = List.copyOf(overloads);
        aka = List.copyOf(aka);
        if (overloads.isEmpty()) throw new IllegalArgumentException("word " + name + " has no overload");
    }

    /** A word no other language names differently. */
    public WordSpec(String name, Category category, String doc, Typing typing, List<Overload> overloads, boolean foldsLeft, Provenance origin,
                    boolean pauses) {
        this(name, category, doc, typing, overloads, foldsLeft, origin, pauses, List.of());
    }

    /** A word that pauses only as its signature says. */
    public WordSpec(String name, Category category, String doc, Typing typing, List<Overload> overloads, boolean foldsLeft, Provenance origin) {
        this(name, category, doc, typing, overloads, foldsLeft, origin, false);
    }

    /** Groups for discovery and documentation. */
    public enum Category { STACK, ARITHMETIC, COMPARISON, LOGIC, STRING, BYTES, OUTPUT, CONTROL, OPTION, RESULT, VARIANT, LIST, MAP, RECORD, JSON, SYMBOL, INSPECTION, FILE, PROCESS, NETWORK, HOST }

    /** Who installed a word. */
    public enum Provenance { CORE, HOST }

    /** True when a dedicated verifier rule types the word. */
    public boolean special() { return typing != Typing.ORDINARY; }

    /** The signatures, in overload order. */
    public List<Type.Fn> signatures() {
        if (overloads.size() == 1) return List.of(overloads.get(0).signature());
        Type.Fn[] out = new Type.Fn[overloads.size()];
        for (int i = 0; i < out.length; i++) out[i] = overloads.get(i).signature();
        return List.of(out);
    }

    /** The overload with this id. */
    public Optional<Overload> overload(String id) {
        for (Overload o : overloads) if (o.id().equals(id)) return Optional.of(o);
        return Optional.empty();
    }

    /** The signature spelled for people: overloads joined by {@code |}. */
    public String signatureText() {
        StringBuilder b = new StringBuilder();
        for (Overload o : overloads) { if (b.length() > 0) b.append(" | "); b.append(o.signature()); }
        return b.toString();
    }

    /**
     * True when a call may suspend the run: it yields, or it needs a capability other than {@code session.emit}
     * (a host boundary that may pause for approval or run in deferred-host mode).
     */
    public static boolean maySuspend(Type.Fn f) {
        if (f.yields().isPresent()) return true;
        if (f.effects().isEmpty()) return false;
        for (dev.finch.ir.cap.Capability c : f.effects()) if (!c.equals(dev.finch.ir.cap.Capability.SESSION_EMIT)) return true;
        return false;
    }
}
