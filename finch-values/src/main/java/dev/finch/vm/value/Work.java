package dev.finch.vm.value;

/**
 * The work of one value operation (a comparison, a hash, a {@code show}): counts the elements and characters it
 * touches and charges its {@link Meter} a step per {@link Meter#ELEMENTS_PER_STEP} elements, in batches, so a long
 * operation checks the run's limits while it runs. Confined to one thread, like the operation.
 */
public final class Work {
    /** Elements counted between charges: the deadline is seen within a few thousand elements. */
    private static final long BATCH = 1 << 12;

    private final Meter meter;
    private long pending;

    public Work(Meter meter) { this.meter = meter; }

    /** The meter this work charges. */
    public Meter meter() { return meter; }

    /** One element touched. */
    public void element() {
        if (++pending >= BATCH) flush();
    }

    /** {@code n} elements touched. */
    public void elements(long n) {
        pending += n;
        if (pending >= BATCH) flush();
    }

    /** {@code n} characters touched (or written). */
    public void chars(long n) { elements(n / (Meter.CHARS_PER_STEP / Meter.ELEMENTS_PER_STEP)); }

    /** Charges what is still counted (less than a step is not charged). */
    public void done() { flush(); }

    private void flush() {
        long steps = pending / Meter.ELEMENTS_PER_STEP;
        pending -= steps * Meter.ELEMENTS_PER_STEP;
        if (steps > 0) meter.charge(steps);
    }
}
