package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Optional;

/** The outcome of verifying one module: the checked module when there are no diagnostics, else the diagnostics. */
public record Verification(Optional<Checked.CheckedModule> module, List<Diagnostic> diagnostics) {
    public Verification { diagnostics = List.copyOf(diagnostics); }

    /** True when the module verified without any diagnostic. */
    public boolean ok() { return module.isPresent() && diagnostics.isEmpty(); }

    static Verification failed(List<Diagnostic> diagnostics) { return new Verification(Optional.empty(), diagnostics); }
}
