package dev.finch.vm.value;

/** The thread binding behind {@link Meter#current()}. */
final class MeterBinding {
    private MeterBinding() { }

    static final ThreadLocal<Meter> SLOT = new ThreadLocal<>();
}
