package dev.finch.lisp.lower;

import dev.finch.lisp.types.Eff;
import dev.finch.lisp.types.Ty;
import java.util.HashMap;
import java.util.Map;

/**
 * The body being analyzed: a top-level function, a lambda inside it, or the top-level program. Lambdas share
 * their word's local-name set (locals are one flat namespace per IR word, closures included).
 */
final class Body {
    final Body parent;
    final Eff eff;
    /** The declared return type when it is the function's own annotation (try needs it); null otherwise. */
    final Ty declaredReturn;
    final boolean lambda;
    final IrNames irNames;
    /** Type variables named in annotations, shared across one top-level form. */
    final Map<String, Ty> annotationVars;

    Body(Body parent, Eff eff, Ty declaredReturn, boolean lambda, IrNames irNames, Map<String, Ty> annotationVars) {
        this.parent = parent;
        this.eff = eff;
        this.declaredReturn = declaredReturn;
        this.lambda = lambda;
        this.irNames = irNames;
        this.annotationVars = annotationVars;
    }

    static Map<String, Ty> vars() { return new HashMap<>(); }
}
