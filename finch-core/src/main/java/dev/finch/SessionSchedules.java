package dev.finch;

import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostFailure;
import java.util.List;
import java.util.Optional;

/**
 * The schedule words' host as one session's runs see it: the Finch's {@link dev.finch.schedule.Scheduler} (or the
 * builder's schedule host, such as Temporal Schedules), with the
 * language of a program resolved when it is scheduled (named, else the contract's rule) and a word scheduled by name
 * taken from the run's dictionary ({@link ScheduledWord}).
 *
 * @param session the session whose run schedules
 * @param state   the dictionary the run started from; null: the session's committed one when asked
 * @param run     the run's own program, whose words it may schedule too; null: none
 */
record SessionSchedules(Session session, VmState state, CheckedModule run) implements ScheduleHost {
    @Override public String create(String policy, ScheduleWhen when, Work work) throws HostFailure {
        ScheduleHost elsewhere = session.finch().scheduleHost();
        var scheduler = session.finch().scheduler();
        if (work instanceof Work.Program p) {
            Language language = p.language().flatMap(Language::named).orElseGet(() -> Language.infer(p.text()));
            if (elsewhere != null) return elsewhere.create(policy, when, new Work.Program(p.text(), Optional.of(language.spelling())));
            return scheduler.create(policy, when, p.text(), language, Optional.empty());
        }
        Work.Word w = (Work.Word) work;
        if (scheduler != null) scheduler.policy(policy);
        String program = ScheduledWord.program(session, state != null ? state : session.committedState(), run, w.name(), w.constants());
        // A schedule host elsewhere (Temporal Schedules) gets the word as the program that calls it, in Co-Forth.
        if (elsewhere != null) return elsewhere.create(policy, when, new Work.Program(program, Optional.of(Language.FORTH.spelling())));
        return scheduler.create(policy, when, program, Language.FORTH, Optional.of(w.name()));
    }

    @Override public List<Listed> list(String policy) throws HostFailure {
        ScheduleHost elsewhere = session.finch().scheduleHost();
        return elsewhere != null ? elsewhere.list(policy) : session.finch().scheduler().list(policy);
    }

    @Override public boolean cancel(String policy, String id) throws HostFailure {
        ScheduleHost elsewhere = session.finch().scheduleHost();
        return elsewhere != null ? elsewhere.cancel(policy, id) : session.finch().scheduler().cancel(policy, id);
    }
}
