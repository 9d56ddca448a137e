package dev.finch;

import dev.finch.store.Journal;
import dev.finch.store.StoreCode;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostFailure;

/**
 * The durable effect journal of a {@link Finch} with a store: each effect's intent is recorded before its binding
 * performs it and its receipt after, so an effect is never performed twice for one execution and request — in this
 * process or another — and one that was begun but never receipted (a crash between) is detected, not repeated.
 */
record StoreJournal(Journal journal) implements EffectObserver {
    @Override public void requested(EffectRequest request) { }

    @Override public void dispatching(EffectRequest request) throws HostFailure {
        Journal.Recording r;
        try {
            r = journal.record(new Journal.Intent(request.executionId(), request.sequence(), request.requirement().toString(),
                    request.operation(), Journal.digest(String.join("\u0000", request.arguments()))));
        } catch (RuntimeException storeFailed) {
            throw new HostFailure(StoreCode.UNAVAILABLE, "the effect journal could not record request " + request.sequence()
                    + " before performing it, so it was not performed (the host has the cause)", storeFailed);
        }
        if (r instanceof Journal.Recording.Recorded) return;
        boolean begun = r instanceof Journal.Recording.Duplicate d && d.status() instanceof Journal.Status.Pending;
        throw new HostFailure(StoreCode.EFFECT_RECORDED, "request " + request.sequence() + " of execution " + request.executionId()
                + (begun ? " was begun by another copy of this run and never finished (a crash?)" : " was already performed by another copy of this run")
                + "; it is not performed again");
    }

    @Override public void settled(EffectJournal.Entry entry) {
        // Only a performed effect was recorded (a denied request never reaches its binding; a deferred one is the host's).
        if (entry.state() != EffectJournal.State.ACKNOWLEDGED) return;
        EffectRequest q = entry.request();
        try {
            journal.settle(q.executionId(), q.sequence(), new Journal.Receipt.Acknowledged(""));
        } catch (RuntimeException storeFailed) {
            // The effect happened; an unsettled intent stays pending, which a later copy reads as begun, not repeats.
        }
    }
}
