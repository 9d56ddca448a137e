package dev.finch.lisp.expand;

import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.syntax.Sx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded macro expansion (contract: "bounded macro expansion"). Top-level {@code define-syntax} forms are collected
 * first (so a macro may be used anywhere in its submission) and removed; every use is expanded until no macro use
 * remains. Quoted data is never expanded. Four bounds hold, whatever the macros do:
 * <ul>
 *   <li>at most {@code maxSteps} macro uses are expanded ({@code E-EXPAND-003});</li>
 *   <li>an expansion may use a macro inside another at most {@code maxDepth} deep ({@code E-EXPAND-004});</li>
 *   <li>the datums expansions produce — a template's own and every copy of a pattern variable's datum — are
 *       charged to the submission's {@link CompileBudget} ({@code E-LIMIT-013}), so a macro that doubles its
 *       input stops after a million nodes, not at the heap's end;</li>
 *   <li>the expanded program nests no deeper than the budget's nesting limit ({@code E-LIMIT-012}, phase expand),
 *       the same bound the reader applies to the source, so every later pass recurses within it.</li>
 * </ul>
 * The expander recurses once per nesting level and once per nested macro use, both of which are bounded above.
 */
public final class MacroExpander {
    /** Default limit on the number of macro uses expanded in one submission. */
    public static final int DEFAULT_MAX_STEPS = 10_000;
    /** Default limit on nested expansion (a macro whose expansion uses a macro, …). */
    public static final int DEFAULT_MAX_DEPTH = 100;

    private final int maxSteps;
    private final int maxDepth;
    private final CompileBudget budget;
    private final Meter meter;
    private final Map<String, SyntaxRules> macros = new HashMap<>();
    private int steps;

    /** An expander with explicit step and depth limits, charging what it produces to {@code budget}. */
    public MacroExpander(int maxSteps, int maxDepth, CompileBudget budget) {
        this.maxSteps = maxSteps;
        this.maxDepth = maxDepth;
        this.budget = budget;
        this.meter = new Meter(budget);
    }

    /** An expander with explicit step and depth limits under the default compile limits. */
    public MacroExpander(int maxSteps, int maxDepth) { this(maxSteps, maxDepth, CompileBudget.standard()); }

    public MacroExpander() { this(DEFAULT_MAX_STEPS, DEFAULT_MAX_DEPTH); }

    /** Expands a submission's top-level forms; throws a {@link DiagnosticException} with an expand diagnostic. */
    public List<Sx> expand(List<Sx> forms) {
        List<Sx> rest = new ArrayList<>();
        for (Sx f : forms) {
            if ("define-syntax".equals(Sx.head(f))) {
                SyntaxRules m = SyntaxRules.define((Sx.SList) f);
                macros.put(m.name(), m);
            } else rest.add(f);
        }
        if (macros.isEmpty()) return forms;
        List<Sx> out = new ArrayList<>();
        for (Sx f : rest) out.add(expand(f, 0, 0));
        return out;
    }

    /** How many macro uses were expanded so far. */
    public int steps() { return steps; }

    /** How many datums expansions have produced so far. */
    public long produced() { return meter.nodes; }

    /**
     * Expands {@code sx}, which sits inside {@code outer} levels of lists and quotes; {@code depth} counts the macro
     * uses this position is nested in.
     */
    private Sx expand(Sx sx, int depth, int outer) {
        switch (sx.kind()) {
            case LIST: {
                Sx.SList l = (Sx.SList) sx;
                String head = Sx.head(l);
                if ("quote".equals(head)) return quoted(sx, outer);
                if ("define-syntax".equals(head)) {
                    throw new DiagnosticException(LispCode.BAD_MACRO.at(l.origin(), "define-syntax is only allowed at the top level"));
                }
                SyntaxRules m = head == null ? null : macros.get(head);
                if (m != null) {
                    if (++steps > maxSteps) {
                        throw new DiagnosticException(LispCode.EXPANSION_STEPS.at(l.origin(),
                                "macro expansion took more than " + maxSteps + " steps (last: '" + head + "')", "<= " + maxSteps + " steps", "more"));
                    }
                    if (depth >= maxDepth) {
                        throw new DiagnosticException(LispCode.EXPANSION_DEPTH.at(l.origin(),
                                "macro expansion nested deeper than " + maxDepth + " (last: '" + head + "'); is the macro recursive without a base case?",
                                "<= " + maxDepth + " levels", "more"));
                    }
                    budget.poll(Phase.EXPAND, l.origin());
                    return expand(m.expand(l, steps, meter), depth + 1, outer);
                }
                int level = enter(outer, l.origin());
                List<Sx> items = new ArrayList<>(l.items().size());
                for (Sx s : l.items()) items.add(expand(s, depth, level));
                return new Sx.SList(items, l.span(), l.origin());
            }
            case BRACKET: {
                Sx.SBracket b = (Sx.SBracket) sx;
                int level = enter(outer, b.origin());
                List<Sx> items = new ArrayList<>(b.items().size());
                for (Sx s : b.items()) items.add(expand(s, depth, level));
                return new Sx.SBracket(items, b.typeSpan(), b.origin());
            }
            case BRACES: {
                int level = enter(outer, sx.origin());
                List<Sx> items = new ArrayList<>();
                for (Sx s : ((Sx.SBraces) sx).items()) items.add(expand(s, depth, level));
                return new Sx.SBraces(items, sx.origin());
            }
            case QUOTE:
                return quoted(sx, outer);
            default:
                return sx;
        }
    }

    /** One level deeper than {@code outer}, refused past the nesting limit. */
    private int enter(int outer, Origin at) {
        int level = outer + 1;
        budget.nesting(Phase.EXPAND, level, at);
        return level;
    }

    /** Quoted data is not expanded, but it nests like any other datum (a macro may have built it). */
    private Sx quoted(Sx sx, int outer) {
        int max = budget.limits().maxNesting();
        int depth = Sx.depth(sx, max - outer);
        budget.nesting(Phase.EXPAND, outer + depth, sx.origin());
        return sx;
    }

    /** Counts the datums expansions produce against the budget's expansion limit. */
    static final class Meter {
        private final CompileBudget budget;
        private long nodes;

        Meter(CompileBudget budget) { this.budget = budget; }

        /** Charges {@code n} produced datums; refuses ({@code E-LIMIT-013}) past the limit. */
        void add(long n, Origin at) {
            nodes += n;
            budget.expansion(nodes, at);
        }

        /** Charges one unit of matching work (which also polls the deadline and cancellation). */
        void charge(Origin at) { budget.charge(Phase.EXPAND, 1, at); }

        /** How many more datums may be produced before the limit (a datum's size is counted only this far). */
        long room() { return Math.max(0, budget.limits().maxExpansionNodes() - nodes); }
    }
}
