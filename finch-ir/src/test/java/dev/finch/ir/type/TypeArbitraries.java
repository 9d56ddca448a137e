package dev.finch.ir.type;

import dev.finch.ir.cap.Capability;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators for every kind of {@link Type}, nested to a bounded depth. */
final class TypeArbitraries {
    private static final List<String> FIELDS = List.of("name", "age", "_x", "first-name", "A1", "if", "z");
    private static final List<String> TAGS = List.of("none", "some", "ok_2", "red", "Big", "a-b");
    private static final List<Capability> CAPS = List.of(Capability.SESSION_EMIT, Capability.of("fs.read", "${workspace}/**"),
            Capability.of("mcp.call", "server", "tool"), Capability.of("process.run", "git", "--version"), Capability.of("net.http"),
            Capability.of("program.invoke", "language=lisp"),
            // Templates over a definition's parameters (issue 36): a session image prints signatures holding them as text.
            Capability.of("fs.read", "${workspace}/$0"), Capability.of("fs.write", "${project}/$1/**"), Capability.of("model.ask", "$0"),
            Capability.of("tool.call", "$0", "$1"), Capability.of("program.invoke", "language=$2"), Capability.of("fs.read", "${host-machine}/$10"));

    private TypeArbitraries() { }

    static Arbitrary<Type> types() { return types(3); }

    static Arbitrary<Type> types(int depth) {
        Arbitrary<Type> leaf = Arbitraries.oneOf(
                Arbitraries.of(Type.Prim.class).map(p -> (Type) p),
                Arbitraries.of("a", "b", "k2", "z10").map(Type.Var::new),
                Arbitraries.of("agent-result", "capability-grant", "Thing", "foo_bar", "x1y").map(Type.Named::new),
                Arbitraries.of("workspace", "host-machine", "tmp.d", "a_b").map(Type.PathT::new));
        if (depth <= 0) return leaf;
        Arbitrary<Type> inner = Arbitraries.lazy(() -> types(depth - 1));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, leaf),
                net.jqwik.api.Tuple.of(1, inner.map(Type.OptionT::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(inner, inner).as(Type.ResultT::new)),
                net.jqwik.api.Tuple.of(1, inner.map(Type.ListT::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(inner, inner).as(Type.MapT::new)),
                net.jqwik.api.Tuple.of(1, record(inner)),
                net.jqwik.api.Tuple.of(1, variant(inner)),
                net.jqwik.api.Tuple.of(1, inner.map(Type.TaskT::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(inner, inner).as(Type.FiberT::new)),
                net.jqwik.api.Tuple.of(1, inner.map(Type.StreamT::new)),
                net.jqwik.api.Tuple.of(1, inner.map(Type.ResourceT::new)),
                net.jqwik.api.Tuple.of(1, inner.map(t -> (Type) new Type.Named("Thing", Optional.of(t)))),
                net.jqwik.api.Tuple.of(2, fns(depth - 1).map(f -> (Type) f)));
    }

    static Arbitrary<Type.Fn> fns(int depth) {
        Arbitrary<Type> inner = Arbitraries.lazy(() -> types(depth));
        Arbitrary<List<Type>> row = inner.list().ofMaxSize(3);
        Arbitrary<java.util.Set<Capability>> caps = Arbitraries.of(CAPS).set().ofMaxSize(3);
        Arbitrary<Optional<Type.Yields>> yields = Combinators.combine(inner, inner).as(Type.Yields::new).optional(0.25);
        return Combinators.combine(row, row, caps, yields).as((ins, outs, c, y) -> new Type.Fn(ins, outs, new TreeSet<>(c), y));
    }

    private static Arbitrary<Type> record(Arbitrary<Type> inner) {
        return Arbitraries.maps(Arbitraries.of(FIELDS), inner).ofMaxSize(3).map(m -> new Type.RecordT(new TreeMap<>(m)));
    }

    private static Arbitrary<Type> variant(Arbitrary<Type> inner) {
        Arbitrary<Optional<Type>> payload = inner.optional(0.5);
        return Arbitraries.of(TAGS).list().uniqueElements().ofMinSize(1).ofMaxSize(3).flatMap(tags ->
                payload.list().ofSize(tags.size()).map(ps -> {
                    Map<String, Optional<Type>> m = new LinkedHashMap<>();
                    for (int i = 0; i < tags.size(); i++) m.put(tags.get(i), ps.get(i));
                    return (Type) new Type.VariantT(m);
                }));
    }
}
