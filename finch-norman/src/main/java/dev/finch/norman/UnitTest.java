package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import java.util.List;
import java.util.Optional;

/**
 * One unit test as data, for the harness that runs it (after the whole file has loaded, each in a fresh world).
 *
 * @param kind        the test form
 * @param origin      where the test is written
 * @param exps        its expressions: (e expected), (e), (e₁ e₂), or (e cost time) for check-within
 * @param pattern     check-fail's failure pattern
 * @param grade       check-equiv's grade
 * @param script      the script of the enclosing under, if any
 * @param cost        the cost limit of the enclosing under, if any
 * @param time        the time limit of the enclosing under, if any
 * @param staticError for check-error: the static error its expression has, which becomes the checked run-time error
 */
public record UnitTest(Ast.TestKind kind, Origin origin, List<Ast.Exp> exps, Optional<Ast.Pattern> pattern, Optional<String> grade,
                       Optional<String> script, Optional<Ast.Exp> cost, Optional<Ast.Exp> time, Optional<Diagnostic> staticError) {
    public UnitTest { exps = List.copyOf(exps); }
}
