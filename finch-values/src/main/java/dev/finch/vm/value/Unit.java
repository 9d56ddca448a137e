package dev.finch.vm.value;

/** The unit value {@code ()}. */
public enum Unit { INSTANCE; @Override public String toString() { return "()"; } }
