package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What a session image costs as a session lives (issue 33): a session of {@code N} turns, each defining one small word
 * that calls the one before (Lisp and Co-Forth in turn) and leaving a value every tenth turn, then a turn that pauses at
 * a write it needs approval for. For each N: the image's size (between turns, and with the paused run); the median time
 * to save it; to restore it into another Finch; to restore it and call the last word (which rebuilds the chain it links
 * to); and a <em>step</em> — what a Temporal worker does per update: restore the paused image, approve, run to the end and
 * save again. Times are medians of {@code reps} repetitions after as many warm-up ones, in one JVM (a warmed engine).
 *
 * <p>Uses only the public API, so the same source measures an earlier build (compile it against that build's classes).
 * Run: {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.ImageCost [reps] [N…]}.
 */
public final class ImageCost {
    private ImageCost() { }

    private static final byte[] KEY = "finch-bench: a 32-byte-or-longer image key".getBytes(StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int[] turns = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray() : new int[] {10, 100, 1000};
        Path ws = Files.createTempDirectory("finch-image-cost");
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(ws);
        System.out.printf("%6s %12s %12s %10s %11s %16s %10s%n", "turns", "idle bytes", "paused bytes", "save ms", "restore ms", "restore+call ms", "step ms");
        for (int n : turns) {
            // The restoring Finch continues the same pause again and again: a ledger that lets every copy continue it.
            try (Finch a = Finch.builder().imageKey(KEY).build(); Finch b = Finch.builder().imageKey(KEY).continuations((id, pause) -> true).build()) {
                Session s = a.newSession(options);
                for (int i = 0; i < n; i++) {
                    String prev = i == 0 ? "1" : "(w" + (i - 1) + " x)";
                    String text = i % 2 == 0 ? "(define (w" + i + " x) (+ " + prev + " " + i + "))" : ": w" + i + " ( int -- int ) dup w" + (i - 1) + " + ;";
                    if (i % 10 == 9) text += i % 2 == 0 ? " " + i : " " + i;
                    Outcome o = s.submit(Submission.of(text, "turn-" + i));
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("turn " + i + ": " + o);
                }
                String idle = s.save();
                Outcome paused = s.submit(Submission.of("(let ((r (w" + (n - 1) + " 2))) (file-write (path \"out.txt\") (string-to-bytes (int-to-string r))) r)", "pause"));
                if (!(paused instanceof Outcome.Suspended)) throw new IllegalStateException("the last turn did not pause: " + paused);
                String image = s.save(paused.executionId());
                double save = median(reps, () -> s.save(paused.executionId()));
                double restore = median(reps, () -> b.restore(idle, options));
                double restoreCall = median(reps, () -> {
                    Outcome o = b.restore(idle, options).submit(Submission.of("(w" + (n - 1) + " 1)", "call"));
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the call did not complete: " + o);
                });
                double step = median(reps, () -> {
                    Session t = b.restore(image, options);
                    Outcome o = t.approve(paused.executionId(), Scope.ONCE);
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the step did not complete: " + o);
                    t.save();
                });
                System.out.printf("%6d %12d %12d %10.2f %11.2f %16.2f %10.2f%n", n, idle.getBytes(StandardCharsets.UTF_8).length,
                        image.getBytes(StandardCharsets.UTF_8).length, save, restore, restoreCall, step);
            }
        }
    }

    /** The median wall time of {@code reps} runs of {@code work}, in ms, after {@code reps} unmeasured ones. */
    private static double median(int reps, ThrowingRunnable work) throws Exception {
        for (int i = 0; i < reps; i++) work.run();
        long[] nanos = new long[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            work.run();
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        return nanos[reps / 2] / 1e6;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
