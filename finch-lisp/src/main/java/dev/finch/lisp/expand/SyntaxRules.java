package dev.finch.lisp.expand;

import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.syntax.Sx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code (syntax-rules (literals…) (pattern template)…)} macro. Hygiene is "enough" rather than full: names a
 * template binds itself (let and let* names, lambda parameters, match binders) are renamed to fresh names at every expansion,
 * so they cannot capture the user's variables; free names in a template refer to whatever is visible at the use.
 */
public final class SyntaxRules {
    static final String ELLIPSIS = "...";

    private final String name;
    private final Set<String> literals;
    private final List<Rule> rules;

    private record Rule(Sx.SList pattern, Sx template, Set<String> patternVars, Set<String> binders) { }

    private SyntaxRules(String name, Set<String> literals, List<Rule> rules) {
        this.name = name;
        this.literals = literals;
        this.rules = rules;
    }

    /** The macro's name. */
    public String name() { return name; }

    /** Parses {@code (define-syntax name (syntax-rules (lits…) (pattern template)…))}; throws an expand diagnostic. */
    public static SyntaxRules define(Sx.SList form) {
        List<Sx> it = form.items();
        if (it.size() != 3 || !(it.get(1) instanceof Sx.SSymbol nameSym) || !"syntax-rules".equals(Sx.head(it.get(2)))) {
            throw bad(form.origin(), "expected (define-syntax name (syntax-rules (literals…) ((_ pattern…) template)…))");
        }
        List<Sx> sr = ((Sx.SList) it.get(2)).items();
        if (sr.size() < 2 || !(sr.get(1) instanceof Sx.SList lits)) throw bad(it.get(2).origin(), "syntax-rules needs a literal list, e.g. ()");
        Set<String> literals = new HashSet<>();
        for (Sx l : lits.items()) {
            if (!(l instanceof Sx.SSymbol s)) throw bad(l.origin(), "a syntax-rules literal must be a symbol");
            literals.add(s.name());
        }
        List<Rule> rules = new ArrayList<>();
        for (Sx r : sr.subList(2, sr.size())) {
            if (!(r instanceof Sx.SList rl) || rl.items().size() != 2 || !(rl.items().get(0) instanceof Sx.SList pat)) {
                throw bad(r.origin(), "each rule is ((_ pattern…) template)");
            }
            Set<String> vars = new LinkedHashSet<>();
            List<Sx> pItems = pat.items();
            for (int i = 1; i < pItems.size(); i++) collectVars(pItems.get(i), literals, vars);
            Sx template = rl.items().get(1);
            Set<String> binders = new HashSet<>();
            collectBinders(template, binders);
            binders.removeAll(vars);
            rules.add(new Rule(pat, template, vars, binders));
        }
        if (rules.isEmpty()) throw bad(form.origin(), "syntax-rules needs at least one rule");
        return new SyntaxRules(nameSym.name(), literals, rules);
    }

    /**
     * Expands one use; {@code fresh} numbers this expansion's renamed binders. Datums the template introduces carry
     * the use's origin; datums taken from the use keep their own. Every datum of the result is charged to
     * {@code meter} — a pattern variable's datum once per copy — so the result's size is bounded even when copies
     * share structure.
     */
    Sx expand(Sx.SList use, int fresh, MacroExpander.Meter meter) {
        for (Rule rule : rules) {
            meter.charge(use.origin());
            Map<String, Object> b = new HashMap<>();
            List<Sx> p = rule.pattern().items();
            if (matchSeq(p.subList(1, p.size()), use.items().subList(1, use.items().size()), b, meter)) {
                Map<String, String> renames = new HashMap<>();
                for (String binder : rule.binders()) renames.put(binder, binder + "%" + fresh);
                return instantiate(rule.template(), b, renames, use.origin(), meter);
            }
        }
        throw new DiagnosticException(LispCode.NO_MACRO_RULE.at(use.origin(), "no rule of macro '" + name + "' matches " + Sx.abbreviate(use, 80)));
    }

