package dev.finch.vm;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.type.Type;

/**
 * Which runs may go on the calling thread instead of one of the VM's big-stack workers. The worker exists for
 * depth: a run that recurses ten thousand calls deep (the default {@link Limits#maxDepth()}) must reach the depth
 * limit, not the end of an embedder's small thread stack, and a run that may wait on a host must be bounded by its
 * deadline even if the host never answers. A run needs neither when its call depth is bounded by its own text:
 * <ul>
 *   <li>it defines no words and calls none of the session's (only vocabulary words, none of which can pause);</li>
 *   <li>it has no loop, no closure literal and no quotation, so nothing it runs can call back into a program;</li>
 *   <li>it needs no capability but {@code session.emit} (say and output events go to the run's sink; no host is
 *       waited on) and does not suspend;</li>
 *   <li>the state it starts from holds no function or fiber value (which could recurse when called);</li>
 *   <li>its blocks nest at most {@link #MAX_NESTING} deep (the interpreter recurses over nesting);</li>
 *   <li>the calling thread is not already running a Finch program (its strand binding is the thread's own);</li>
 *   <li>the calling thread has room on its stack ({@link #roomy()}).</li>
 * </ul>
 * Such a run executes each instruction of its text at most once, so its stack use is a small multiple of its
 * nesting, and it runs on the caller's thread without a hand-off; every limit (steps, time, memory, output) is
 * checked by the same code as on a worker. Everything else runs on a worker, as before.
 */
public final class CallerThread {
    private CallerThread() { }

    /**
     * The deepest block nesting run on the calling thread: the default {@code CompileLimits.maxNesting}, at which
     * the interpreter's frames take well under a quarter of a default (1 MiB) JVM thread stack.
     */
    public static final int MAX_NESTING = 256;


    private static final long CALIBRATION_STACK = 1L << 20;
    /**
     * Probe frames that take about half a MiB of stack: measured once, on a thread of {@link #CALIBRATION_STACK} bytes,
     * as half the frames it holds.
     */
    private static final int PROBE_FRAMES = Probe.calibrate(CALIBRATION_STACK);
    /** Whether each thread had room for the probe the first time it asked; a thread's stack size never changes. */
    private static final ThreadLocal<Boolean> ROOMY = new Roomy();

    /** A thread's answer, probed when it first asks. A named class, not a lambda: a fresh JVM's first submission asks. */
    private static final class Roomy extends ThreadLocal<Boolean> {
        @Override
        protected Boolean initialValue() { return reaches(PROBE_FRAMES); }
    }

    /**
     * Whether the calling thread's stack has room — about half a MiB left when first asked on this thread, measured
     * by recursing a small method that links nothing and initializes no class (so running out of stack in it is
     * harmless) — for compiling and running a program of the default nesting limit. The frontends need up to about
     * 200 KiB of it for a short program in a JVM that has not loaded their classes yet, and running out while a class
     * initializes would break that class for the whole JVM: a thread with a small stack (an embedder's 128 KiB pool
     * thread, say) always hands its work to a big-stack worker.
     */
    public static boolean roomy() { return ROOMY.get(); }

    private static boolean reaches(int frames) {
        if (frames == Integer.MAX_VALUE) return false;
        try {
            int[] reached = new int[1];
            Probe.descend(0, frames, reached, 1);
            return reached[0] == frames;
        } catch (StackOverflowError small) {
            return false;
        }
    }

    /** The probe, in a class of its own: the calibrating thread must not wait for this class's initialization. */
    private static final class Probe implements Runnable {
        /** The deepest frame the probe thread reached. */
        private final int[] deepest = new int[1];

        @Override
        public void run() {
            try {
                descend(0, Integer.MAX_VALUE, deepest, 1);
            } catch (StackOverflowError expected) {
                // Its depth is the measurement.
            }
        }

