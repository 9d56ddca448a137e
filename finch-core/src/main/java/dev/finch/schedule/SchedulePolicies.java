package dev.finch.schedule;

import dev.finch.host.ScheduleCode;
import dev.finch.vm.boundary.HostFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A host's schedule policies by name, as every scheduler reads them — Finch's own {@link Scheduler} and a schedule host
 * elsewhere (finch-temporal's Temporal Schedules): one lookup, one refusal of a name the host did not define.
 */
public final class SchedulePolicies {
    private final Map<String, SchedulePolicy> byName;

    private SchedulePolicies(Map<String, SchedulePolicy> byName) { this.byName = byName; }

    /** {@code policies} by name. @throws IllegalArgumentException when two share a name */
    public static SchedulePolicies of(List<SchedulePolicy> policies) {
        Map<String, SchedulePolicy> byName = new LinkedHashMap<>();
        for (SchedulePolicy p : policies) {
            if (byName.putIfAbsent(p.name(), p) != null) throw new IllegalArgumentException("two schedule policies are named " + p.name());
        }
        return new SchedulePolicies(byName);
    }

    /** The policy named {@code name}, if the host defined one. */
    public Optional<SchedulePolicy> find(String name) { return Optional.ofNullable(byName.get(name)); }

    /** The policy named {@code name}. @throws HostFailure {@code E-SCHEDULE-002} when the host defined none */
    public SchedulePolicy get(String name) throws HostFailure {
        SchedulePolicy p = byName.get(name);
        if (p == null) {
            throw new HostFailure(ScheduleCode.UNKNOWN_POLICY, "the host defined no schedule policy named \""
                    + (name.length() <= 60 ? name : name.substring(0, 60) + "…") + "\"");
        }
        return p;
    }

    /** Every policy, in the order the host defined them. */
    public List<SchedulePolicy> all() { return new ArrayList<>(byName.values()); }

    /** A new schedule id: {@code sch-} and a random base-36 number. */
    public static String newId() { return "sch-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36); }
}
