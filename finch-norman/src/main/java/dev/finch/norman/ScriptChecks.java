package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The checks of a program's scripts that need the whole program (the entries themselves are checked as they are
 * read, by {@code Syntax}): no two scripts share a name (E-NORMAN-022), and every {@code [cap/op …]} entry — a
 * site written with a {@code /} — names a tool grant of the program and an operation that grant declares, or any
 * operation of a grant that declares none, or {@code fork} of a kernel (E-NORMAN-106; a memory grant's calls are never
 * scripted). Each mistake is reported when
 * the file is checked, at the entry, before any test runs: otherwise it would surface only as an exhausted script.
 */
final class ScriptChecks {
    private ScriptChecks() { }

    /** The diagnostics of {@code defs}' scripts (empty when they are sound). */
    static List<Diagnostic> check(List<Ast.Def> defs) {
        List<Diagnostic> out = new ArrayList<>();
        Map<String, Ast.Grant> grants = new LinkedHashMap<>();
        for (Ast.Def d : defs) if (d instanceof Ast.Grant g) grants.putIfAbsent(g.name(), g);
        Map<String, Ast.Script> scripts = new LinkedHashMap<>();
        for (Ast.Def d : defs) {
            if (!(d instanceof Ast.Script s)) continue;
            Ast.Script first = scripts.putIfAbsent(s.name(), s);
            if (first != null) {
                Origin o = first.origin();
                out.add(NormanCode.DUPLICATE_SCRIPT.at(s.origin(), "a script named " + s.name() + " is already declared at "
                        + o.source() + ":" + o.line() + ":" + o.column() + ": an under would not know which one it runs"));
            }
            for (Ast.SiteScript site : s.sites()) {
                int slash = site.key().indexOf('/');
                if (slash < 0) continue;
                String cap = site.key().substring(0, slash), op = site.key().substring(slash + 1);
                Ast.Grant g = grants.get(cap);
                String why = g == null ? "no grant is named `" + cap + "`" + known(grants)
                        : g.isModel() ? "`" + cap + "` is a model grant, which is asked (script it by the ask's site), never called"
                        : g.isMemory() ? "`" + cap + "` is a memory grant, whose calls are never scripted: under a test they read and write the "
                                + "test's own memory, empty when it starts (put what a test should find first)"
                        : declares(g, op) ? null
                        : "the grant `" + cap + "` declares no operation `" + op + "` (it declares " + ops(g) + ")";
                if (why != null) {
                    out.add(NormanCode.SCRIPT_NO_GRANT.at(site.origin(), "script " + s.name() + " scripts `" + site.key()
                            + "`, which no call can reach: " + why));
                }
            }
        }
        return out;
    }

    /** True when a call of {@code op} on {@code g}'s capability type-checks (see {@code Infer.callTool}). */
    private static boolean declares(Ast.Grant g, String op) {
        if (g.host().equals("kernel") && op.equals("fork")) return true;
        if (g.entries().isEmpty()) return true;
        return g.entries().stream().anyMatch(e -> e.key().equals(op) && e.type().isPresent());
    }

    private static String ops(Ast.Grant g) {
        TreeSet<String> ops = new TreeSet<>();
        for (Ast.HostEntry e : g.entries()) if (e.type().isPresent()) ops.add(e.key());
        if (g.host().equals("kernel")) ops.add("fork");
        return ops.isEmpty() ? "none" : String.join(", ", ops);
    }

    private static String known(Map<String, Ast.Grant> grants) {
        TreeSet<String> tools = new TreeSet<>();
        grants.values().stream().filter(Ast.Grant::isTool).forEach(g -> tools.add(g.name()));
        return tools.isEmpty() ? " (the program grants no tools)" : " (its tool grants: " + String.join(", ", tools) + ")";
    }
}
