package dev.finch;

import java.util.List;

/**
 * What {@code get_vm_state} reports: the committed stack bottom to top (the last entry is the top), the VM revision
 * and manifest generation a program should state when it is submitted, and the session's persisted definitions
 * and constants. One consistent snapshot: all fields come from the same committed state.
 */
public record VmStateReport(String sessionId, List<StackEntry> stack, long vmRevision, long manifestGeneration,
                            List<DefinitionEntry> definitions, List<ConstantEntry> constants) {
    public VmStateReport {
        stack = List.copyOf(stack);
        definitions = List.copyOf(definitions);
        constants = List.copyOf(constants);
    }

    /** A persisted definition and its verified signature in the compact spelling. */
    public record DefinitionEntry(String name, String signature) { }

    /** A persisted constant with its compact type and display. */
    public record ConstantEntry(String name, String type, String display) { }
}