        /** Half the probe frames a new thread of {@code stackBytes} holds; the probe thread runs only this class's code. */
        static int calibrate(long stackBytes) {
            Probe probe = new Probe();
            Thread t = new Thread(null, probe, "finch-stack-probe", stackBytes);
            t.setDaemon(true);
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Integer.MAX_VALUE; // unmeasured: no thread counts as roomy
            }
            return Math.max(1, probe.deepest[0] / 2);
        }

        /**
         * Recurses {@code limit} frames deep, recording the depth reached. Each frame keeps sixteen longs live across
         * its call, so interpreted and compiled frames are about the same size (the JIT must spill them): the
         * calibration and a later probe measure alike whatever tier runs them.
         */
        static long descend(int depth, int limit, int[] deepest, long s) {
            deepest[0] = depth;
            if (depth >= limit) return s;
            long a0 = s + 1, a1 = a0 * 3, a2 = a1 ^ a0, a3 = a2 + a1, a4 = a3 * 5, a5 = a4 ^ a3, a6 = a5 + a4, a7 = a6 * 7;
            long a8 = a7 ^ a6, a9 = a8 + a7, a10 = a9 * 11, a11 = a10 ^ a9, a12 = a11 + a10, a13 = a12 * 13, a14 = a13 ^ a12, a15 = a14 + a13;
            long r = descend(depth + 1, limit, deepest, a15);
            return r + a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15;
        }
    }

    /** Whether {@code module}, started from {@code state}, may run on the calling thread (see the class comment). */
    public static boolean canRun(CheckedModule module, VmState state) {
        if (!roomy()) return false;
        if (!module.words().isEmpty() || module.main().suspends()) return false;
        for (var c : module.inferredCapabilities()) if (!c.equals(dev.finch.ir.cap.Capability.SESSION_EMIT)) return false;
        if (dev.finch.vm.runtime.Strands.current() != null) return false;
        for (TypedValue v : state.stack()) if (holdsFunction(v.type())) return false;
        for (TypedValue v : state.constants().values()) if (holdsFunction(v.type())) return false;
        return shallow(module.main().body(), 0);
    }

    private static boolean shallow(CheckedBlock block, int depth) {
        if (depth > MAX_NESTING) return false;
        for (Node n : block.nodes()) {
            switch (n.kind()) {
                case LOOP, UNTIL, CLOSURE, QUOTE -> { return false; }
                case CALL -> {
                    Checked.CallNode call = (Checked.CallNode) n;
                    if (call.suspends() || call.target().kind() == Checked.Target.Kind.WORD) return false;
                }
                case IF, IF_SOME, IF_OK, CASE, LIST, MAP, RECORD -> {
                    for (CheckedBlock inner : Checked.children(n)) if (!shallow(inner, depth + 1)) return false;
                }
                case PUSH, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> { }
            }
        }
        return true;
    }

    /**
     * Whether a value of type {@code t} may hold a function or a fiber — a value a closure literal made, which a
     * program can call. A state holding none has only data.
     */
    public static boolean holdsFunction(Type t) {
        return switch (t.kind()) {
            case FN, FIBER -> true;
            case LIST -> holdsFunction(((Type.ListT) t).element());
            case OPTION -> holdsFunction(((Type.OptionT) t).value());
            case RESULT -> holdsFunction(((Type.ResultT) t).ok()) || holdsFunction(((Type.ResultT) t).err());
            case MAP -> holdsFunction(((Type.MapT) t).key()) || holdsFunction(((Type.MapT) t).value());
            case RECORD -> ((Type.RecordT) t).fields().values().stream().anyMatch(CallerThread::holdsFunction);
            case VARIANT -> ((Type.VariantT) t).tags().values().stream().anyMatch(p -> p.isPresent() && holdsFunction(p.get()));
            case NAMED -> ((Type.Named) t).definition().map(CallerThread::holdsFunction).orElse(false);
            case PRIM, PATH, TASK, STREAM, RESOURCE, VAR -> false;
        };
    }
}
