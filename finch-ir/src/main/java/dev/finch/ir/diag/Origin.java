package dev.finch.ir.diag;

/**
 * Where an instruction or diagnostic comes from: the host-attached source identity, and a 1-based line and column
 * (column counted in code points). Program text can never set {@code source}: the host attaches it per submission.
 */
public record Origin(String source, int line, int column) {
    public static final Origin UNKNOWN = new Origin("<unknown>", 0, 0);

    public Origin { java.util.Objects.requireNonNull(source, "source"); }

    public static Origin of(String source, int line, int column) { return new Origin(source, line, column); }

    @Override public String toString() { return source + ":" + line + ":" + column; }

    // Written out: a record's implicit equals and hashCode are linked by ObjectMethods on first use, which spins
    // ~30 method-handle classes (~40 ms of a fresh JVM's first run; docs/performance.md, "Start-up").

    @Override public boolean equals(Object o) { return o instanceof Origin x && line == x.line && column == x.column && source.equals(x.source); }

    @Override public int hashCode() { return (source.hashCode() * 31 + line) * 31 + column; }
}
