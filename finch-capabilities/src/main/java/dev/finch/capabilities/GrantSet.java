package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable set of grants with unique ids, in the order they were added. Every change returns a new set, so a
 * suspended run can keep the exact set it was authorized under.
 */
public final class GrantSet {
    /** No grants at all: every requirement is missing. */
    public static final GrantSet EMPTY = new GrantSet(List.of());

    private final List<Grant> grants;

    private GrantSet(List<Grant> grants) { this.grants = List.copyOf(grants); }

    /** A set of the given grants; refused when two share an id. */
    public static Attempt<GrantSet> of(Collection<Grant> grants) {
        Attempt<GrantSet> set = Attempt.ok(EMPTY);
        for (Grant g : grants) set = set.flatMap(s -> s.add(g));
        return set;
    }

    /** The grants in insertion order. */
    public List<Grant> grants() { return grants; }

    /** Number of grants. */
    public int size() { return grants.size(); }

    /** True when there are no grants. */
    public boolean isEmpty() { return grants.isEmpty(); }

    /** The grant with this id. */
    public Optional<Grant> get(String id) {
        for (Grant g : grants) if (g.id().equals(id)) return Optional.of(g);
        return Optional.empty();
    }

    /** This set plus {@code grant}; refused when its id is taken. */
    public Attempt<GrantSet> add(Grant grant) {
        if (get(grant.id()).isPresent())
            return Attempt.refused(CapabilityCode.DUPLICATE_GRANT.at(Origin.UNKNOWN, "a grant with id '" + grant.id() + "' is already present"));
        List<Grant> next = new ArrayList<>(grants);
        next.add(grant);
        return Attempt.ok(new GrantSet(next));
    }

    /** This set without the grant {@code id}; refused when there is none, so a mistyped id is not silently ignored. */
    public Attempt<GrantSet> revoke(String id) {
        if (get(id).isEmpty())
            return Attempt.refused(CapabilityCode.UNKNOWN_GRANT.at(Origin.UNKNOWN, "no grant with id '" + id + "' to revoke"));
        List<Grant> next = new ArrayList<>();
        for (Grant g : grants) if (!g.id().equals(id)) next.add(g);
        return Attempt.ok(new GrantSet(next));
    }

    /** This set without every grant that ends with {@code ended} (that scope and all narrower ones). */
    public GrantSet expire(Scope ended) {
        List<Grant> next = new ArrayList<>();
        for (Grant g : grants) if (!g.scope().within(ended)) next.add(g);
        return new GrantSet(next);
    }

    /** Whether some grant permits the requirement; a requirement that does not parse is never permitted. */
    public boolean permits(Capability requirement) { return grantFor(requirement).isPresent(); }

    /** Whether some grant permits the typed requirement. */
    public boolean permits(CapabilitySpec requirement) { return grantFor(requirement).isPresent(); }

    /** The grant {@link #use} would spend on the requirement. */
    public Optional<Grant> grantFor(Capability requirement) {
        Attempt<CapabilitySpec> r = CapabilitySpec.of(requirement);
        return r.isOk() ? grantFor(r.value()) : Optional.empty();
    }

    /** The grant {@link #use} would spend: a lasting grant when one permits it, so a once grant is kept for later. */
    public Optional<Grant> grantFor(CapabilitySpec requirement) {
        Grant once = null;
        for (Grant g : grants) {
            if (!g.permits(requirement)) continue;
            if (g.scope() != Scope.ONCE) return Optional.of(g);
            if (once == null) once = g;
        }
        return Optional.ofNullable(once);
    }

    /**
     * Authorizes one use of the requirement: the permitting grant and the set to continue with, which no longer holds
     * that grant when it was {@link Scope#ONCE}. Refused with {@link CapabilityCode#NOT_GRANTED} when nothing permits it.
     */
    public Attempt<GrantUse> use(Capability requirement) {
        return CapabilitySpec.of(requirement).flatMap(this::use);
    }

    /** Authorizes one use of a typed requirement. */
    public Attempt<GrantUse> use(CapabilitySpec requirement) {
        Optional<Grant> g = grantFor(requirement);
        if (g.isEmpty())
            return Attempt.refused(CapabilityCode.NOT_GRANTED.at(Origin.UNKNOWN,
                    "no grant permits " + requirement, "a grant containing " + requirement, grantsSpelling()));
        Grant grant = g.get();
        GrantSet after = grant.scope() == Scope.ONCE ? revoke(grant.id()).value() : this;
        return Attempt.ok(new GrantUse(grant, after));
    }

    /**
     * The requirements no grant permits, canonical and sorted: the concrete missing subset a suspended outcome
     * reports as {@code required_capabilities}. A requirement that does not parse counts as missing.
     */
    public SortedSet<Capability> missing(Collection<Capability> requirements) {
        TreeSet<Capability> out = new TreeSet<>();
        for (Capability c : requirements) if (!permits(c)) out.add(c);
        return out;
    }

    /**
     * Checks that {@code child} is an attenuated subset of this set, for a child agent: each child grant must be
     * contained in some parent grant that lives at least as long ({@link Scope#within}) and is not {@link Scope#ONCE}
     * (delegating a single use would let parent and child both spend it). Returns {@code child} when it passes, or
     * one {@link CapabilityCode#ATTENUATION_EXCEEDS} refusal per offending grant.
     */
    public Attempt<GrantSet> attenuate(GrantSet child) {
        List<Diagnostic> refusals = new ArrayList<>();
        for (Grant c : child.grants) {
            boolean covered = false;
            for (Grant p : grants) {
                if (p.scope() != Scope.ONCE && c.scope().within(p.scope()) && p.spec().contains(c.spec())) {
                    covered = true;
                    break;
                }
            }
            if (!covered)
                refusals.add(CapabilityCode.ATTENUATION_EXCEEDS.at(Origin.UNKNOWN,
                        "child grant '" + c.id() + "' is not contained in a delegable parent grant",
                        "within " + grantsSpelling(), c.spec() + " (" + c.scope() + ")"));
        }
        return refusals.isEmpty() ? Attempt.ok(child) : Attempt.refused(refusals);
    }

    /** The distinct canonical specs held, for previews. */
    public SortedSet<Capability> capabilities() {
        TreeSet<Capability> out = new TreeSet<>();
        for (Grant g : grants) out.add(g.spec().toCapability());
        return out;
    }

    private String grantsSpelling() {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (Grant g : grants) if (seen.add(g.spec().toString())) out.add(g.spec().toString());
        return out.isEmpty() ? "no grants" : String.join(", ", out);
    }

    @Override public boolean equals(Object o) { return o instanceof GrantSet s && s.grants.equals(grants); }

    @Override public int hashCode() { return grants.hashCode(); }

    @Override public String toString() { return grants.toString(); }
}
