package dev.finch.vm.value;

/** A symbol {@code 'name}: an identifier, never a string. */
public record Symbol(String name) { @Override public String toString() { return "'" + name; } }
