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
    public static final HostConfig NONE = new HostConfig(GrantSet.EMPTY, false, List.of(), 8L << 20, new Revocations(), Map.of());

    private final GrantSet grants;
    private final boolean deferred;
    private final List<EffectObserver> observers;
    private final long maxFileReadBytes;
    private final Revocations revocations;
    private final Map<Class<?>, Object> bindings;

    private HostConfig(GrantSet grants, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes, Revocations revocations,
                       Map<Class<?>, Object> bindings) {
        this.grants = grants;
        this.deferred = deferred;
        this.observers = List.copyOf(observers);
        this.maxFileReadBytes = maxFileReadBytes;
        this.revocations = revocations == null ? new Revocations() : revocations;
        this.bindings = bindings;
    }

    /** A configuration with {@code grants}, deferred or not, and no binding. */
    public static HostConfig of(GrantSet grants, boolean deferred) { return NONE.withGrants(grants).withDeferred(deferred); }

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
        if (b == null) {
            for (Object v : bindings.values()) if (family.isInstance(v)) return family.cast(v);
            return null;
        }
        return family.cast(b);
    }

    /** This configuration with {@code host} bound for {@code family} (null: unbound). */
    public <T> HostConfig with(Class<T> family, T host) {
        if (binding(family) == host && bindings.containsKey(family)) return this;
        Map<Class<?>, Object> next = new IdentityHashMap<>(bindings);
        if (host == null) next.remove(family);
        else next.put(family, family.cast(host));
        return new HostConfig(grants, deferred, observers, maxFileReadBytes, revocations, next);
    }

    /**
     * This configuration with each family of {@code hosts} bound to its host (a null host: unbound), as a chain of
     * {@link #with} would bind them, with the bindings copied once.
     */
    public HostConfig withAll(Map<Class<?>, ?> hosts) {
        Map<Class<?>, Object> next = new IdentityHashMap<>(bindings);
        for (Map.Entry<Class<?>, ?> e : hosts.entrySet()) {
            if (e.getValue() == null) next.remove(e.getKey());
            else next.put(e.getKey(), e.getKey().cast(e.getValue()));
        }
        return new HostConfig(grants, deferred, observers, maxFileReadBytes, revocations, next);
    }

    public HostConfig withGrants(GrantSet g) { return new HostConfig(g, deferred, observers, maxFileReadBytes, revocations, bindings); }

    public HostConfig withDeferred(boolean d) { return new HostConfig(grants, d, observers, maxFileReadBytes, revocations, bindings); }

    /** This configuration with {@code bytes} as the most a file read hands back. */
    public HostConfig withMaxFileReadBytes(long bytes) { return new HostConfig(grants, deferred, observers, bytes, revocations, bindings); }

    /** This configuration with {@code r} as the revocations its runs consult. */
    public HostConfig withRevocations(Revocations r) { return new HostConfig(grants, deferred, observers, maxFileReadBytes, r, bindings); }

    public HostConfig withObserver(EffectObserver o) {
        List<EffectObserver> all = new ArrayList<>(observers);
        all.add(o);
        return new HostConfig(grants, deferred, all, maxFileReadBytes, revocations, bindings);
    }
}
