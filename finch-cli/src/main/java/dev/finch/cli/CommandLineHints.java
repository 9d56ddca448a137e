package dev.finch.cli;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Optional;

/**
 * What to change on the command line when a run stopped for want of something only the command line gives: a root
 * (a diagnostic of no file host, or of a root not installed) or a grant (a suspension waiting for one). The VM's own
 * messages name no flag — an embedder installs roots and grants otherwise — so the command line adds a {@code = help:}
 * line under the diagnostic, in its human form only.
 */
final class CommandLineHints {
    private CommandLineHints() { }

    /** The flag of each root, by the root's selector prefix. */
    private static final List<String[]> ROOTS = List.of(
            new String[] {"${workspace}", "--workspace DIR"},
            new String[] {"${project}", "--project DIR"},
            new String[] {"${task.output}", "--task-output DIR"},
            new String[] {"${host-machine}", "--host-root DIR"});

    /** The help line for one diagnostic, if the command line can fix its cause. */
    static Optional<String> forDiagnostic(Diagnostic d) {
        String m = d.message() == null ? "" : d.message();
        switch (d.code()) {
            case "E-HOST-013":
                if (m.contains("file host")) {
                    return Optional.of("give the run a workspace: finch run --workspace DIR … (path values live under it; --project, "
                            + "--task-output and --host-root install the other roots)");
                }
                return Optional.empty();
            case "E-HOST-002":
                for (String[] r : ROOTS) if (m.contains(r[0])) return Optional.of("install that root: finch run " + r[1] + " …");
                return Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** The help line for a run waiting for grants of {@code required}: the --grant flags that would let it go on. */
    static String forMissingGrants(List<String> required) {
        StringBuilder b = new StringBuilder("to allow it, run again with");
        for (String cap : required) b.append(" --grant '").append(cap).append('\'');
        return b.append(" (or a grant that contains it, such as a wider path selector)").toString();
    }
}
