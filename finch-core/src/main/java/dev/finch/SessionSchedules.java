package dev.finch;

import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.vm.VmState;
import dev.finch.vm.boundary.HostFailure;
import java.util.List;
import java.util.Optional;

/**
 * The schedule words' host as one session's runs see it: the Finch's {@link dev.finch.schedule.Scheduler}, with the
 * language of a program resolved when it is scheduled (named, else the contract's rule) and a word scheduled by name
 * taken from the run's dictionary ({@link ScheduledWord}).
 *
 * @param session the session whose run schedules
 * @param state   the dictionary the run started from; null: the session's committed one when asked
 * @param run     the run's own program, whose words it may schedule too; null: none
 */
record SessionSchedules(Session session, VmState state, CheckedModule run) implements ScheduleHost {
    @Override public String create(String policy, ScheduleWhen when, Work work) throws HostFailure {
        var scheduler = session.finch().scheduler();
        if (work instanceof Work.Program p) {
            Language language = p.language().flatMap(Language::named).orElseGet(() -> Language.infer(p.text()));
            return scheduler.create(policy, when, p.text(), language, Optional.empty());
        }
        Work.Word w = (Work.Word) work;
        scheduler.policy(policy);
        String program = ScheduledWord.program(session, state != null ? state : session.committedState(), run, w.name(), w.constants());
        return scheduler.create(policy, when, program, Language.FORTH, Optional.of(w.name()));
    }

    @Override public List<Listed> list(String policy) throws HostFailure { return session.finch().scheduler().list(policy); }

    @Override public boolean cancel(String policy, String id) throws HostFailure { return session.finch().scheduler().cancel(policy, id); }
}
