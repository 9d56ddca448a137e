package dev.finch.vm;

import dev.finch.ir.type.Type;
import java.lang.invoke.MethodHandle;

/**
 * A persisted, compiled definition: its signature and the static method that implements it (in a hidden class
 * that stays reachable while the word does). Later submissions link to it directly.
 */
public record CompiledWord(String name, Type.Fn signature, MethodHandle handle, boolean suspends,
                           dev.finch.ir.checked.Checked.CheckedWord checked) { }
