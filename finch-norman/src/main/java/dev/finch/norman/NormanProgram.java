package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Map;

/**
 * A parsed and typed µNorman program: its definitions (used files in place, basis excluded), the type of each
 * top-level name in µNorman spelling, its unit tests as data, and every diagnostic. {@link #ok()} when it may run.
 */
public final class NormanProgram {
    private final String source;
    private final List<Ast.Def> definitions;
    private final Map<String, String> types;
    private final List<UnitTest> tests;
    private final List<Diagnostic> diagnostics;
    final Infer inference;
    final java.util.Set<Ast.Def> basis;
    final List<Ast.Test> testDefs;

    NormanProgram(String source, List<Ast.Def> definitions, Map<String, String> types, List<UnitTest> tests, List<Diagnostic> diagnostics,
                  Infer inference, java.util.Set<Ast.Def> basis, List<Ast.Test> testDefs) {
        this.source = source;
        this.definitions = List.copyOf(definitions);
        this.types = Map.copyOf(types);
        this.tests = List.copyOf(tests);
        this.diagnostics = List.copyOf(diagnostics);
        this.inference = inference;
        this.basis = basis;
        this.testDefs = testDefs;
    }

    /** The host-attached identity of the root file. */
    public String source() { return source; }

    /** The program's definitions in load order (a used file's definitions in place of its use). */
    public List<Ast.Def> definitions() { return definitions; }

    /** Each top-level define and val with its inferred type, e.g. {@code greet → (Animal -> Text)}. */
    public Map<String, String> types() { return types; }

    /** The unit tests, in the order written. */
    public List<UnitTest> tests() { return tests; }

    /** Every diagnostic; empty when the program may run. */
    public List<Diagnostic> diagnostics() { return diagnostics; }

    /** True when there is no diagnostic. */
    public boolean ok() { return diagnostics.isEmpty(); }
}
