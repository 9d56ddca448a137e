package dev.finch.vm.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.capabilities.GrantSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever chain of {@link HostConfig#with}, {@link HostConfig#withAll} (a run's layer over the session's bindings, or a
 * copy) and the other {@code with…} makes a configuration, each family is bound as a plain map of the same changes says.
 */
class HostConfigProperties {
    interface A { }

    interface B { }

    interface C { }

    interface D { }

    /** A host of two families: found under D when D itself is not bound. */
    static final class Both implements C, D { }

    private static final List<Class<?>> FAMILIES = List.of(A.class, B.class, C.class, D.class);

    /** One change: family index, host (null: unbind), and whether it goes through withAll with the next change. */
    record Change(int family, boolean unbind, boolean batched, boolean regrant) { }

    @Provide
    Arbitrary<List<Change>> changes() {
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of(true, false, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false, false, false)).as(Change::new).list().ofMaxSize(12);
    }

    @Property(tries = 1000)
    void layeredBindingsMatchAPlainMap(@ForAll("changes") List<Change> changes) {
        HostConfig config = HostConfig.of(GrantSet.EMPTY, false);
        Map<Class<?>, Object> model = new HashMap<>();
        Map<Class<?>, Object> batch = new HashMap<>();
        for (Change c : changes) {
            Class<?> family = FAMILIES.get(c.family());
            Object host = c.unbind() ? null : host(family);
            if (c.batched()) {
                batch.put(family, host);
            } else {
                if (!batch.isEmpty()) {
                    config = config.withAll(batch);
                    apply(model, batch);
                    batch.clear();
                }
                config = bind(config, family, host);
                apply(model, Map.of(family, host == null ? NONE : host));
            }
            if (c.regrant()) config = config.withGrants(GrantSet.EMPTY).withDeferred(true);
            check(config, model);
        }
        if (!batch.isEmpty()) {
            config = config.withAll(batch);
            apply(model, batch);
        }
        check(config, model);
    }

    private static final Object NONE = new Object();

    private static void apply(Map<Class<?>, Object> model, Map<Class<?>, Object> changes) {
        changes.forEach((k, v) -> {
            if (v == null || v == NONE) model.remove(k);
            else model.put(k, v);
        });
    }

    @SuppressWarnings("unchecked")
    private static <T> HostConfig bind(HostConfig config, Class<T> family, Object host) { return config.with(family, (T) host); }

    private static void check(HostConfig config, Map<Class<?>, Object> model) {
        for (Class<?> f : FAMILIES) {
            Object expected = model.get(f);
            if (expected == null && f == D.class) expected = model.values().stream().filter(D.class::isInstance).findFirst().orElse(null);
            assertThat(config.binding(f)).as(f.getSimpleName() + " in " + model).isSameAs(expected);
        }
    }

    private static Object host(Class<?> family) {
        if (family == A.class) return new A() { };
        if (family == B.class) return new B() { };
        if (family == C.class) return new Both();
        return new D() { };
    }
}
