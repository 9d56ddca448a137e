package dev.finch.vm.engine;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.type.Type;
import dev.finch.vm.BufferedSink;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.TypedValue;
import java.util.HashMap;
import java.util.Map;

/**
 * Which runs may go on the calling thread instead of one of the VM's big-stack workers. The worker exists for
 * depth: a run that recurses ten thousand calls deep (the default {@link Limits#maxDepth()}) must reach the depth
 * limit, not the end of an embedder's small thread stack, and a run that may wait on a host must be bounded by its
 * deadline even if the host never answers. A run needs neither when its call depth is bounded by its own text:
 * <ul>
 *   <li>the words it reaches — its own definitions and the session's, through every call — form no cycle, and the
 *       deepest chain of calls and nested blocks from its main is at most {@link #MAX_NESTING}, a call counting as
 *       four blocks (the interpreter recurses over nesting, and a call is a few JVM frames);</li>
 *   <li>neither it nor any word it reaches has a closure literal or a quotation, so nothing it runs can call back into
 *       a program (a function value could recurse);</li>
 *   <li>it needs no capability but {@code session.emit} (say and output events go to the run's sink; no host is
 *       waited on), calls no word the embedding host installed (whose code may spin or block) and does not suspend;</li>
 *   <li>its output sink is none ({@link OutputSink#NONE}) or Finch's own {@link BufferedSink} (which hands events to a
 *       delivery thread and returns): any other sink is the embedder's code, which may block (a full pipe) — on a
 *       worker the caller still gets its outcome at the deadline ({@link Vm});</li>
 *   <li>the state it starts from holds no function or fiber value (which could recurse when called);</li>
 *   <li>the calling thread is not already running a Finch program (its strand binding is the thread's own);</li>
 *   <li>the calling thread has room on its stack ({@link #roomy()}).</li>
 * </ul>
 * Such a run's stack use is a small multiple of that chain; loops repeat instructions without deepening it. It runs
 * on the caller's thread without a hand-off; every limit (steps, time, memory, output, cancellation) is checked by the
 * same code as on a worker, and an interrupt of the calling thread cancels it as it cancels a run a waiting thread
 * gave up on. Everything else — recursion, closures, host effects, suspension — runs on a worker, as before. The half
 * that depends only on the program and the state's dictionary ({@link #bounded}) is computed once per compiled
 * program ({@link Vm#prepare}).
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

    /**
     * Whether {@code module}, started from {@code state}, may run on the calling thread (see the class comment): its
     * text bounds its depth ({@link #bounded}), and the thread and the stack it starts with allow it
     * ({@link #canRun(boolean, java.util.List)}).
     */
    public static boolean canRun(CheckedModule module, VmState state) {
        return roomy() && canRun(bounded(module, state), state.stack());
    }

    /**
     * Whether a run of a module whose text {@code bounded} its depth ({@link #bounded}, computed once for a prepared
     * program) may start on the calling thread with {@code stack}: the thread has room and runs no Finch program
     * already, and no value on the stack holds a function.
     */
    public static boolean canRun(boolean bounded, java.util.List<TypedValue> stack) {
        if (!bounded || !roomy()) return false;
        if (dev.finch.vm.runtime.Strands.current() != null) return false;
        for (TypedValue v : stack) if (holdsFunction(v.type())) return false;
        return true;
    }

    /**
     * The half of {@link #canRun(CheckedModule, VmState)} that depends only on the program and the state's dictionary
     * and constants: the module needs no capability but {@code session.emit}, does not suspend, holds no closure literal
     * or quotation, no constant of the state holds a function, and the words its main reaches — its own definitions and
     * the state's, through every call — form no cycle, none suspends or holds a closure or quotation, and the
     * deepest chain of calls and nested blocks from main is at most {@link #MAX_NESTING}. Loops are allowed: they
     * repeat instructions but do not deepen the stack, and they check the step budget, the deadline and cancellation
     * as on a worker.
     */
    public static boolean bounded(CheckedModule module, VmState state) {
        if (module.main().suspends()) return false;
        for (var c : module.inferredCapabilities()) if (!c.equals(dev.finch.ir.cap.Capability.SESSION_EMIT)) return false;
        for (TypedValue v : state.constants().values()) if (holdsFunction(v.type())) return false;
        return new Depth(module, state).of(module.main().body(), 0) <= MAX_NESTING;
    }

    /**
     * The stack depth a block needs: one per nested block and {@link #CALL_WEIGHT} per word called, the deepest path; unbounded
     * ({@code Integer.MAX_VALUE}) through a cycle of words, a closure literal, a quotation or a suspending call. Each
     * word is measured once.
     */
    private static final class Depth {
        private static final int UNBOUNDED = Integer.MAX_VALUE;
        /**
         * What one call of a word counts for against {@link #MAX_NESTING}, in nested blocks: a call is several JVM
         * frames (its entry's handle and adapters, its body; an interpreted word's interpreter), a block of the
         * interpreter one. So at most 64 words deep.
         */
        private static final int CALL_WEIGHT = 4;
        private final Map<String, Checked.CheckedWord> local = new HashMap<>();
        private final VmState state;
        /** Each word measured so far; a word being measured is {@link #UNBOUNDED} until it is done (a cycle). */
        private final Map<String, Integer> words = new HashMap<>();

        Depth(CheckedModule module, VmState state) {
            for (Checked.CheckedWord w : module.words()) local.put(w.name(), w);
            this.state = state;
        }

        /**
         * The deepest depth reached in {@code block}, entered at {@code depth}; {@link #UNBOUNDED} beyond
         * {@link #MAX_NESTING} (so this recursion is never deeper than that either).
         */
        int of(CheckedBlock block, int depth) {
            if (depth > MAX_NESTING) return UNBOUNDED;
            int deepest = depth;
            for (Node n : block.nodes()) {
                int d = switch (n.kind()) {
                    case CLOSURE, QUOTE -> UNBOUNDED;
                    case CALL -> {
                        Checked.CallNode call = (Checked.CallNode) n;
                        if (call.suspends() || foreign(call, state)) yield UNBOUNDED;
                        if (call.target().kind() != Checked.Target.Kind.WORD) yield depth;
                        int need = word(call.target().name(), depth);
                        yield need == UNBOUNDED ? UNBOUNDED : depth + need;
                    }
                    case IF, IF_SOME, IF_OK, CASE, LIST, MAP, RECORD, LOOP, UNTIL -> {
                        int inner = depth;
                        for (CheckedBlock b : Checked.children(n)) inner = Math.max(inner, of(b, depth + 1));
                        yield inner;
                    }
                    case PUSH, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> depth;
                };
                if (d > MAX_NESTING) return UNBOUNDED;
                deepest = Math.max(deepest, d);
            }
            return deepest;
        }

        /**
         * How much deeper a call of {@code name} made at {@code depth} goes: its weight and its body's deepest path.
         * Once anything is unbounded the whole answer is, so remembering a word as unbounded is exact.
         */
        private int word(String name, int depth) {
            Integer known = words.get(name);
            if (known != null) return known;
            if (depth + CALL_WEIGHT > MAX_NESTING) return UNBOUNDED;
            Checked.CheckedWord w = local.get(name);
            if (w == null) {
                CompiledWord persisted = state.words().get(name);
                w = persisted == null ? null : persisted.checked();
            }
            if (w == null || w.suspends()) return UNBOUNDED;
            words.put(name, UNBOUNDED);
            int reached = of(w.body(), depth + CALL_WEIGHT);
            int need = reached == UNBOUNDED ? UNBOUNDED : reached - depth;
            words.put(name, need);
            return need;
        }
    }

    /**
     * The deepest calls a {@link #replayable} run goes on the calling thread. A level of a recursive word takes 44 bytes
     * of JVM stack compiled by the JIT, ~220 in the JVM's bytecode interpreter and up to ~800 in Finch's interpreter
     * tier before the JIT has seen it (measured on a 1 MiB thread), so this many take at most ~100 KiB, well inside the
     * room {@link #roomy()} asks for. A run that needs more starts again on a worker.
     */
    public static final int REPLAYABLE_DEPTH = 128;

    /**
     * Whether nothing a run of {@code module} on {@code state} does can be seen before it ends, so that a run abandoned
     * part-way and started again from the beginning is the same as one run: it needs no capability at all (no output, no
     * host), does not suspend, and neither it nor any word it reaches holds a closure literal or a quotation or makes a
     * suspending call (so it spawns no steps or CPU tasks), and no constant of the state holds a function. It may
     * recurse: such a run starts on the calling thread with its depth limited to {@link #REPLAYABLE_DEPTH}, and one
     * that goes deeper (or overflows the thread's stack) is abandoned and run again on a worker under the same deadline
     * ({@link Vm}). Each word is looked at once, by a work list (no recursion over the program's nesting).
     */
    public static boolean replayable(CheckedModule module, VmState state) {
        if (module.main().suspends() || !module.inferredCapabilities().isEmpty()) return false;
        for (TypedValue v : state.constants().values()) if (holdsFunction(v.type())) return false;
        Map<String, Checked.CheckedWord> local = new HashMap<>();
        for (Checked.CheckedWord w : module.words()) local.put(w.name(), w);
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.ArrayDeque<CheckedBlock> todo = new java.util.ArrayDeque<>();
        todo.add(module.main().body());
        while (!todo.isEmpty()) {
            for (Node n : todo.poll().nodes()) {
                switch (n.kind()) {
                    case CLOSURE, QUOTE -> { return false; }
                    case CALL -> {
                        Checked.CallNode call = (Checked.CallNode) n;
                        if (call.suspends() || foreign(call, state)) return false;
                        if (call.target().kind() == Checked.Target.Kind.WORD && seen.add(call.target().name())) {
                            Checked.CheckedWord w = local.get(call.target().name());
                            if (w == null) {
                                CompiledWord persisted = state.words().get(call.target().name());
                                w = persisted == null ? null : persisted.checked();
                            }
                            if (w == null || w.suspends()) return false;
                            todo.add(w.body());
                        }
                    }
                    case IF, IF_SOME, IF_OK, CASE, LIST, MAP, RECORD, LOOP, UNTIL -> todo.addAll(Checked.children(n));
                    case PUSH, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> { }
                }
            }
        }
        return true;
    }

    /**
     * Whether {@code call} runs the embedding host's code (a word it installed): such code may spin or block, and only
     * a run on a worker can be abandoned at its deadline or cancellation while the host's code goes on.
     */
    private static boolean foreign(Checked.CallNode call, VmState state) {
        if (!(call.target() instanceof Checked.Target.Builtin b)) return false;
        // No method reference: this runs in a fresh JVM's first submission, where linking one costs milliseconds.
        java.util.Optional<dev.finch.vm.word.Impl> impl = state.library().find(b.overload());
        return impl.isPresent() && impl.get().host();
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
