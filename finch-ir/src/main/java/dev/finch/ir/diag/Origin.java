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
}
