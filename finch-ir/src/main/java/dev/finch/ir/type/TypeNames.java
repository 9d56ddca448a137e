package dev.finch.ir.type;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Named types: a session names a type once ({@code type<T> shape} in Co-Forth, {@code (define-type shape T)} in Lisp)
 * and later spellings in either language use the name. A name is an alias, never a new type: {@link TypeSyntax} expands
 * it to its structure while parsing (so a value of the type prints, compares and persists as that structure), and it
 * cannot refer to itself, so a named type is never recursive.
 *
 * <p>A named type is persisted as a dictionary constant, so that it lives exactly as long as a definition does —
 * across submissions, in a saved image and through a restore that re-verifies the history: the constant
 * {@link #constantName nm.type.NAME} (a frontend's internal name, listed nowhere) holds the empty {@code list<T>},
 * whose type carries {@code T}. {@link #in} reads the named types back out of a dictionary's constant types.
 */
public final class TypeNames {
    /** The namespace of the constants that carry named types (inside the frontends' internal {@code nm.} namespace). */
    public static final String CONSTANT_PREFIX = "nm.type.";

    private TypeNames() { }

    /** The constant that carries the named type {@code name}. */
    public static String constantName(String name) { return CONSTANT_PREFIX + name; }

    /** The type of that constant: the empty list of the named structure. */
    public static Type constantType(Type structure) { return new Type.ListT(structure); }

    /** Every named type of a dictionary, from its constants' types (name → structure). */
    public static Map<String, Type> in(Map<String, Type> constants) {
        Map<String, Type> out = new HashMap<>();
        for (var e : constants.entrySet()) {
            String name = e.getKey();
            if (name.startsWith(CONSTANT_PREFIX) && e.getValue() instanceof Type.ListT l) out.put(name.substring(CONSTANT_PREFIX.length()), l.element());
        }
        return out;
    }

    /** What a parser answers for a name: its structure when {@code named} has it, else an opaque {@link Type.Named}. */
    public static Function<String, Type> resolver(Map<String, Type> named) { return new Resolver(named); }

    /** {@link #resolver}'s answer. A class, not a lambda: a fresh JVM's first definition resolves names through it. */
    private record Resolver(Map<String, Type> named) implements Function<String, Type> {
        @Override
        public Type apply(String name) {
            Type t = named.get(name);
            return t != null ? t : new Type.Named(name);
        }
    }

    /** Why a named type cannot be defined. */
    public enum Problem {
        /** The name is a built-in type, a type variable, or not a name at all. */
        BAD_NAME,
        /** The name already stands for another structure. */
        REDEFINED,
        /** The structure names the type being defined (named types are not recursive). */
        SELF_REFERENCE,
        /** The structure names a type that is neither named nor known (an opaque type of a word, say). */
        UNKNOWN_NAME
    }

    /** A refused definition: the problem and a message that says how to fix it. */
    public record Refusal(Problem problem, String message) { }

    /**
     * Checks the definition of {@code name} as the structure spelled {@code text}, and answers the structure (named
     * types expanded) or why it is refused. {@code named} are the named types already defined; {@code known} the
     * opaque types a structure may mention (those of the vocabulary and the session, {@link #opaqueIn}).
     */
    public static Result define(String name, String text, Map<String, Type> named, Set<String> known, int maxNesting, long maxSize) {
        if (!name.matches("[a-z][a-z0-9-]*") || TypeSyntax.isVariableName(name) || builtIn(name)) {
            return new Result(null, new Refusal(Problem.BAD_NAME, "'" + name + "' cannot name a type: a type name is lowercase letters, digits and "
                    + "'-', not a built-in type (int, list, record, …) nor a type variable (a, b1)"));
        }
        Set<String> unknown = new TreeSet<>();
        boolean[] self = {false};
        Type structure = TypeSyntax.parse(text, maxNesting, maxSize, n -> {
            Type t = named.get(n);
            if (t != null) return t;
            if (n.equals(name)) self[0] = true;
            else if (!known.contains(n)) unknown.add(n);
            return new Type.Named(n);
        });
        if (self[0]) {
            return new Result(null, new Refusal(Problem.SELF_REFERENCE, "type '" + name + "' names itself: a named type is an alias of a structure "
                    + "and cannot be recursive"));
        }
        if (!unknown.isEmpty()) {
            return new Result(null, new Refusal(Problem.UNKNOWN_NAME, "type '" + name + "' names unknown type" + (unknown.size() == 1 ? " " : "s ")
                    + String.join(", ", unknown.stream().map(u -> "'" + u + "'").toList()) + "; name it first"
                    + (named.isEmpty() ? "" : " (named types: " + String.join(", ", new TreeSet<>(named.keySet())) + ")")));
        }
        if (!Type.isGround(structure)) {
            return new Result(null, new Refusal(Problem.UNKNOWN_NAME, "type '" + name + "' has a type variable; a named type is one ground structure"));
        }
        Type before = named.get(name);
        if (before != null && !before.equals(structure)) {
            return new Result(null, new Refusal(Problem.REDEFINED, "type '" + name + "' is already " + before + "; a named type keeps its structure"));
        }
        return new Result(structure, null);
    }

    /** A definition's outcome: the structure, or the refusal (exactly one is non-null). */
    public record Result(Type structure, Refusal refusal) {
        public Optional<Refusal> refused() { return Optional.ofNullable(refusal); }
    }

    private static boolean builtIn(String name) {
        if (Type.Prim.named(name).isPresent()) return true;
        return Set.of("record", "variant", "path", "option", "result", "list", "map", "task", "fiber", "stream", "resource", "yields")
                .contains(name);
    }

    /** Adds to {@code out} every opaque type name {@code t} mentions. */
    public static void opaqueIn(Type t, Set<String> out) {
        if (t instanceof Type.Named n) out.add(n.name());
        else if (t instanceof Type.OptionT o) opaqueIn(o.value(), out);
        else if (t instanceof Type.ResultT r) { opaqueIn(r.ok(), out); opaqueIn(r.err(), out); }
        else if (t instanceof Type.ListT l) opaqueIn(l.element(), out);
        else if (t instanceof Type.MapT m) { opaqueIn(m.key(), out); opaqueIn(m.value(), out); }
        else if (t instanceof Type.RecordT r) r.fields().values().forEach(f -> opaqueIn(f, out));
        else if (t instanceof Type.VariantT v) v.tags().values().forEach(p -> p.ifPresent(x -> opaqueIn(x, out)));
        else if (t instanceof Type.TaskT k) opaqueIn(k.value(), out);
        else if (t instanceof Type.FiberT f) { opaqueIn(f.yielded(), out); opaqueIn(f.result(), out); }
        else if (t instanceof Type.StreamT s) opaqueIn(s.element(), out);
        else if (t instanceof Type.ResourceT r) opaqueIn(r.of(), out);
        else if (t instanceof Type.Fn f) {
            f.ins().forEach(x -> opaqueIn(x, out));
            f.outs().forEach(x -> opaqueIn(x, out));
            f.yields().ifPresent(y -> { opaqueIn(y.yielded(), out); opaqueIn(y.resumed(), out); });
        }
    }
}