    private static DiagnosticException bad(Origin at, String message) {
        return new DiagnosticException(LispCode.BAD_MACRO.at(at, message));
    }

    private static void collectVars(Sx p, Set<String> literals, Set<String> out) {
        switch (p.kind()) {
            case SYMBOL: {
                String n = ((Sx.SSymbol) p).name();
                if (!n.equals("_") && !n.equals(ELLIPSIS) && !literals.contains(n)) out.add(n);
                break;
            }
            case LIST: case BRACKET: case BRACES:
                for (Sx s : items(p)) collectVars(s, literals, out);
                break;
            default:
        }
    }

    /** Names a template binds: let and let* names, lambda parameters, match binders. */
    private static void collectBinders(Sx t, Set<String> out) {
        String head = Sx.head(t);
        if (head != null) {
            List<Sx> it = ((Sx.SList) t).items();
            switch (head) {
                case "let": case "let*":
                    if (it.size() > 1 && it.get(1) instanceof Sx.SList bs) {
                        for (Sx b : bs.items()) if (b instanceof Sx.SList bl && !bl.items().isEmpty()) binderName(bl.items().get(0), out);
                    }
                    break;
                case "lambda":
                    if (it.size() > 1 && it.get(1) instanceof Sx.SList ps) for (Sx p : ps.items()) binderName(p, out);
                    break;
                case "match-option": case "match-result": case "match":
                    for (int i = 2; i < it.size(); i++) {
                        if (it.get(i) instanceof Sx.SList arm && arm.items().size() > 1
                                && List.of("some", "ok", "err").contains(String.valueOf(Sx.head(arm)))) {
                            binderName(arm.items().get(1), out);
                        }
                    }
                    break;
                default:
            }
        }
        if (t instanceof Sx.SList || t instanceof Sx.SBracket || t instanceof Sx.SBraces) for (Sx s : items(t)) collectBinders(s, out);
    }

    private static void binderName(Sx b, Set<String> out) {
        if (b instanceof Sx.SSymbol s && !s.name().equals(ELLIPSIS)) out.add(s.name());
        else if (b instanceof Sx.SBracket br && !br.items().isEmpty() && br.items().get(0) instanceof Sx.SSymbol s) out.add(s.name());
    }

    static List<Sx> items(Sx s) {
        switch (s.kind()) {
            case LIST: return ((Sx.SList) s).items();
            case BRACKET: return ((Sx.SBracket) s).items();
            case BRACES: return ((Sx.SBraces) s).items();
            default: return List.of();
        }
    }

    private boolean match(Sx p, Sx f, Map<String, Object> b, MacroExpander.Meter meter) {
        meter.charge(f.origin());
        switch (p.kind()) {
            case SYMBOL: {
                String n = ((Sx.SSymbol) p).name();
                if (n.equals("_")) return true;
                if (literals.contains(n)) return Sx.isSymbol(f, n);
                b.put(n, f);
                return true;
            }
            case LIST: case BRACKET: case BRACES:
                return p.kind() == f.kind() && matchSeq(items(p), items(f), b, meter);
            case STRING: return f instanceof Sx.SString s && s.value().equals(((Sx.SString) p).value());
            case INT: return f instanceof Sx.SInt i && i.value() == ((Sx.SInt) p).value();
            case FLOAT: return f instanceof Sx.SFloat x && x.value() == ((Sx.SFloat) p).value();
            case KEYWORD: return f instanceof Sx.SKeyword k && k.name().equals(((Sx.SKeyword) p).name());
            case COLON: return f.kind() == Sx.Kind.COLON;
            default: return false;
        }
    }

