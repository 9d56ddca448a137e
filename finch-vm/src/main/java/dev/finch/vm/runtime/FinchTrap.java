package dev.finch.vm.runtime;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.VmCode;

/**
 * A structured run-time error raised by generated code or the runtime. Internal: the VM catches it at the run
 * boundary and turns it into a failed outcome; it never reaches an embedder. No stack trace is captured.
 */
public final class FinchTrap extends RuntimeException {
    private final transient Diagnostic diagnostic;
    private final VmCode code;

    public FinchTrap(VmCode code, Origin origin, String message) {
        super(message, null, false, false);
        this.code = code;
        this.diagnostic = code.at(origin, message);
    }

    public VmCode code() { return code; }

    public Diagnostic diagnostic() { return diagnostic; }
}
