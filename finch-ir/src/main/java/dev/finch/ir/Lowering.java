package dev.finch.ir;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Module;
import java.util.List;
import java.util.Optional;

/** The result of a frontend: a module, or the diagnostics that prevented one. */
public record Lowering(Optional<Module> module, List<Diagnostic> diagnostics) {
    public Lowering { diagnostics = List.copyOf(diagnostics); }

    public static Lowering of(Module module) { return new Lowering(Optional.of(module), List.of()); }

    public static Lowering failed(List<Diagnostic> diagnostics) { return new Lowering(Optional.empty(), diagnostics); }

    public boolean ok() { return module.isPresent() && diagnostics.isEmpty(); }
}
