package dev.finch.norman;

import dev.finch.norman.Ast.Exp;
import java.util.HashSet;
import java.util.LinkedHashSet;
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

    static Set<String> of(Exp e) {
        Set<String> out = new LinkedHashSet<>();
        walk(e, new HashSet<>(), out);
        return out;
    }

    private static void walk(Exp e, Set<String> bound, Set<String> out) {
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
                Set<String> inner = new HashSet<>(bound);
                for (Ast.Binding b : l.bindings()) {
                    walk(b.value(), inner, out);
                    inner.add(b.name());
                }
                walk(l.body(), inner, out);
                return;
            }
            case LAMBDA: {
                Ast.Lambda l = (Ast.Lambda) e;
                Set<String> inner = new HashSet<>(bound);
                inner.addAll(l.formals());
                walk(l.body(), inner, out);
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
                    Set<String> inner = new HashSet<>(bound);
                    inner.addAll(patternVars(b.pattern()));
                    walk(b.body(), inner, out);
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
                Set<String> inner = new HashSet<>(bound);
                inner.add(c.name());
                walk(c.handler(), inner, out);
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
                Set<String> inner = new HashSet<>(bound);
                for (Ast.Binding b : w.steps()) inner.add(b.name());
                for (Ast.Binding b : w.steps()) walk(b.value(), inner, out);
                walk(w.body(), inner, out);
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
