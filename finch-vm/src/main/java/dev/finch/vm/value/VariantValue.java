package dev.finch.vm.value;

/** A closed-variant value: its tag and payload ({@link Unit#INSTANCE} for a payload-free tag). */
public record VariantValue(String tag, Object payload) { }
