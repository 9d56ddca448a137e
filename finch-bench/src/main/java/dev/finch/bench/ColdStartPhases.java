package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.word.Library;

/**
 * Where a fresh JVM's first submission spends its time: {@code System.nanoTime} around building Finch's own words
 * ({@code Library.core()}), {@code Finch.create()}, {@code newSession()}, the first {@code submit("1 2 +")} and a
 * second one, printed on one line. Run once per fresh JVM, several times (docs/performance.md, "Start-up"):
 * {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.ColdStartPhases}; with
 * {@code -Xlog:class+load:stdout} the markers it prints between the phases show what each loads.
 */
public final class ColdStartPhases {
    private ColdStartPhases() { }

    public static void main(String[] args) {
        boolean markers = args.length > 0 && args[0].equals("--markers");
        long t0 = System.nanoTime();
        if (markers) System.out.println("=== PHASE core");
        Library.core();
        long t1 = System.nanoTime();
        if (markers) System.out.println("=== PHASE create");
        try (Finch finch = Finch.create()) {
            long t2 = System.nanoTime();
            if (markers) System.out.println("=== PHASE session");
            Session s = finch.newSession();
            long t3 = System.nanoTime();
            if (markers) System.out.println("=== PHASE submit");
            s.submit(Submission.of("1 2 +", "cold.fth"));
            long t4 = System.nanoTime();
            if (markers) System.out.println("=== PHASE end");
            s.submit(Submission.of("3 4 +", "cold2.fth"));
            long t5 = System.nanoTime();
            System.out.printf("Library.core %.1f ms; Finch.create %.1f ms; newSession %.1f ms; first submit %.1f ms; second submit %.2f ms%n",
                    (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6, (t5 - t4) / 1e6);
        }
    }
}