    private boolean matchSeq(List<Sx> ps, List<Sx> fs, Map<String, Object> b, MacroExpander.Meter meter) {
        int ell = -1;
        for (int i = 0; i < ps.size(); i++) if (Sx.isSymbol(ps.get(i), ELLIPSIS)) { ell = i; break; }
        if (ell < 1) {
            if (ps.size() != fs.size()) return false;
            for (int i = 0; i < ps.size(); i++) if (!match(ps.get(i), fs.get(i), b, meter)) return false;
            return true;
        }
        int before = ell - 1;
        int after = ps.size() - ell - 1;
        if (fs.size() < before + after) return false;
        for (int i = 0; i < before; i++) if (!match(ps.get(i), fs.get(i), b, meter)) return false;
        Sx rep = ps.get(ell - 1);
        Set<String> vars = new LinkedHashSet<>();
        collectVars(rep, literals, vars);
        List<Map<String, Object>> each = new ArrayList<>();
        int repEnd = fs.size() - after;
        for (int i = before; i < repEnd; i++) {
            Map<String, Object> one = new HashMap<>();
            if (!match(rep, fs.get(i), one, meter)) return false;
            each.add(one);
        }
        for (String v : vars) {
            List<Object> seq = new ArrayList<>();
            for (Map<String, Object> one : each) seq.add(one.get(v));
            b.put(v, seq);
        }
        for (int i = 0; i < after; i++) if (!match(ps.get(ell + 1 + i), fs.get(repEnd + i), b, meter)) return false;
        return true;
    }

    private Sx instantiate(Sx t, Map<String, Object> b, Map<String, String> renames, Origin at, MacroExpander.Meter meter) {
        switch (t.kind()) {
            case SYMBOL: {
                String n = ((Sx.SSymbol) t).name();
                Object v = b.get(n);
                if (v instanceof Sx s) {
                    meter.add(Sx.size(s, meter.room()), at);
                    return s;
                }
                if (v != null) throw new DiagnosticException(LispCode.BAD_MACRO.at(at, "pattern variable '" + n + "' needs '...' after it in the template of '" + name + "'"));
                meter.add(1, at);
                return new Sx.SSymbol(renames.getOrDefault(n, n), at);
            }
            case LIST:
                meter.add(1, at);
                return new Sx.SList(instantiateSeq(items(t), b, renames, at, meter), at);
            case BRACKET: {
                meter.add(1, at);
                Sx.SBracket br = (Sx.SBracket) t;
                return new Sx.SBracket(instantiateSeq(br.items(), b, renames, at, meter), null, at);
            }
            case BRACES:
                meter.add(1, at);
                return new Sx.SBraces(instantiateSeq(items(t), b, renames, at, meter), at);
            case QUOTE:
                meter.add(1, at);
                return new Sx.SQuote(instantiate(((Sx.SQuote) t).datum(), b, renames, at, meter), at);
            default:
                meter.add(1, at);
                return t.at(at);
        }
    }

    private List<Sx> instantiateSeq(List<Sx> ts, Map<String, Object> b, Map<String, String> renames, Origin at, MacroExpander.Meter meter) {
        List<Sx> out = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            Sx t = ts.get(i);
            if (i + 1 < ts.size() && Sx.isSymbol(ts.get(i + 1), ELLIPSIS)) {
                Set<String> vars = new LinkedHashSet<>();
                collectVars(t, Set.of(), vars);
                Optional<Integer> len = Optional.empty();
                List<String> seqVars = new ArrayList<>();
                for (String v : vars) {
                    if (b.get(v) instanceof List<?> l) {
                        seqVars.add(v);
                        if (len.isEmpty()) len = Optional.of(l.size());
                        else if (len.get() != l.size()) throw new DiagnosticException(LispCode.BAD_MACRO.at(at, "'...' variables of different lengths in macro '" + name + "'"));
                    }
                }
                if (len.isEmpty()) throw new DiagnosticException(LispCode.BAD_MACRO.at(at, "'...' follows a template with no repeated pattern variable in macro '" + name + "'"));
                for (int k = 0; k < len.get(); k++) {
                    Map<String, Object> one = new HashMap<>(b);
                    for (String v : seqVars) one.put(v, ((List<?>) b.get(v)).get(k));
                    out.add(instantiate(t, one, renames, at, meter));
                }
                i++;
                continue;
            }
            out.add(instantiate(t, b, renames, at, meter));
        }
        return out;
    }
}
