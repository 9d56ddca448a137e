package dev.finch.vm.value;

/** A value that knows its logical size ({@link Sizes}), computed once when it is built. */
public interface Sized {
    /** The bytes this value would hold if none of its parts were shared. */
    long logicalBytes();
}
