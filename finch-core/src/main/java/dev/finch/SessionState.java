package dev.finch;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.word.Library;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A session's committed state and its transaction: runs start from one {@link Snapshot}, and only a completed run
 * commits, onto the snapshot it started from (a run whose session moved on meanwhile commits nothing). A snapshot is
 * replaced whole, so a reader on another thread never sees half a commit.
 */
final class SessionState {
    /** The committed state: what runs start from and what outcomes report when nothing was committed. */
    record Snapshot(VmState state, long revision, long generation) { }

    private volatile Snapshot snapshot;

    SessionState(VmState empty) { this.snapshot = new Snapshot(empty, 0, 1); }

    Snapshot current() { return snapshot; }

    /** Installs a restored state, as it was when its image was saved. */
    void restore(VmState state, long revision, long generation) { snapshot = new Snapshot(state, revision, generation); }

    /** Replaces the words submissions may call: the manifest generation goes up by one (answered). */
    long installWords(UnaryOperator<Library> change) {
        Snapshot s = snapshot;
        snapshot = new Snapshot(s.state().withLibrary(change.apply(s.state().library())), s.revision(), s.generation() + 1);
        return s.generation() + 1;
    }

    /**
     * Commits a completed run that started at {@code baseRevision}: its stack and dictionary (words installed while it
     * was suspended stay installed), one revision on. Empty, and the run's changes discarded, when the session moved on
     * since it started. The submission it was made from goes into {@code history} when rebuilding the dictionary needs
     * it: when it changed the dictionary, or may have left a value one of its closure literals made.
     */
    Optional<Snapshot> commit(RunResult.Completed run, long baseRevision, SessionHistory.Submitted entry, SessionHistory history) {
        Snapshot now = snapshot;
        if (now.revision() != baseRevision) {
            run.discardChanges();
            return Optional.empty();
        }
        Snapshot next = new Snapshot(run.state().withLibrary(now.state().library()), now.revision() + 1, now.generation());
        if (entry != null && (!run.state().words().equals(now.state().words()) || leavesLiteralValues(run.state()))) {
            history.commit(entry, run.state().words());
        }
        snapshot = next;
        return Optional.of(next);
    }

    /** A change the host made itself (a constant it defined), committed as a run's would be: one revision on (answered). */
    long commitHostChange(UnaryOperator<VmState> change) {
        Snapshot s = snapshot;
        snapshot = new Snapshot(change.apply(s.state()), s.revision() + 1, s.generation());
        return s.revision() + 1;
    }

    /** Why {@code s}, composed against a revision or generation it states, may not run on the current state. */
    Optional<Diagnostic> staleness(Submission s) {
        Snapshot at = snapshot;
        Origin whole = Origin.of(s.sourceId(), 0, 0);
        if (s.expectedRevision().isPresent() && s.expectedRevision().getAsLong() != at.revision()) {
            return Optional.of(SessionCode.STALE_REVISION.at(whole,
                    "the program was composed against VM revision " + s.expectedRevision().getAsLong()
                            + " but the session is at revision " + at.revision() + "; re-read the VM state",
                    Long.toString(at.revision()), Long.toString(s.expectedRevision().getAsLong())));
        }
        if (s.expectedGeneration().isPresent() && s.expectedGeneration().getAsLong() != at.generation()) {
            return Optional.of(SessionCode.STALE_GENERATION.at(whole,
                    "the program was composed against manifest generation " + s.expectedGeneration().getAsLong()
                            + " but the session is at generation " + at.generation() + "; re-read the vocabulary",
                    Long.toString(at.generation()), Long.toString(s.expectedGeneration().getAsLong())));
        }
        return Optional.empty();
    }

    /** Whether a committed state may hold a value that a program's closure literal made (its type holds a function or fiber). */
    private static boolean leavesLiteralValues(VmState state) {
        if (state.stackHoldsFunction()) return true;
        for (TypedValue v : state.constants().values()) if (dev.finch.vm.engine.CallerThread.holdsFunction(v.type())) return true;
        return false;
    }
}
