package dev.finch.vm.value;


/**
 * A fiber: a first-class, checkpointable handle over a closure that yields ({@code fiber<Y,R>}, made by
 * {@code fiber-new}). Between two {@code fiber-next}s it holds only the frames its body left at its last
 * {@code yield} — typed values and resume points, like a paused run — so it persists wherever a suspended run does.
 *
 * <p>A fiber is a handle: copies of it ({@code dup}) are one fiber. Its state changes are part of the run that makes
 * them: {@link #snapshot} and {@link #restore} let the run undo them when it fails or is cancelled, so a failed
 * program has consumed nothing.
 */
public final class Fiber {
    /** Where a fiber is. */
    public enum Status {
        /** Made, never run. */
        NEW,
        /** Stopped at a yield; its frames wait for the next {@code fiber-next}. */
        SUSPENDED,
        /** Its body is running (or the run paused inside it: its frames are then the run's). */
        RUNNING,
        /** Its body returned: every later {@code fiber-next} answers {@code err(end(result))}. */
        DONE,
        /** Cancelled: every later use is a checked run-time error. */
        CANCELLED
    }

    /** A fiber's state at one moment, to restore when a run that changed it fails. */
    public record Snapshot(Status status, Frame[] frames, Object result) { }

    private final Closure body;
    private final dev.finch.ir.type.Type.FiberT type;
    private Status status = Status.NEW;
    /** The frames its body left at its last yield, innermost first; empty unless suspended. */
    private Frame[] frames = new Frame[0];
    private Object result;

    public Fiber(Closure body, dev.finch.ir.type.Type.FiberT type) {
        this.body = body;
        this.type = type;
    }

    /** A fiber as a saved image or continuation recorded it. */
    public static Fiber restored(Closure body, dev.finch.ir.type.Type.FiberT type, Status status, Frame[] frames, Object result) {
        Fiber f = new Fiber(body, type);
        f.status = status;
        f.frames = frames.clone();
        f.result = result;
        return f;
    }

    public Closure body() { return body; }

    public dev.finch.ir.type.Type.FiberT type() { return type; }

    public Status status() { return status; }

    /** The frames of a suspended fiber, innermost first. */
    public Frame[] frames() { return frames.clone(); }

    /** The body's result once {@link Status#DONE}. */
    public Object result() { return result; }

    public Snapshot snapshot() { return new Snapshot(status, frames.clone(), result); }

    public void restore(Snapshot s) {
        status = s.status();
        frames = s.frames().clone();
        result = s.result();
    }

    /** Starts or resumes the body: its saved frames (innermost first) go to the caller, which re-enters them. */
    public Frame[] enter() {
        Frame[] f = frames;
        frames = new Frame[0];
        status = Status.RUNNING;
        return f;
    }

    /** The body yielded: it keeps the frames it left (innermost first). */
    public void suspended(Frame[] left) {
        frames = left.clone();
        status = Status.SUSPENDED;
    }

    /** The body returned {@code value}. */
    public void finished(Object value) {
        result = value;
        frames = new Frame[0];
        status = Status.DONE;
    }

    public void cancel() {
        frames = new Frame[0];
        result = null;
        status = Status.CANCELLED;
    }

    @Override public String toString() { return "fiber:" + status.name().toLowerCase(java.util.Locale.ROOT); }
}
