package dev.finch.vm.value;

import java.util.Arrays;

/** An immutable byte string. */
public final class Bytes {
    private final byte[] data;

    private Bytes(byte[] data) { this.data = data; }

    /** Wraps a copy of {@code data}. */
    public static Bytes copyOf(byte[] data) { return new Bytes(data.clone()); }

    /** Wraps {@code data}, which the caller promises never to change. */
    public static Bytes wrap(byte[] data) { return new Bytes(data); }

    public int length() { return data.length; }

    public byte[] toArray() { return data.clone(); }

    /** Read-only view for decoding. */
    public java.nio.ByteBuffer buffer() { return java.nio.ByteBuffer.wrap(data).asReadOnlyBuffer(); }

    @Override public boolean equals(Object o) { return o instanceof Bytes b && Arrays.equals(data, b.data); }

    @Override public int hashCode() { return Arrays.hashCode(data); }
}
