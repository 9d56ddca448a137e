package dev.finch.vm.boundary;

import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Revocations;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an embedder plugs in for a run: the grants in force, whether every approved request is deferred to the host
 * ({@code VmResume}), observers, the revoked grants its capability boundaries consult, a bound on what a host hands
 * back, and the bindings of the host families the word libraries define — the files a run reads, the processes it
 * starts, the model it asks, … — each under the interface its family declares ({@link #binding}). {@link #NONE} has no
 * grants and no bindings: every host word then pauses for approval and cannot be dispatched. Immutable; each
 * {@code with…} answers a new configuration.
 */
public final class HostConfig {
    public static final HostConfig NONE = new HostConfig(GrantSet.EMPTY, false, List.of(), 8L << 20, new Revocations(), Map.of(), Map.of());
    /** In a layer, a family unbound there though the layer beneath binds it. */
    private static final Object UNBOUND = new Object();

    private final GrantSet grants;
    private final boolean deferred;
    private final List<EffectObserver> observers;
    private final long maxFileReadBytes;
    private final Revocations revocations;
    /**
     * The bindings: {@code bindings} over {@code under}. A run's few bindings of its own ({@link #withAll} on a
     * configuration that is not itself layered) are a small layer over the session's, so that a run does not copy the
     * session's bindings; any other change flattens the two first, so there are never more than two.
     */
    private final Map<Class<?>, Object> bindings;
    private final Map<Class<?>, Object> under;

    private HostConfig(GrantSet grants, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes, Revocations revocations,
                       Map<Class<?>, Object> bindings, Map<Class<?>, Object> under) {
        this.grants = grants;
        this.deferred = deferred;
        this.observers = List.copyOf(observers);
        this.maxFileReadBytes = maxFileReadBytes;
        this.revocations = revocations == null ? new Revocations() : revocations;
        this.bindings = bindings;
        this.under = under;
    }

    /** A configuration with {@code grants}, deferred or not, and no binding. */
    public static HostConfig of(GrantSet grants, boolean deferred) { return NONE.withGrants(grants).withDeferred(deferred); }

    /**
     * A configuration with {@code grants}, deferred or not, consulting {@code revocations}, and each family of
     * {@code hosts} bound to its host (a null host: unbound) — what {@link #of(GrantSet, boolean)}, then
     * {@link #withRevocations} and {@link #withAll} make, made at once with the hosts copied once.
     */
    public static HostConfig of(GrantSet grants, boolean deferred, Revocations revocations, Map<Class<?>, ?> hosts) {
        Map<Class<?>, Object> bound = new IdentityHashMap<>(hosts.size());
        for (Map.Entry<Class<?>, ?> e : hosts.entrySet()) {
            if (e.getValue() != null) bound.put(e.getKey(), e.getKey().cast(e.getValue()));
        }
        return new HostConfig(grants, deferred, List.of(), NONE.maxFileReadBytes, revocations, bound, Map.of());
    }

    /** The grants in force when a run starts. */
    public GrantSet grants() { return grants; }

    /** Whether every approved request waits for the host's answer ({@code VmResume}) instead of being dispatched. */
    public boolean deferred() { return deferred; }

    /** The observers every request and settlement is reported to. */
    public List<EffectObserver> observers() { return observers; }

    /** The most bytes a file read hands back. */
    public long maxFileReadBytes() { return maxFileReadBytes; }

    /** The session's revoked grant ids, which take a grant away from a run at its next capability boundary. */
    public Revocations revocations() { return revocations; }

    /**
     * The binding of host family {@code family} (the interface it declares: a file host, a model host, …), or null when
     * there is none: its words then fail with {@code E-HOST-013}. A binding given under another of its interfaces is
     * found too.
     */
    public <T> T binding(Class<T> family) {
        Object b = bindings.get(family);
        if (b == null) b = under.get(family);
        if (b != null && b != UNBOUND) return family.cast(b);
        for (Object v : bindings.values()) if (v != UNBOUND && family.isInstance(v)) return family.cast(v);
        for (Map.Entry<Class<?>, Object> e : under.entrySet()) {
            if (!bindings.containsKey(e.getKey()) && family.isInstance(e.getValue())) return family.cast(e.getValue());
        }
        return null;
    }

    /** Whether {@code family} itself is bound (not only found under another of its interfaces). */
    private boolean binds(Class<?> family) {
        Object b = bindings.get(family);
        return b != null ? b != UNBOUND : under.containsKey(family);
    }

    /** The bindings as one map (the layers merged): the map itself when there is one layer. */
    private Map<Class<?>, Object> flat() {
        if (under.isEmpty()) return bindings;
        Map<Class<?>, Object> all = new IdentityHashMap<>(under);
        for (Map.Entry<Class<?>, Object> e : bindings.entrySet()) {
            if (e.getValue() == UNBOUND) all.remove(e.getKey());
            else all.put(e.getKey(), e.getValue());
        }
        return all;
    }

    /** This configuration with {@code host} bound for {@code family} (null: unbound). */
    public <T> HostConfig with(Class<T> family, T host) {
        if (binding(family) == host && binds(family)) return this;
        Map<Class<?>, Object> next = new IdentityHashMap<>(flat());
        if (host == null) next.remove(family);
        else next.put(family, family.cast(host));
        return new HostConfig(grants, deferred, observers, maxFileReadBytes, revocations, next, Map.of());
    }

    /**
     * This configuration with each family of {@code hosts} bound to its host (a null host: unbound), as a chain of
     * {@link #with} would bind them: a layer of its own over these bindings (not copied) when they are one layer, else
     * the bindings copied once.
     */
    public HostConfig withAll(Map<Class<?>, ?> hosts) { return withAll(grants, hosts); }

    /** This configuration with {@code grants} and each family of {@code hosts} bound, as {@link #withAll(Map)} binds them. */
    public HostConfig withAll(GrantSet grants, Map<Class<?>, ?> hosts) {
        if (under.isEmpty() && !bindings.isEmpty()) {
            Map<Class<?>, Object> layer = new IdentityHashMap<>(hosts.size());
            for (Map.Entry<Class<?>, ?> e : hosts.entrySet()) {
                layer.put(e.getKey(), e.getValue() == null ? UNBOUND : e.getKey().cast(e.getValue()));
            }
            return new HostConfig(grants, deferred, observers, maxFileReadBytes, revocations, layer, bindings);
        }
        Map<Class<?>, Object> next = new IdentityHashMap<>(flat());
        for (Map.Entry<Class<?>, ?> e : hosts.entrySet()) {
            if (e.getValue() == null) next.remove(e.getKey());
            else next.put(e.getKey(), e.getKey().cast(e.getValue()));
        }
        return new HostConfig(grants, deferred, observers, maxFileReadBytes, revocations, next, Map.of());
    }

    public HostConfig withGrants(GrantSet g) { return new HostConfig(g, deferred, observers, maxFileReadBytes, revocations, bindings, under); }

    public HostConfig withDeferred(boolean d) { return new HostConfig(grants, d, observers, maxFileReadBytes, revocations, bindings, under); }

    /** This configuration with {@code bytes} as the most a file read hands back. */
    public HostConfig withMaxFileReadBytes(long bytes) { return new HostConfig(grants, deferred, observers, bytes, revocations, bindings, under); }

    /** This configuration with {@code r} as the revocations its runs consult. */
    public HostConfig withRevocations(Revocations r) { return new HostConfig(grants, deferred, observers, maxFileReadBytes, r, bindings, under); }

    public HostConfig withObserver(EffectObserver o) {
        List<EffectObserver> all = new ArrayList<>(observers);
        all.add(o);
        return new HostConfig(grants, deferred, all, maxFileReadBytes, revocations, bindings, under);
    }
}
