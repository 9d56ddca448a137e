package dev.finch;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Optional;

/**
 * What {@link Session#check} learns without running: the resolved language, each definition with its verified
 * signature, the inferred capability set (the permission preview), and the diagnostics. Jackson writes
 * {@code {status, language, definitions, inferred_capabilities, diagnostics}} (decisions D2).
 *
 * @param canonicalForth the program as canonical Co-Forth, when it lowered and verified
 */
@JsonSerialize(using = FinchJson.CheckResultSerializer.class)
public record CheckResult(Status status, String language, List<Definition> definitions, List<String> inferredCapabilities,
                          List<Diagnostic> diagnostics, Optional<String> canonicalForth) {
    public CheckResult {
        definitions = List.copyOf(definitions);
        inferredCapabilities = List.copyOf(inferredCapabilities);
        diagnostics = List.copyOf(diagnostics);
        java.util.Objects.requireNonNull(canonicalForth, "canonicalForth");
    }

    /** Whether the program verified. */
    public enum Status {
        OK, FAILED;

        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        @Override public String toString() { return spelling(); }
    }

    /** One definition of the program and its signature in the compact spelling, e.g. {@code int -> int}. */
    public record Definition(String name, String signature) { }

    public boolean ok() { return status == Status.OK; }
}
