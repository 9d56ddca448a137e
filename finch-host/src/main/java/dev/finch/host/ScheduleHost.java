package dev.finch.host;

import dev.finch.host.words.ScheduleWords;
import dev.finch.vm.boundary.HostFailure;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the schedule words ask of the host: its scheduler, whose policies the host defined. Arguments arrive checked:
 * {@code when} parsed, a program at most {@value ScheduleWords#MAX_PROGRAM_BYTES} bytes in a language Finch reads.
 * Failures are {@link ScheduleCode}s: a policy the host did not define, an instant already past, too many schedules, a
 * word that cannot be scheduled by name, a store that failed.
 */
public interface ScheduleHost {
    /** Schedules {@code work} to run {@code when} under {@code policy}; the new schedule's id. */
    String create(String policy, ScheduleWhen when, Work work) throws HostFailure;

    /** The live schedules of {@code policy}, in id order. */
    List<Listed> list(String policy) throws HostFailure;

    /** Cancels the schedule {@code id} of {@code policy}; false when there is none (or it is another policy's). */
    boolean cancel(String policy, String id) throws HostFailure;

    /** What a schedule runs: program text, or a word the creating run defined. */
    sealed interface Work permits Work.Program, Work.Word {
        /**
         * Program text in {@code language} ({@code lisp}, {@code forth} or {@code norman}); without one the contract's
         * rule decides by the text (a {@code (} first is Lisp, else Co-Forth).
         */
        record Program(String text, Optional<String> language) implements Work {
            public Program {
                Objects.requireNonNull(text, "text");
                Objects.requireNonNull(language, "language");
            }
        }

        /**
         * A word of the creating run's dictionary, called on an empty stack when the schedule runs; {@code constants}
         * are the values the run holds by name (what the word's definitions read is kept with it).
         */
        record Word(String name, Map<String, Object> constants) implements Work {
            public Word {
                Objects.requireNonNull(name, "name");
                Objects.requireNonNull(constants, "constants");
            }
        }
    }

    /** A live schedule as a program sees it: {@code next} is when it runs next. */
    record Listed(String id, String policy, String when, String program, long runs, Instant next) { }
}
