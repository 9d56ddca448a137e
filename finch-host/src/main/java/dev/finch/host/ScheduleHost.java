package dev.finch.host;

import dev.finch.vm.boundary.HostFailure;
import java.time.Instant;
import java.util.List;

/**
 * What the schedule words ask of the host: its scheduler, whose policies the host defined. Arguments arrive checked:
 * {@code when} parsed, the program at most {@value ScheduleWords#MAX_PROGRAM_BYTES} bytes. Failures are
 * {@link ScheduleCode}s: a policy the host did not define, an instant already past, too many schedules, a store that
 * failed.
 */
public interface ScheduleHost {
    /** Schedules {@code program} (source text) to run {@code when} under {@code policy}; the new schedule's id. */
    String create(String policy, ScheduleWhen when, String program) throws HostFailure;

    /** The live schedules of {@code policy}, in id order. */
    List<Listed> list(String policy) throws HostFailure;

    /** Cancels the schedule {@code id} of {@code policy}; false when there is none (or it is another policy's). */
    boolean cancel(String policy, String id) throws HostFailure;

    /** A live schedule as a program sees it: {@code next} is when it runs next. */
    record Listed(String id, String policy, String when, String program, long runs, Instant next) { }
}
