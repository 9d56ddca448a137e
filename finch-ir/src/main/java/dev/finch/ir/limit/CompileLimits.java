package dev.finch.ir.limit;

/**
 * Bounds on the work the compile phases (parse, expand, lower, verify) may do for one submission, so that no source
 * text — however it was built — costs more than these before it runs: its size, its tokens, its nesting, what macros
 * expand it to, the size of any type written or inferred, and the total inference and verification work. The
 * defaults leave room for any program a person or a model writes; an embedder sets them on {@code Finch.builder()}.
 *
 * @param maxSourceChars    characters of one submission's text (and of each file a µNorman program uses)
 * @param maxTokens         tokens one submission's text may hold
 * @param maxNesting        how deeply brackets, forms, quotes, blocks and type expressions may nest
 * @param maxExpansionNodes nodes macro expansion may produce for one submission (Lisp {@code syntax-rules})
 * @param maxTypeSize       nodes of one type, written or inferred (Hindley–Milner's exponential types stop here)
 * @param maxWork           units of checking work (unification, inference and verification steps) for one submission
 */
public record CompileLimits(int maxSourceChars, int maxTokens, int maxNesting, long maxExpansionNodes, int maxTypeSize,
                            long maxWork) {
    /** The defaults: 1 Mi characters, 250,000 tokens, nesting 256, 1,000,000 expanded nodes, types of 10,000 nodes, 20,000,000 work units. */
    public static final CompileLimits DEFAULT = new CompileLimits(1 << 20, 250_000, 256, 1_000_000, 10_000, 20_000_000);

    public CompileLimits {
        positive(maxSourceChars, "maxSourceChars");
        positive(maxTokens, "maxTokens");
        positive(maxNesting, "maxNesting");
        positive(maxExpansionNodes, "maxExpansionNodes");
        positive(maxTypeSize, "maxTypeSize");
        positive(maxWork, "maxWork");
    }

    private static void positive(long v, String what) {
        if (v <= 0) throw new IllegalArgumentException(what + " must be positive, was " + v);
    }

    public CompileLimits withMaxSourceChars(int v) { return new CompileLimits(v, maxTokens, maxNesting, maxExpansionNodes, maxTypeSize, maxWork); }

    public CompileLimits withMaxTokens(int v) { return new CompileLimits(maxSourceChars, v, maxNesting, maxExpansionNodes, maxTypeSize, maxWork); }

    public CompileLimits withMaxNesting(int v) { return new CompileLimits(maxSourceChars, maxTokens, v, maxExpansionNodes, maxTypeSize, maxWork); }

    public CompileLimits withMaxExpansionNodes(long v) { return new CompileLimits(maxSourceChars, maxTokens, maxNesting, v, maxTypeSize, maxWork); }

    public CompileLimits withMaxTypeSize(int v) { return new CompileLimits(maxSourceChars, maxTokens, maxNesting, maxExpansionNodes, v, maxWork); }

    public CompileLimits withMaxWork(long v) { return new CompileLimits(maxSourceChars, maxTokens, maxNesting, maxExpansionNodes, maxTypeSize, v); }
}
