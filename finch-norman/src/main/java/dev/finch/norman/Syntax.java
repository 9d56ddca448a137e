package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.norman.Ast.Binding;
import dev.finch.norman.Ast.Exp;
import dev.finch.norman.Ast.Pattern;
import dev.finch.norman.Ast.TypeExpr;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Recognises the forms of µNorman in datums, applies the five syntactic checks of the reference (plus arity,
 * reserved words and the program-wide constructor namespace) and translates the sugar. Constructor and record
 * names must be known before expressions are read, because {@code (Con e)} and {@code (Record [f e])} are told apart
 * from applications by them: {@link #declare} pre-scans every file first.
 */
final class Syntax {
    /** The reserved words of the reference. */
    static final Set<String> RESERVED = Set.of("val", "define", "datatype", "record", "use", "grant", "script", "under",
            "check-expect", "check-assert", "check-error", "check-fail", "check-within", "check-equiv", "if", "let*", "lambda",
            "case", "ask", "call", "fail", "catch", "budget", "workflow", "begin", "par", "and", "or", "_");

    private static final java.util.regex.Pattern NUMERAL = java.util.regex.Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final java.util.regex.Pattern MONEY = java.util.regex.Pattern.compile("\\$([0-9]+(\\.[0-9]+)?)");
    private static final java.util.regex.Pattern DURATION = java.util.regex.Pattern.compile("([0-9]+(\\.[0-9]+)?)(ms|s|min|h)");
    private static final Map<String, Long> MILLIS = Map.of("ms", 1L, "s", 1000L, "min", 60_000L, "h", 3_600_000L);

    /** Constructor name → number of fields, across the program (basis included). */
    private final Map<String, Integer> constructors = new HashMap<>();
    private final Map<String, Origin> constructorOrigins = new HashMap<>();
    /** Record name → field names in declaration order. */
    private final Map<String, List<String>> records = new HashMap<>();
    private final Set<String> typeNames = new HashSet<>(Set.of("Text", "Num", "Bool", "Sym", "List", "Any"));
    private final Map<String, Origin> typeOrigins = new HashMap<>();
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private int gensym;

    List<Diagnostic> diagnostics() { return diagnostics; }

    // ---- the pre-scan -------------------------------------------------------------------------------------------

    /** Records the datatype and record declarations of {@code datums} (reporting program-wide duplicates). */
    void declare(List<Sx> datums) {
        for (Sx d : datums) {
            if (!(d instanceof Sx.SList l) || l.size() < 2 || !(l.get(1) instanceof Sx.Atom name)) continue;
            String head = l.head();
            if (!"datatype".equals(head) && !"record".equals(head)) continue;
            if (typeOrigins.containsKey(name.text()) || Set.of("Text", "Num", "Bool", "Sym", "List", "Any").contains(name.text())) {
                diagnostics.add(NormanCode.DUPLICATE_TYPE.at(name.origin(), "type `" + name.text() + "` is already declared"
                        + (typeOrigins.containsKey(name.text()) ? " at " + typeOrigins.get(name.text()) : " (it is built in)")));
                continue;
            }
            typeNames.add(name.text());
            typeOrigins.put(name.text(), name.origin());
            if (head.equals("record")) {
                List<String> fields = new ArrayList<>();
                for (int i = 2; i < l.size(); i++) {
                    if (l.get(i) instanceof Sx.SList f && f.size() >= 1 && f.get(0) instanceof Sx.Atom fa) fields.add(fa.text());
                }
                records.put(name.text(), fields);
                continue;
            }
            Set<String> local = new HashSet<>();
            for (int i = 2; i < l.size(); i++) {
                Sx c = l.get(i);
                Sx.Atom con;
                int fields;
                if (c instanceof Sx.Atom a) { con = a; fields = 0; }
                else if (c instanceof Sx.SList cl && cl.size() >= 1 && cl.get(0) instanceof Sx.Atom a) { con = a; fields = cl.size() - 1; }
                else continue;
                if (!local.add(con.text())) continue; // reported by the datatype's own check 1
                Origin first = constructorOrigins.get(con.text());
                if (first != null) {
                    diagnostics.add(NormanCode.DUPLICATE_CONSTRUCTOR.at(con.origin(), "constructor `" + con.text()
                            + "` is already declared at " + first + "; constructors share one namespace across the program"));
                    continue;
                }
                constructors.put(con.text(), fields);
                constructorOrigins.put(con.text(), con.origin());
            }
        }
    }

    // ---- definitions --------------------------------------------------------------------------------------------

    /** Reads one top-level datum; a malformed one is reported and yields nothing. */
    Optional<Ast.Def> def(Sx d) {
        try {
            return Optional.of(definition(d));
        } catch (DiagnosticException e) {
            diagnostics.addAll(e.diagnostics());
            return Optional.empty();
        }
    }

    private Ast.Def definition(Sx d) {
        Origin at = d.origin();
        if (d instanceof Sx.SList l && l.head() != null) {
            switch (l.head()) {
                case "val":
                    arity(l, 3, "(val name exp)");
                    return new Ast.Val(binder(l.get(1)), exp(l.get(2)), at);
                case "define": {
                    arity(l, 4, "(define name (formals) exp)");
                    String name = binder(l.get(1));
                    return new Ast.Define(name, formals(l.get(2)), exp(l.get(3)), at);
                }
                case "datatype": return datatype(l);
                case "record": {
                    atLeast(l, 2, "(record Record (field ty)…)");
                    String name = atom(l.get(1), "a record name");
                    List<Ast.FieldDecl> fields = new ArrayList<>();
                    for (int i = 2; i < l.size(); i++) fields.add(fieldDecl(l.get(i)));
                    distinct(fields.stream().map(Ast.FieldDecl::name).toList(), fields.stream().map(Ast.FieldDecl::origin).toList(), "field of record " + name);
                    return new Ast.RecordDecl(name, fields, at);
                }
                case "use": {
                    arity(l, 2, "(use file)");
                    Sx f = l.get(1);
                    String file = f instanceof Sx.Str s ? s.value() : atom(f, "a file name");
                    return new Ast.Use(file, at);
                }
                case "grant": return grant(l);
                case "script": return script(l);
                case "under": return under(l);
                default:
                    if (testKind(l.head()) != null) return test(l);
            }
        }
        return new Ast.TopExp(exp(d), at);
    }

    private Ast.Datatype datatype(Sx.SList l) {
        atLeast(l, 2, "(datatype Type [Con (field ty)…]…)");
        String name = atom(l.get(1), "a datatype name");
        List<Ast.ConDecl> cons = new ArrayList<>();
        for (int i = 2; i < l.size(); i++) {
            Sx c = l.get(i);
            if (c instanceof Sx.Atom a) { cons.add(new Ast.ConDecl(name(a), List.of(), a.origin())); continue; }
            if (!(c instanceof Sx.SList cl) || cl.size() == 0) throw bad(c, "a constructor [Con (field ty)…]");
            String con = atom(cl.get(0), "a constructor name");
            List<Ast.FieldDecl> fields = new ArrayList<>();
            for (int k = 1; k < cl.size(); k++) fields.add(fieldDecl(cl.get(k)));
            distinct(fields.stream().map(Ast.FieldDecl::name).toList(), fields.stream().map(Ast.FieldDecl::origin).toList(), "field of constructor " + con);
            cons.add(new Ast.ConDecl(con, fields, c.origin()));
        }
        distinct(cons.stream().map(Ast.ConDecl::name).toList(), cons.stream().map(Ast.ConDecl::origin).toList(), "constructor of datatype " + name);
        return new Ast.Datatype(name, cons, l.origin());
    }

    private Ast.FieldDecl fieldDecl(Sx f) {
        if (!(f instanceof Sx.SList fl)) throw bad(f, "a field (name ty)");
        arity(fl, 2, "(field ty)");
        return new Ast.FieldDecl(atom(fl.get(0), "a field name"), type(fl.get(1)), f.origin());
    }

    private Ast.Grant grant(Sx.SList l) {
        arity(l, 3, "(grant name host-spec)");
        String name = binder(l.get(1));
        if (!(l.get(2) instanceof Sx.SList spec) || spec.head() == null) throw bad(l.get(2), "a host spec (model …), (kernel …), (filesystem …), (http …) or (memory …)");
        String host = spec.head();
        if (!Set.of("model", "kernel", "filesystem", "http", "memory").contains(host)) {
            throw bad(spec.get(0), "one of model, kernel, filesystem, http, memory");
        }
        if (host.equals("memory")) return memoryGrant(l, name, spec);
        List<Ast.HostEntry> entries = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<Origin> origins = new ArrayList<>();
        // Every valid key at once, so a model does not learn them one refusal at a time.
        String entry = host.equals("model") ? "an entry [key value] whose key is one of id, in, out, ceiling, think (e.g. [id \"claude-sonnet-4-5\"] [in 3] [ceiling 4000])"
                : "an operation [op type] (e.g. [exec (Text 4000)] [count Num]; none at all leaves the grant open)";
        for (int i = 1; i < spec.size(); i++) {
            if (!(spec.get(i) instanceof Sx.SList e)) throw bad(spec.get(i), entry);
            arity(e, 2, host.equals("model") ? "[key value] with key one of id, in, out, ceiling, think" : "[op type]");
            String key = atom(e.get(0), host.equals("model") ? "a key: one of id, in, out, ceiling, think" : "an operation name");
            keys.add(key);
            origins.add(e.origin());
            if (host.equals("model")) {
                if (!Set.of("id", "in", "out", "ceiling", "think").contains(key)) throw bad(e.get(0), "one of id, in, out, ceiling, think");
                modelTerm(key, e.get(1));
                entries.add(new Ast.HostEntry(key, Optional.empty(), Optional.of(e.get(1)), e.origin()));
            } else {
                entries.add(new Ast.HostEntry(key, Optional.of(type(e.get(1))), Optional.empty(), e.origin()));
            }
        }
        distinct(keys, origins, "entry of grant " + name);
        return new Ast.Grant(name, host, entries, l.origin());
    }

    /** The memory trees a memory grant may name (Finch's memory words' trees). */
    static final List<String> MEMORY_TREES = List.of("session", "project", "global");

    /**
     * {@code (grant name (memory [tree T] [value τ]))}: {@code [tree T]}, one of {@link #MEMORY_TREES}, is required —
     * the grant is the one tree the program reaches through it, so every call's requirement names it — and
     * {@code [value τ]} is optional (the type of the values, Text when omitted).
     */
    private Ast.Grant memoryGrant(Sx.SList l, String name, Sx.SList spec) {
        String entry = "an entry [tree session|project|global] or [value type] (e.g. (memory [tree project] [value Note]))";
        List<Ast.HostEntry> entries = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<Origin> origins = new ArrayList<>();
        for (int i = 1; i < spec.size(); i++) {
            if (!(spec.get(i) instanceof Sx.SList e)) throw bad(spec.get(i), entry);
            arity(e, 2, "[tree name] or [value type]");
            String key = atom(e.get(0), "tree or value");
            keys.add(key);
            origins.add(e.origin());
            if (key.equals("tree")) {
                if (!(e.get(1) instanceof Sx.Atom t) || !MEMORY_TREES.contains(t.text())) throw bad(e.get(1), "a memory tree: session, project or global");
                entries.add(new Ast.HostEntry(key, Optional.empty(), Optional.of(e.get(1)), e.origin()));
            } else if (key.equals("value")) {
                entries.add(new Ast.HostEntry(key, Optional.of(type(e.get(1))), Optional.empty(), e.origin()));
            } else {
                throw bad(e.get(0), "tree or value (a memory grant's operations are always get, put, list and delete)");
            }
        }
        distinct(keys, origins, "entry of grant " + name);
        if (!keys.contains("tree")) throw bad(spec, "a memory grant naming its tree, e.g. (memory [tree project]): [tree session|project|global]");
        return new Ast.Grant(name, "memory", entries, l.origin());
    }

    /**
     * A model grant's field, checked here so that no price, ceiling or token count a program states is negative,
     * malformed or past a long ({@link SiteKey.Model#refusal}): the id a string; a price micro-dollars a token in digits
     * with at most six decimals ({@link SiteKey.Model#price}); a ceiling or think a whole number in range.
     */
    private static void modelTerm(String key, Sx v) {
        if (key.equals("id")) {
            if (!(v instanceof Sx.Str)) throw bad(v, "a model id string such as \"claude-sonnet-4-5\"");
            return;
        }
        boolean price = key.equals("in") || key.equals("out");
        String text = v instanceof Sx.Atom a ? a.text() : null;
        java.util.OptionalLong n = text == null ? java.util.OptionalLong.empty() : price ? SiteKey.Model.price(text) : SiteKey.Model.wholeNumber(text);
        Optional<String> why;
        if (n.isPresent()) why = SiteKey.Model.refusal(key, n.getAsLong());
        else if (price) why = Optional.of("[" + key + " …] is a price in micro-dollars a token, written in digits with at most "
                + SiteKey.Model.PRICE_DECIMALS + " decimals ([" + key + " 0.25] is $0.25 a million tokens) and at most a million dollars, not " + describe(v));
        else why = Optional.of("[" + key + " …] is a whole number written in digits, not " + describe(v));
        if (why.isPresent()) throw new DiagnosticException(NormanCode.BAD_GRANT_TERM.at(v.origin(), why.get()));
    }

    /** The answers a script entry can give: each may be followed by its {@code (out n)} and {@code (latency d)}. */
    static final Set<String> SCRIPT_ANSWERS = Set.of("reply", "result", "provider-error", "refused");

    /**
     * {@code (script Name [site step…]…)}, checked as it is read: each step is an answer ({@link #SCRIPT_ANSWERS})
     * or an {@code (out n)} / {@code (latency d)} qualifying the answer before it; a latency is a duration literal;
     * {@code (refused 'category)} quotes a symbol; no site is listed twice. (Script names, and whether a
     * {@code cap/op} names a grant, are checked over the whole program: {@link ScriptChecks}.)
     */
    private Ast.Script script(Sx.SList l) {
        atLeast(l, 2, "(script Name [site step…]…)");
        String name = atom(l.get(1), "a script name");
        List<Ast.SiteScript> sites = new ArrayList<>();
        Map<String, Origin> seen = new java.util.HashMap<>();
        for (int i = 2; i < l.size(); i++) {
            if (!(l.get(i) instanceof Sx.SList s) || s.size() == 0) throw bad(l.get(i), "a site script [site step…]");
            String key = atom(s.get(0), "a site or capability/operation");
            Origin before = seen.putIfAbsent(key, s.get(0).origin());
            if (before != null) {
                throw new DiagnosticException(NormanCode.DUPLICATE_SCRIPT.at(s.get(0).origin(), "script " + name + " lists the site `" + key
                        + "` twice (first at " + before.line() + ":" + before.column() + "): put all its entries, in order, in one [" + key + " …]"));
            }
            List<Ast.ScriptStep> steps = new ArrayList<>();
            boolean answered = false;
            for (int k = 1; k < s.size(); k++) {
                if (!(s.get(k) instanceof Sx.SList st) || st.head() == null) throw bad(s.get(k), "a step: (reply \"…\"), (result \"…\"), (provider-error \"…\") or (refused 'category), each optionally followed by (out n) and (latency d)");
                String kind = st.head();
                boolean qualifier = kind.equals("out") || kind.equals("latency");
                if (!qualifier && !SCRIPT_ANSWERS.contains(kind)) {
                    throw new DiagnosticException(NormanCode.SCRIPT_ENTRY.at(st.origin(), "`" + kind + "` is not a script entry: an entry is (reply \"…\"), "
                            + "(result \"…\"), (provider-error \"…\") or (refused 'category), each optionally followed by (out n) and (latency d)"));
                }
                arity(st, 2, "(" + kind + " value)");
                Sx arg = st.get(1);
                if (qualifier && !answered) {
                    throw new DiagnosticException(NormanCode.SCRIPT_ENTRY.at(st.origin(), "(" + kind + " …) qualifies the answer before it, "
                            + "but no (reply …), (result …), (provider-error …) or (refused …) comes before it at site `" + key + "`"));
                }
                answered = true;
                switch (kind) {
                    case "out" -> {
                        if (!(arg instanceof Sx.Atom n && SiteKey.Model.wholeNumber(n.text()).isPresent())) {
                            throw new DiagnosticException(NormanCode.BAD_GRANT_TERM.at(arg.origin(),
                                    "(out n) is a whole number of output tokens written in digits, not " + describe(arg)));
                        }
                    }
                    case "latency" -> latency(arg);
                    case "refused" -> {
                        if (!(arg instanceof Sx.Quote q && q.datum() instanceof Sx.Atom)) {
                            throw new DiagnosticException(NormanCode.SCRIPT_ENTRY.at(arg.origin(),
                                    "(refused 'category) quotes the refusal's category, a symbol such as 'safety, not " + describe(arg)));
                        }
                    }
                    default -> { }
                }
                steps.add(new Ast.ScriptStep(kind, Optional.of(arg), st.origin()));
            }
            sites.add(new Ast.SiteScript(key, steps, s.origin()));
        }
        return new Ast.Script(name, sites, l.origin());
    }

    /**
     * The site of an ask that names none: {@code file:line:col}, where {@code file} is the file's own name without
     * any directory ({@code agents.nm:12:5}), so the key a script uses is the same whatever path the file was given
     * by (the command line's working directory, a JUnit resource, a {@code use}).
     */
    static String defaultSite(Origin at) {
        String src = at.source();
        int cut = Math.max(src.lastIndexOf('/'), src.lastIndexOf('\\'));
        return src.substring(cut + 1) + ":" + at.line() + ":" + at.column();
    }

    /** A script's latency: a duration literal, exact to the millisecond ({@code 40ms}, {@code 2s}, {@code 1.5min}). */
    private void latency(Sx arg) {
        String why = "(latency d) is a duration such as 40ms, 2s, 1min or 1h, not " + describe(arg);
        if (!(arg instanceof Sx.Atom a)) throw new DiagnosticException(NormanCode.SCRIPT_LATENCY.at(arg.origin(), why));
        Exp e;
        try {
            e = literal(a);
        } catch (DiagnosticException x) {
            throw new DiagnosticException(NormanCode.SCRIPT_LATENCY.at(arg.origin(), why + ": " + x.diagnostics().get(0).message()));
        }
        if (!(e instanceof Ast.Duration)) throw new DiagnosticException(NormanCode.SCRIPT_LATENCY.at(arg.origin(), why));
    }

    private Ast.Under under(Sx.SList l) {
        atLeast(l, 2, "(under ([script Name] [cost e] [time e]) unit-test…)");
        if (!(l.get(1) instanceof Sx.SList config)) throw bad(l.get(1), "a configuration ([script Name] [cost e] [time e])");
        Optional<String> script = Optional.empty();
        Optional<Exp> cost = Optional.empty();
        Optional<Exp> time = Optional.empty();
        Set<String> seen = new HashSet<>();
        for (Sx c : config.items()) {
            if (!(c instanceof Sx.SList cl)) throw bad(c, "[script Name], [cost e] or [time e]");
            arity(cl, 2, "[key value]");
            String key = atom(cl.get(0), "script, cost or time");
            if (!seen.add(key)) throw new DiagnosticException(NormanCode.DUPLICATE_NAME.at(cl.origin(), "`" + key + "` is configured twice"));
            switch (key) {
                case "script": script = Optional.of(atom(cl.get(1), "a script name")); break;
                case "cost": cost = Optional.of(exp(cl.get(1))); break;
                case "time": time = Optional.of(exp(cl.get(1))); break;
                default: throw bad(cl.get(0), "script, cost or time");
            }
        }
        List<Ast.Test> tests = new ArrayList<>();
        for (int i = 2; i < l.size(); i++) {
            Sx t = l.get(i);
            if (!(t instanceof Sx.SList tl) || testKind(tl.head()) == null) throw bad(t, "a unit test (check-…)");
            tests.add(test(tl));
        }
        return new Ast.Under(script, cost, time, tests, l.origin());
    }

    private static Ast.TestKind testKind(String head) {
        if (head == null) return null;
        for (Ast.TestKind k : Ast.TestKind.values()) if (k.spelling().equals(head)) return k;
        return null;
    }

    private Ast.Test test(Sx.SList l) {
        Ast.TestKind k = testKind(l.head());
        Origin at = l.origin();
        switch (k) {
            case CHECK_EXPECT:
                arity(l, 3, "(check-expect e expected)");
                return new Ast.Test(k, List.of(exp(l.get(1)), exp(l.get(2))), Optional.empty(), Optional.empty(), at);
            case CHECK_ASSERT:
            case CHECK_ERROR:
                arity(l, 2, "(" + k.spelling() + " e)");
                return new Ast.Test(k, List.of(exp(l.get(1))), Optional.empty(), Optional.empty(), at);
            case CHECK_FAIL:
                arity(l, 3, "(check-fail e pattern)");
                return new Ast.Test(k, List.of(exp(l.get(1))), Optional.of(pattern(l.get(2))), Optional.empty(), at);
            case CHECK_WITHIN: {
                arity(l, 3, "(check-within e ([cost c] [time t]))");
                Exp e = exp(l.get(1));
                if (!(l.get(2) instanceof Sx.SList limits)) throw bad(l.get(2), "limits ([cost c] [time t])");
                Exp[] ct = limits(limits);
                return new Ast.Test(k, List.of(e, ct[0], ct[1]), Optional.empty(), Optional.empty(), at);
            }
            case CHECK_EQUIV:
            default: {
                arity(l, 4, "(check-equiv e₁ e₂ 'grade)");
                if (!(l.get(3) instanceof Sx.Quote q) || !(q.datum() instanceof Sx.Atom g)
                        || !Set.of("exact", "resource", "value").contains(g.text())) {
                    throw bad(l.get(3), "a grade 'exact, 'resource or 'value");
                }
                return new Ast.Test(k, List.of(exp(l.get(1)), exp(l.get(2))), Optional.empty(), Optional.of(g.text()), at);
            }
        }
    }

    /** {@code ([cost c] [time t])}: either may be omitted, which means ∞. */
    private Exp[] limits(Sx.SList l) {
        Exp[] out = {new Ast.Infinity(l.origin()), new Ast.Infinity(l.origin())};
        Set<String> seen = new HashSet<>();
        for (Sx c : l.items()) {
            if (!(c instanceof Sx.SList cl)) throw bad(c, "[cost e] or [time e]");
            arity(cl, 2, "[cost e] or [time e]");
            String key = atom(cl.get(0), "cost or time");
            if (!seen.add(key)) throw new DiagnosticException(NormanCode.DUPLICATE_NAME.at(cl.origin(), "`" + key + "` is given twice"));
            if (key.equals("cost")) out[0] = exp(cl.get(1));
            else if (key.equals("time")) out[1] = exp(cl.get(1));
            else throw bad(cl.get(0), "cost or time");
        }
        return out;
    }

    // ---- expressions --------------------------------------------------------------------------------------------

    Exp exp(Sx d) {
        Origin at = d.origin();
        switch (d.kind()) {
            case STRING: return new Ast.Text(((Sx.Str) d).value(), at);
            case QUOTE: {
                Sx q = ((Sx.Quote) d).datum();
                if (q instanceof Sx.SList ql && ql.size() == 0) return new Ast.EmptyList(at);
                if (q instanceof Sx.Atom a && literal(a) == null) return new Ast.Sym(a.text(), at);
                throw bad(d, "a symbol 'name or the empty list '()");
            }
            case ATOM: return atomExp((Sx.Atom) d);
            case LIST:
            default: return listExp((Sx.SList) d);
        }
    }

    private Exp atomExp(Sx.Atom a) {
        Exp lit = literal(a);
        if (lit != null) return lit;
        String s = a.text();
        if (RESERVED.contains(s)) {
            throw new DiagnosticException(NormanCode.RESERVED_WORD.at(a.origin(), "`" + s + "` is a reserved word and cannot be used as an expression"));
        }
        Integer fields = constructors.get(s);
        if (fields != null) {
            if (fields != 0) {
                throw new DiagnosticException(NormanCode.ARITY.at(a.origin(), "constructor `" + s + "` has " + fields
                        + " field(s): apply it, (" + s + " …)", fields + " argument(s)", "0"));
            }
            return new Ast.Construct(s, List.of(), a.origin());
        }
        return new Ast.Var(s, a.origin());
    }

    /** A literal atom, or null when the atom is a name. */
    private Exp literal(Sx.Atom a) {
        String s = a.text();
        Origin at = a.origin();
        if (s.equals("#t")) return new Ast.Bool(true, at);
        if (s.equals("#f")) return new Ast.Bool(false, at);
        if (s.equals("∞")) return new Ast.Infinity(at);
        if (NUMERAL.matcher(s).matches()) {
            double v = Double.parseDouble(s);
            if (Double.isInfinite(v)) throw literalError(a, "a number is at most " + Double.MAX_VALUE + " in size");
            return new Ast.Num(v, at);
        }
        Matcher m = MONEY.matcher(s);
        if (m.matches()) {
            long micros = exact(a, m.group(1), 1_000_000L, "money is exact to the micro-dollar",
                    "money is at most $" + BigDecimal.valueOf(Long.MAX_VALUE).movePointLeft(6).toPlainString());
            return new Ast.Money(micros, at);
        }
        m = DURATION.matcher(s);
        if (m.matches()) {
            long millis = exact(a, m.group(1), MILLIS.get(m.group(3)), "durations are exact to the millisecond",
                    "a duration is at most " + Long.MAX_VALUE + "ms (about 292 million years)");
            return new Ast.Duration(millis, at);
        }
        char c = s.charAt(0);
        if (Character.isDigit(c) || (c == '$' && s.length() > 1 && Character.isDigit(s.charAt(1)))
                || (c == '-' && s.length() > 1 && Character.isDigit(s.charAt(1)))) {
            throw literalError(a, "not a numeral, money amount ($0.50) or duration (40s, 1min, 2ms, 1h)");
        }
        return null;
    }

    /**
     * {@code decimal × unit} as a whole number of units of a long, or a literal error: {@code inexact} when it has a
     * fraction of a unit, {@code tooLarge} when it does not fit. Digits past what a long holds are never converted, so
     * a literal of a million digits costs its length.
     */
    private static long exact(Sx.Atom a, String decimal, long unit, String inexact, String tooLarge) {
        int dot = decimal.indexOf('.');
        String whole = dot < 0 ? decimal : decimal.substring(0, dot);
        String fraction = dot < 0 ? "" : decimal.substring(dot + 1);
        int lead = 0;
        while (lead < whole.length() - 1 && whole.charAt(lead) == '0') lead++;
        int trail = fraction.length();
        while (trail > 0 && fraction.charAt(trail - 1) == '0') trail--;
        // A unit is at most 3.6e6 and a long about 9.2e18: more than 19 whole digits, or more than 7 significant
        // fractional ones (10^-8 of an hour is not a whole millisecond), settle the answer without arithmetic.
        if (trail > 7) throw literalError(a, inexact);
        if (whole.length() - lead > 19) throw literalError(a, tooLarge);
        BigDecimal value = new BigDecimal(whole.substring(lead) + (trail == 0 ? "" : "." + fraction.substring(0, trail)))
                .multiply(BigDecimal.valueOf(unit));
        if (value.stripTrailingZeros().scale() > 0) throw literalError(a, inexact);
        if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) throw literalError(a, tooLarge);
        return value.longValueExact();
    }

    private static DiagnosticException literalError(Sx.Atom a, String why) {
        return new DiagnosticException(NormanCode.BAD_LITERAL.at(a.origin(), "malformed literal `" + abbreviated(a.text()) + "`: " + why));
    }

    /** How much of a literal a diagnostic quotes: enough to recognise it, never a megabyte of digits. */
    private static final int QUOTED = 40;

    private static String abbreviated(String text) {
        return text.length() <= QUOTED ? text : text.substring(0, QUOTED) + "…(" + text.length() + " characters)";
    }

    private Exp listExp(Sx.SList l) {
        Origin at = l.origin();
        if (l.size() == 0) throw bad(l, "an expression; () is not one (the empty list is '())");
        String head = l.head();
        if (head == null) return new Ast.Apply(exp(l.get(0)), exps(l, 1), at);
        switch (head) {
            case "if":
                arity(l, 4, "(if test then else)");
                return new Ast.If(exp(l.get(1)), exp(l.get(2)), exp(l.get(3)), at);
            case "and":
                arity(l, 3, "(and e₁ e₂)");
                return new Ast.If(exp(l.get(1)), exp(l.get(2)), new Ast.Bool(false, at), at);
            case "or":
                arity(l, 3, "(or e₁ e₂)");
                return new Ast.If(exp(l.get(1)), new Ast.Bool(true, at), exp(l.get(2)), at);
            case "let*": {
                arity(l, 3, "(let* ([x e]…) body)");
                List<Binding> bs = bindings(l.get(1), "let*");
                Exp body = exp(l.get(2));
                return bs.isEmpty() ? body : new Ast.LetStar(bs, body, at);
            }
            case "begin": {
                if (l.size() == 1) return new Ast.Bool(false, at);
                List<Binding> bs = new ArrayList<>();
                for (int i = 1; i < l.size() - 1; i++) bs.add(new Binding("_", exp(l.get(i)), l.get(i).origin()));
                Exp last = exp(l.get(l.size() - 1));
                return bs.isEmpty() ? last : new Ast.LetStar(bs, last, at);
            }
            case "lambda":
                arity(l, 3, "(lambda (formals) body)");
                return new Ast.Lambda(formals(l.get(1)), exp(l.get(2)), at);
            case ".":
                arity(l, 3, "(. e field)");
                return new Ast.Dot(exp(l.get(1)), atom(l.get(2), "a field name"), at);
            case "case": return caseExp(l);
            case "list": return new Ast.ListExp(exps(l, 1), at);
            case "cons":
                arity(l, 3, "(cons head tail)");
                return new Ast.Cons(exp(l.get(1)), exp(l.get(2)), at);
            case "fail": {
                arity(l, 2, "(fail e)");
                Sx arg = l.get(1);
                if (arg instanceof Sx.Quote q && q.datum() instanceof Sx.Atom) {
                    return new Ast.Fail(new Ast.Construct("Raised", List.of(exp(arg)), arg.origin()), at);
                }
                return new Ast.Fail(exp(arg), at);
            }
            case "catch":
                arity(l, 4, "(catch e name handler)");
                return new Ast.Catch(exp(l.get(1)), binder(l.get(2)), exp(l.get(3)), at);
            case "ask": {
                if (l.size() != 4 && l.size() != 5) throw arityError(l, "(ask model ty context ['site])");
                String site;
                if (l.size() == 5) {
                    if (!(l.get(4) instanceof Sx.Quote q) || !(q.datum() instanceof Sx.Atom s)) throw bad(l.get(4), "a site 'name");
                    site = s.text();
                } else {
                    site = defaultSite(at);
                }
                return new Ast.Ask(exp(l.get(1)), type(l.get(2)), exp(l.get(3)), site, at);
            }
            case "call":
                atLeast(l, 3, "(call capability op exp…)");
                return new Ast.CallTool(exp(l.get(1)), atom(l.get(2), "an operation name"), exps(l, 3), at);
            case "budget": {
                arity(l, 3, "(budget ([cost e] [time e]) body)");
                if (!(l.get(1) instanceof Sx.SList limits)) throw bad(l.get(1), "limits ([cost e] [time e])");
                Exp[] ct = limits(limits);
                Exp body = exp(l.get(2));
                return new Ast.Budget(optional(ct[0]), optional(ct[1]), body, at);
            }
            case "workflow": {
                arity(l, 3, "(workflow ([name e]…) body)");
                return workflow(bindings(l.get(1), "workflow"), exp(l.get(2)), at);
            }
            case "par": {
                arity(l, 3, "(par e₁ e₂)");
                String a = " par" + (++gensym) + "a";
                String b = " par" + gensym + "b";
                Exp pair = new Ast.RecordNew("Pair", List.of(new Binding("fst", new Ast.Var(a, at), at), new Binding("snd", new Ast.Var(b, at), at)), at);
                return new Ast.Workflow(List.of(new Binding(a, exp(l.get(1)), l.get(1).origin()), new Binding(b, exp(l.get(2)), l.get(2).origin())), pair, at);
            }
            default:
                break;
        }
        if (RESERVED.contains(head)) {
            throw new DiagnosticException(NormanCode.RESERVED_WORD.at(l.get(0).origin(), "`" + head + "` cannot start an expression here"));
        }
        Integer fields = constructors.get(head);
        if (fields != null) {
            if (l.size() - 1 != fields) {
                throw new DiagnosticException(NormanCode.ARITY.at(l.origin(), "constructor `" + head + "` takes " + fields + " field(s), given "
                        + (l.size() - 1), String.valueOf(fields), String.valueOf(l.size() - 1)));
            }
            return new Ast.Construct(head, exps(l, 1), at);
        }
        List<String> recordFields = records.get(head);
        if (recordFields != null) return recordNew(head, recordFields, l);
        return new Ast.Apply(exp(l.get(0)), exps(l, 1), at);
    }

    private static Optional<Exp> optional(Exp e) { return e.kind() == Exp.Kind.INFINITY ? Optional.empty() : Optional.of(e); }

    private Exp recordNew(String name, List<String> declaredFields, Sx.SList l) {
        Set<String> declared = new HashSet<>(declaredFields);
        List<Binding> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < l.size(); i++) {
            if (!(l.get(i) instanceof Sx.SList f)) throw bad(l.get(i), "a named field [field e]");
            arity(f, 2, "[field e]");
            String field = atom(f.get(0), "a field name");
            if (!declared.contains(field)) {
                throw new DiagnosticException(NormanCode.UNKNOWN_FIELD.at(f.get(0).origin(), "record `" + name + "` has no field `" + field + "`",
                        String.join(" ", declaredFields), field));
            }
            if (!seen.add(field)) throw new DiagnosticException(NormanCode.UNKNOWN_FIELD.at(f.origin(), "field `" + field + "` is given twice"));
            fields.add(new Binding(field, exp(f.get(1)), f.origin()));
        }
        for (String f : declaredFields) {
            if (!seen.contains(f)) {
                throw new DiagnosticException(NormanCode.UNKNOWN_FIELD.at(l.origin(), "record `" + name + "` is built without its field `" + f
                        + "`: every field must be named", String.join(" ", declaredFields), String.join(" ", seen)));
            }
        }
        return new Ast.RecordNew(name, fields, l.origin());
    }

    /** Checks 2 and 3 (distinct names, acyclic dependencies) and orders the steps so each follows its inputs. */
    private Exp workflow(List<Binding> steps, Exp body, Origin at) {
        Set<String> seen = new HashSet<>();
        for (Binding b : steps) {
            if (!seen.add(b.name())) {
                throw new DiagnosticException(NormanCode.DUPLICATE_STEP.at(b.origin(), "workflow step `" + b.name() + "` is named twice"));
            }
        }
        // The order of the reference: repeatedly, in written order, every step whose inputs are done. A step is taken
        // in the pass of its latest input written before it, or the pass after that of an input written after it;
        // each step's pass is found once its inputs' are known (in dependency order), so the cost is linear.
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) index.put(steps.get(i).name(), i);
        List<Set<String>> deps = new ArrayList<>();
        Map<String, List<Integer>> users = new HashMap<>();
        int[] waiting = new int[steps.size()];
        java.util.ArrayDeque<Integer> ready = new java.util.ArrayDeque<>();
        for (int i = 0; i < steps.size(); i++) {
            Set<String> free = FreeVars.of(steps.get(i).value());
            free.retainAll(index.keySet());
            deps.add(free);
            for (String d : free) users.computeIfAbsent(d, k -> new ArrayList<>()).add(i);
            waiting[i] = free.size();
            if (free.isEmpty()) ready.add(i);
        }
        int[] pass = new int[steps.size()];
        boolean[] done = new boolean[steps.size()];
        int count = 0;
        while (!ready.isEmpty()) {
            int i = ready.poll();
            done[i] = true;
            count++;
            pass[i] = 1;
            for (String d : deps.get(i)) {
                int j = index.get(d);
                pass[i] = Math.max(pass[i], j < i ? pass[j] : pass[j] + 1);
            }
            for (int u : users.getOrDefault(steps.get(i).name(), List.of())) if (--waiting[u] == 0) ready.add(u);
        }
        if (count < steps.size()) {
            List<String> cycle = new ArrayList<>();
            Binding first = null;
            for (int i = 0; i < steps.size(); i++) {
                if (done[i]) continue;
                cycle.add(steps.get(i).name());
                if (first == null) first = steps.get(i);
            }
            throw new DiagnosticException(NormanCode.WORKFLOW_CYCLE.at(first.origin(), "the workflow's steps depend on each other in a cycle: "
                    + String.join(", ", cycle)));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) order.add(i);
        order.sort(java.util.Comparator.<Integer>comparingInt(i -> pass[i]).thenComparingInt(i -> i));
        List<Binding> ordered = new ArrayList<>();
        for (int i : order) ordered.add(steps.get(i));
        return new Ast.Workflow(ordered, body, at);
    }

    private Exp caseExp(Sx.SList l) {
        atLeast(l, 3, "(case e [pattern body]…)");
        Exp scrutinee = exp(l.get(1));
        List<Ast.Branch> branches = new ArrayList<>();
        for (int i = 2; i < l.size(); i++) {
            if (!(l.get(i) instanceof Sx.SList b)) throw bad(l.get(i), "a branch [pattern body]");
            arity(b, 2, "[pattern body]");
            branches.add(new Ast.Branch(pattern(b.get(0)), exp(b.get(1)), b.origin()));
        }
        return new Ast.Case(scrutinee, branches, l.origin());
    }

    /** Check 4: flat patterns, no repeated variable. */
    Pattern pattern(Sx p) {
        Origin at = p.origin();
        if (p instanceof Sx.Atom a) {
            if (a.text().equals("_")) return new Ast.PWild(at);
            Integer fields = constructors.get(a.text());
            if (fields == null) throw badPattern(p);
            if (fields != 0) {
                throw new DiagnosticException(NormanCode.ARITY.at(at, "constructor `" + a.text() + "` has " + fields + " field(s): match it as ("
                        + a.text() + " …)", String.valueOf(fields), "0"));
            }
            return new Ast.PCon(a.text(), List.of(), at);
        }
        if (p instanceof Sx.Quote q && q.datum() instanceof Sx.SList ql && ql.size() == 0) return new Ast.PNil(at);
        if (!(p instanceof Sx.SList l) || l.head() == null) throw badPattern(p);
        String head = l.head();
        List<Optional<String>> vars = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < l.size(); i++) {
            Sx v = l.get(i);
            if (!(v instanceof Sx.Atom va)) {
                throw new DiagnosticException(NormanCode.NESTED_PATTERN.at(v.origin(), "patterns are flat: `" + head
                        + "` applies to names or _, never to another pattern"));
            }
            if (va.text().equals("_")) { vars.add(Optional.empty()); continue; }
            if (constructors.containsKey(va.text()) || literal(va) != null) {
                throw new DiagnosticException(NormanCode.NESTED_PATTERN.at(v.origin(), "patterns are flat: `" + va.text()
                        + "` is not a variable; bind a name and match it with another case"));
            }
            String name = binder(va);
            if (!seen.add(name)) {
                throw new DiagnosticException(NormanCode.REPEATED_PATTERN_VAR.at(v.origin(), "variable `" + name + "` repeats within one pattern"));
            }
            vars.add(Optional.of(name));
        }
        if (head.equals("cons")) {
            if (l.size() != 3) throw arityError(l, "(cons head tail)");
            return new Ast.PCons(vars.get(0), vars.get(1), at);
        }
        Integer fields = constructors.get(head);
        if (fields == null) throw badPattern(p);
        if (fields != vars.size()) {
            throw new DiagnosticException(NormanCode.ARITY.at(at, "constructor `" + head + "` has " + fields + " field(s), the pattern gives "
                    + vars.size(), String.valueOf(fields), String.valueOf(vars.size())));
        }
        return new Ast.PCon(head, vars, at);
    }

    /** What a pattern may be, said after why this one is not. */
    private static final String PATTERNS = "a pattern is Con, (Con x _), '(), (cons h t) or _";

    /** {@code p} is not a pattern: the message says why — a literal, an unknown name or constructor, a quoted datum. */
    private DiagnosticException badPattern(Sx p) {
        return new DiagnosticException(NormanCode.BAD_PATTERN.at(p.origin(), "not a pattern: " + whyNotAPattern(p) + "; " + PATTERNS));
    }

    private String whyNotAPattern(Sx p) {
        if (p instanceof Sx.Str s) return "the text literal \"" + s.value() + "\" cannot be matched (compare with = in an if)";
        if (p instanceof Sx.Quote q) {
            return q.datum() instanceof Sx.Atom ? "a quoted symbol cannot be matched (compare with = in an if)"
                    : "of quoted lists only the empty list '() is a pattern";
        }
        if (p instanceof Sx.Atom a) {
            if (literal(a) != null) return "the literal " + a.text() + " cannot be matched (compare with = in an if)";
            return Character.isUpperCase(a.text().codePointAt(0)) ? "`" + a.text() + "` is not a constructor of any datatype"
                    : "`" + a.text() + "` is a name, not a constructor: a case branch cannot bind the whole value (use _ and the scrutinee)";
        }
        Sx.SList l = (Sx.SList) p;
        if (l.head() == null) return l.size() == 0 ? "() is not the empty list (write '())" : "a pattern's head must be a constructor name";
        return "`" + l.head() + "` is not a constructor of any datatype";
    }

    // ---- types --------------------------------------------------------------------------------------------------

    TypeExpr type(Sx t) {
        Origin at = t.origin();
        if (t instanceof Sx.Atom a) {
            switch (a.text()) {
                case "Text": return new Ast.TText(Optional.empty(), at);
                case "Num": return new Ast.TPrim(TypeExpr.Kind.NUM, at);
                case "Bool": return new Ast.TPrim(TypeExpr.Kind.BOOL, at);
                case "Sym": return new Ast.TPrim(TypeExpr.Kind.SYM, at);
                case "Any": return new Ast.TAny(at);
                case "List": throw arityError(new Sx.SList(List.of(t), false, at), "(List ty)");
                default:
                    if (!typeNames.contains(a.text())) {
                        throw new DiagnosticException(NormanCode.UNKNOWN_TYPE.at(at, "unknown type `" + a.text() + "`"));
                    }
                    return new Ast.TNamed(a.text(), at);
            }
        }
        if (t instanceof Sx.SList l && "Text".equals(l.head())) {
            arity(l, 2, "(Text n)");
            return new Ast.TText(Optional.of(bound(l.get(1))), at);
        }
        if (t instanceof Sx.SList l && "List".equals(l.head())) {
            if (l.size() != 2 && l.size() != 3) throw arityError(l, "(List ty) or (List ty n)");
            return new Ast.TList(type(l.get(1)), l.size() == 3 ? Optional.of(bound(l.get(2))) : Optional.empty(), at);
        }
        throw bad(t, "a type: Text, (Text n), Num, Bool, Sym, (List ty), a datatype or record name, or Any");
    }

    private static long bound(Sx n) {
        if (n instanceof Sx.Atom a && a.text().matches("[0-9]+")) {
            String digits = a.text().replaceFirst("^0+(?=.)", "");
            if (digits.length() > 19 || new BigDecimal(digits).compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new DiagnosticException(NormanCode.BAD_LITERAL.at(n.origin(), "a bound is at most " + Long.MAX_VALUE));
            }
            return Long.parseLong(digits);
        }
        throw new DiagnosticException(NormanCode.BAD_LITERAL.at(n.origin(), "a bound is a whole number of bytes or elements"));
    }

    // ---- small helpers ------------------------------------------------------------------------------------------

    private List<Exp> exps(Sx.SList l, int from) {
        List<Exp> out = new ArrayList<>();
        for (int i = from; i < l.size(); i++) out.add(exp(l.get(i)));
        return out;
    }

    private List<Binding> bindings(Sx d, String form) {
        if (!(d instanceof Sx.SList l)) throw bad(d, "bindings ([x e]…)");
        List<Binding> out = new ArrayList<>();
        for (Sx b : l.items()) {
            if (!(b instanceof Sx.SList bl)) throw bad(b, "a binding [x e]");
            arity(bl, 2, "[x e]");
            out.add(new Binding(binder(bl.get(0)), exp(bl.get(1)), b.origin()));
        }
        return out;
    }

    /** Check 1 for formals: distinct names that are not reserved. */
    private List<String> formals(Sx d) {
        if (!(d instanceof Sx.SList l)) throw bad(d, "formals (x …)");
        List<String> names = new ArrayList<>();
        List<Origin> origins = new ArrayList<>();
        for (Sx f : l.items()) {
            names.add(binder(f));
            origins.add(f.origin());
        }
        distinct(names, origins, "formal");
        return names;
    }

    private void distinct(List<String> names, List<Origin> origins, String what) {
        Map<String, Origin> seen = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Origin first = seen.putIfAbsent(names.get(i), origins.get(i));
            if (first != null) {
                throw new DiagnosticException(NormanCode.DUPLICATE_NAME.at(origins.get(i), what + " `" + names.get(i) + "` repeats (first at "
                        + first.line() + ":" + first.column() + ")"));
            }
        }
    }

    /** A name that is being bound: an atom that is neither reserved, a literal, nor a constructor. */
    private String binder(Sx d) {
        String s = atom(d, "a name");
        if (RESERVED.contains(s)) {
            throw new DiagnosticException(NormanCode.RESERVED_WORD.at(d.origin(), "`" + s + "` is a reserved word and cannot be bound"));
        }
        if (literal((Sx.Atom) d) != null) throw bad(d, "a name, not a literal");
        if (constructors.containsKey(s)) throw bad(d, "a name; `" + s + "` is a constructor");
        return s;
    }

    private static String name(Sx.Atom a) { return a.text(); }

    private static String atom(Sx d, String expected) {
        if (d instanceof Sx.Atom a) return a.text();
        throw bad(d, expected);
    }

    private static void arity(Sx.SList l, int n, String form) { if (l.size() != n) throw arityError(l, form); }

    private static void atLeast(Sx.SList l, int n, String form) { if (l.size() < n) throw arityError(l, form); }

    private static DiagnosticException arityError(Sx.SList l, String form) {
        String head = l.head() == null ? "this form" : "`" + l.head() + "`";
        return new DiagnosticException(NormanCode.ARITY.at(l.origin(), head + " is applied with " + (l.size() - 1) + " part(s); its form is "
                + form, form, String.valueOf(l.size() - 1)));
    }

    private static DiagnosticException bad(Sx d, String expected) {
        return new DiagnosticException(NormanCode.BAD_FORM.at(d.origin(), "expected " + expected, expected, describe(d)));
    }

    private static String describe(Sx d) {
        switch (d.kind()) {
            case ATOM: return ((Sx.Atom) d).text();
            case STRING: return "a string";
            case QUOTE: return "a quotation";
            default: return "a list";
        }
    }
}
