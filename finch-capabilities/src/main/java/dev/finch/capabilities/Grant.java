package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One positive, scoped grant: an id (a handle for revocation, never authority in itself), the capability it
 * confers, and how long it lives.
 *
 * @param id    short identifier, unique within a {@link GrantSet}
 * @param spec  what it permits
 * @param scope how long it lives
 */
public record Grant(String id, CapabilitySpec spec, Scope scope) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public Grant {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(scope, "scope");
        if (id == null || !ID.matcher(id).matches()) throw new IllegalArgumentException("bad grant id: " + id);
    }

    /** Whether {@code id} is a well-formed grant id: 1 to 64 of {@code A-Z a-z 0-9 _ . -}. */
    public static boolean isValidId(String id) { return id != null && ID.matcher(id).matches(); }

    /** A grant from a checked spec; refused when the id is malformed. */
    public static Attempt<Grant> of(String id, CapabilitySpec spec, Scope scope) {
        if (id == null || !ID.matcher(id).matches())
            return Attempt.refused(CapabilityCode.BAD_GRANT_ID.at(Origin.UNKNOWN, "malformed grant id", "[A-Za-z0-9_.-]{1,64}", String.valueOf(id)));
        return Attempt.ok(new Grant(id, spec, scope));
    }

    /** A grant from spec text such as {@code fs.read(${workspace}/src/**)}. */
    public static Attempt<Grant> of(String id, String specText, Scope scope) {
        return CapabilitySpec.parse(specText).flatMap(s -> of(id, s, scope));
    }

    /** Whether this grant, if still held, permits the requirement. */
    public boolean permits(CapabilitySpec requirement) { return spec.contains(requirement); }

    /** Whether this grant permits the requirement; a requirement that does not parse is never permitted. */
    public boolean permits(Capability requirement) {
        Attempt<CapabilitySpec> r = CapabilitySpec.of(requirement);
        return r.isOk() && spec.contains(r.value());
    }

    /** {@code id: spec (scope)}. */
    @Override public String toString() { return id + ": " + spec + " (" + scope + ")"; }
}
