package dev.finch.norman;

import dev.finch.norman.Ast.Exp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The free names of an expression: what a workflow step depends on, and what a definition refers to. */
final class FreeVars {
    private FreeVars() { }

    /** The names {@code e} mentions and does not bind itself. */
    private static final ThreadLocal<Boolean> SKIP_FORKS = ThreadLocal.withInitial(() -> false);

    /** The free names of {@code e}, not counting the capability of a {@code (call k fork)}. */
    static Set<String> ofIgnoringForks(Exp e) {
        SKIP_FORKS.set(true);
        try {
            return of(e);
        } finally {
            SKIP_FORKS.set(false);
        }
    }

    static Set<String> of(Exp e) { return of(e, new long[1]); }

    /** As {@link #of(Exp)}, adding to {@code walked[0]} the number of expressions walked (what the walk cost). */
    static Set<String> of(Exp e, long[] walked) {
        Set<String> out = new LinkedHashSet<>();
        Bound bound = new Bound();
        walk(e, bound, out);
        walked[0] += bound.walked;
        return out;
    }

    /** As {@link #ofIgnoringForks(Exp)}, adding to {@code walked[0]} the number of expressions walked. */
    static Set<String> ofIgnoringForks(Exp e, long[] walked) {
        SKIP_FORKS.set(true);
        try {
            return of(e, walked);
        } finally {
            SKIP_FORKS.set(false);
        }
    }

    /**
     * The names bound around the expression being walked, with how many binders bind each: a scope adds its names and
     * takes them away again when it ends, so no scope is ever copied (a walk costs the expression's size).
     */
    private static final class Bound {
        private final Map<String, Integer> counts = new HashMap<>();
        long walked;

        boolean contains(String n) { return counts.containsKey(n); }

        void add(String n) { counts.merge(n, 1, Integer::sum); }

        void addAll(Collection<String> names) { for (String n : names) add(n); }

        void remove(String n) { counts.computeIfPresent(n, (k, c) -> c == 1 ? null : c - 1); }

        void removeAll(Collection<String> names) { for (String n : names) remove(n); }
    }

    private static void walk(Exp e, Bound bound, Set<String> out) {
        bound.walked++;
        switch (e.kind()) {
            case NUM: case TEXT: case BOOL: case SYM: case MONEY: case DURATION: case INFINITY: case EMPTY_LIST:
                return;
            case VAR: {
                String n = ((Ast.Var) e).name();
                if (!bound.contains(n)) out.add(n);
                return;
            }
            case IF: {
                Ast.If i = (Ast.If) e;
                walk(i.test(), bound, out);
                walk(i.then(), bound, out);
                walk(i.otherwise(), bound, out);
                return;
            }
            case LET_STAR: {
                Ast.LetStar l = (Ast.LetStar) e;
                List<String> names = new ArrayList<>();
                for (Ast.Binding b : l.bindings()) {
                    walk(b.value(), bound, out);
                    bound.add(b.name());
                    names.add(b.name());
                }
                walk(l.body(), bound, out);
                bound.removeAll(names);
                return;
            }
            case LAMBDA: {
                Ast.Lambda l = (Ast.Lambda) e;
                bound.addAll(l.formals());
                walk(l.body(), bound, out);
                bound.removeAll(l.formals());
                return;
            }
            case APPLY: {
                Ast.Apply a = (Ast.Apply) e;
                walk(a.fn(), bound, out);
                for (Exp x : a.args()) walk(x, bound, out);
                return;
            }
            case DOT: walk(((Ast.Dot) e).record(), bound, out); return;
            case CASE: {
                Ast.Case c = (Ast.Case) e;
                walk(c.scrutinee(), bound, out);
                for (Ast.Branch b : c.branches()) {
                    Set<String> vars = patternVars(b.pattern());
                    bound.addAll(vars);
                    walk(b.body(), bound, out);
                    bound.removeAll(vars);
                }
                return;
            }
            case CONSTRUCT: for (Exp x : ((Ast.Construct) e).args()) walk(x, bound, out); return;
            case RECORD_NEW: for (Ast.Binding b : ((Ast.RecordNew) e).fields()) walk(b.value(), bound, out); return;
            case LIST: for (Exp x : ((Ast.ListExp) e).items()) walk(x, bound, out); return;
            case CONS: walk(((Ast.Cons) e).head(), bound, out); walk(((Ast.Cons) e).tail(), bound, out); return;
            case FAIL: walk(((Ast.Fail) e).failure(), bound, out); return;
            case CATCH: {
                Ast.Catch c = (Ast.Catch) e;
                walk(c.body(), bound, out);
                bound.add(c.name());
                walk(c.handler(), bound, out);
                bound.remove(c.name());
                return;
            }
            case ASK: walk(((Ast.Ask) e).model(), bound, out); walk(((Ast.Ask) e).context(), bound, out); return;
            case CALL: {
                Ast.CallTool c = (Ast.CallTool) e;
                // (call k fork) makes a new kernel: for the stateful-tool check of workflows it does not use k's state.
                if (!(SKIP_FORKS.get() && c.op().equals("fork"))) walk(c.capability(), bound, out);
                for (Exp x : c.args()) walk(x, bound, out);
                return;
            }
            case BUDGET: {
                Ast.Budget b = (Ast.Budget) e;
                b.cost().ifPresent(x -> walk(x, bound, out));
                b.time().ifPresent(x -> walk(x, bound, out));
                walk(b.body(), bound, out);
                return;
            }
            case WORKFLOW:
            default: {
                Ast.Workflow w = (Ast.Workflow) e;
                List<String> names = new ArrayList<>();
                for (Ast.Binding b : w.steps()) names.add(b.name());
                bound.addAll(names);
                for (Ast.Binding b : w.steps()) walk(b.value(), bound, out);
                walk(w.body(), bound, out);
                bound.removeAll(names);
            }
        }
    }

    /** The names a pattern binds. */
    static Set<String> patternVars(Ast.Pattern p) {
        Set<String> out = new LinkedHashSet<>();
        if (p instanceof Ast.PCon c) for (Optional<String> v : c.vars()) v.ifPresent(out::add);
        if (p instanceof Ast.PCons c) { c.head().ifPresent(out::add); c.tail().ifPresent(out::add); }
        return out;
    }
}
