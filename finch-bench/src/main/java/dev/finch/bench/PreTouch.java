package dev.finch.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether the heap's pages were touched when the JVM started ({@code -XX:+AlwaysPreTouch}). Without it the operating
 * system maps each page of the young generation on its first write, and whichever case allocates first in a JVM pays for
 * all of them: with {@code -Xms1g} G1 grows eden to ~600 MB after its first collections, and the first case of
 * {@link ShortWarmup} then spent about a second of its warm-up in page faults (its median 58 µs against 6.7 µs with the
 * flag; docs/performance.md, "The first case paid for the heap"). Harnesses that compare cases in one JVM say so when the
 * flag is missing.
 */
final class PreTouch {
    private PreTouch() { }

    static void warnIfMissing() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot != null && !Boolean.parseBoolean(hotspot.getVMOption("AlwaysPreTouch").getValue())) {
            System.err.println("note: run with -XX:+AlwaysPreTouch: without it the first case measured pays for mapping the"
                    + " heap's pages (docs/performance.md)");
        }
    }
}
