package dev.finch.lisp.expand;

import dev.finch.ir.diag.DiagnosticException;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.syntax.Sx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded macro expansion (contract: "bounded macro expansion"). Top-level {@code define-syntax} forms are collected
 * first (so a macro may be used anywhere in its submission) and removed; every use is expanded until no macro use
 * remains, within a total step limit and a nesting depth limit. Quoted data is never expanded.
 */
public final class MacroExpander {
    /** Default limit on the number of macro uses expanded in one submission. */
    public static final int DEFAULT_MAX_STEPS = 10_000;
    /** Default limit on nested expansion (a macro whose expansion uses a macro, …). */
    public static final int DEFAULT_MAX_DEPTH = 100;

    private final int maxSteps;
    private final int maxDepth;
    private final Map<String, SyntaxRules> macros = new HashMap<>();
    private int steps;

    public MacroExpander(int maxSteps, int maxDepth) {
        this.maxSteps = maxSteps;
        this.maxDepth = maxDepth;
    }

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
        for (Sx f : rest) out.add(expand(f, 0));
        return out;
    }

    /** How many macro uses were expanded so far. */
    public int steps() { return steps; }

    private Sx expand(Sx sx, int depth) {
        switch (sx.kind()) {
            case LIST: {
                Sx.SList l = (Sx.SList) sx;
                String head = Sx.head(l);
                if ("quote".equals(head)) return sx;
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
                    return expand(m.expand(l, steps), depth + 1);
                }
                List<Sx> items = new ArrayList<>();
                for (Sx s : l.items()) items.add(expand(s, depth));
                return new Sx.SList(items, l.text(), l.origin());
            }
            case BRACKET: {
                Sx.SBracket b = (Sx.SBracket) sx;
                List<Sx> items = new ArrayList<>();
                for (Sx s : b.items()) items.add(expand(s, depth));
                return new Sx.SBracket(items, b.typeText(), b.origin());
            }
            case BRACES: {
                List<Sx> items = new ArrayList<>();
                for (Sx s : ((Sx.SBraces) sx).items()) items.add(expand(s, depth));
                return new Sx.SBraces(items, sx.origin());
            }
            default:
                return sx;
        }
    }
}
