package dev.finch.lisp.lower;

import dev.finch.frontend.graph.Components;
import dev.finch.frontend.types.Scheme;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.limit.LimitCode;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.syntax.Sx;
import dev.finch.lisp.types.Eff;
import dev.finch.lisp.types.Infer;
import dev.finch.lisp.types.Ty;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Datums to typed expressions: resolves names, recognises the special forms of decisions D8 and infers types
 * (Hindley–Milner). Top-level definitions are inferred per strongly connected group in dependency order, so
 * mutual recursion works and each group is generalized before later code uses it (let-polymorphism at the top
 * level; local bindings are monomorphic because an IR local has one type).
 */
final class Analyzer {
    /** A top-level function definition. */
    static final class FnDef {
        final String name;
        final Origin origin;
        final List<Sx> params;
        final Sx returnAnnotation;
        final List<Sx> body;
        final Map<String, Ty> annotationVars = Body.vars();
        Ty.Fn mono;
        Scheme<Ty> scheme;
        final List<Local> paramLocals = new ArrayList<>();
        Node bodyNode;
        boolean inferring;
        /** The capabilities its signature declares ({@code : type ! {caps}}), or null when they are inferred. */
        java.util.SortedSet<dev.finch.ir.cap.Capability> declaredEffects;

        FnDef(String name, Origin origin, List<Sx> params, Sx returnAnnotation, List<Sx> body) {
            this.name = name;
            this.origin = origin;
            this.params = params;
            this.returnAnnotation = returnAnnotation;
            this.body = body;
        }
    }

    /** A top-level value definition: a dictionary constant. */
    static final class ConstDef {
        final String name;
        final Origin origin;
        final Sx annotation;
        final Sx value;
        Ty type;
        Node valueNode;

        ConstDef(String name, Origin origin, Sx annotation, Sx value) {
            this.name = name;
            this.origin = origin;
            this.annotation = annotation;
            this.value = value;
        }
    }

    /** A top-level expression. */
    static final class TopExpr {
        final Sx sx;
        Node node;

        TopExpr(Sx sx) { this.sx = sx; }
    }

    /**
     * Co-Forth's control words: a local never gets one of these IR names, so that the canonical Co-Forth of a
     * Lisp program ({@code finch check --emit forth}) reads back as the same program.
     */
    private static final Set<String> CO_FORTH_KEYWORDS = Set.of("if", "if-some", "if-ok", "else", "then", "begin", "while", "repeat",
            "until", "case", "of", "endof", "otherwise", "endcase", "constant", "true", "false", "unit", "?", ":", ";", ":>");

    private final String sourceId;
    final Environment env;
    final Infer inf;
    final List<Diagnostic> diagnostics = new ArrayList<>();
    final Map<String, FnDef> functions = new LinkedHashMap<>();
    final Map<String, ConstDef> constants = new LinkedHashMap<>();
    /** Top-level items in program order: FnDef, ConstDef or TopExpr. */
    final List<Object> program = new ArrayList<>();
    final Body main;
    /** This program's own top-level names, taken when the analysis starts; see {@link #reserved(String)}. */
    private final Set<String> ownNames = new HashSet<>();
    private ArrayDeque<Pending> pending = new ArrayDeque<>();

    /** The codes of the compile limits: a form that hits one ends the analysis (the rest would only hit it again). */
    private static final Set<String> LIMIT_CODES = limitCodes();

    // A loop, not a stream: this class initializes on a fresh JVM's first Lisp submission.
    private static Set<String> limitCodes() {
        Set<String> codes = new java.util.HashSet<>();
        for (LimitCode c : LimitCode.values()) codes.add(c.code());
        return Set.copyOf(codes);
    }

    /**
     * The session's named types and those this submission defines (define-type), all visible to every annotation;
     * copied from the session's when first needed ({@link #namedTypes()}: most programs write no type).
     */
    private Map<String, dev.finch.ir.type.Type> namedTypes;

    Analyzer(String sourceId, Environment env) {
        this.sourceId = sourceId;
        this.env = env;
        this.inf = new Infer(env.budget(), Origin.of(sourceId, 1, 1));
        this.main = new Body(null, inf.eff(), null, false, new IrNames(), Body.vars());
    }

    /**
     * Records the diagnostics of a form that failed and goes on with the next — unless one is a compile limit, which
     * ends the analysis with the diagnostics so far and the limit's, or enough have been found to fill a report.
     */
    private void failed(DiagnosticException e) {
        boolean limit = e.diagnostics().stream().anyMatch(d -> LIMIT_CODES.contains(d.code()));
        if (limit) {
            List<Diagnostic> out = new ArrayList<>(diagnostics.subList(0, Math.min(diagnostics.size(), Lowerer.MAX_DIAGNOSTICS - 1)));
            out.addAll(e.diagnostics());
            throw new DiagnosticException(out);
        }
        diagnostics.addAll(e.diagnostics());
        // Only the first diagnostics are reported; analysing the rest of a broken program would be work for nothing.
        if (diagnostics.size() >= Lowerer.MAX_DIAGNOSTICS) throw new DiagnosticException(List.copyOf(diagnostics.subList(0, Lowerer.MAX_DIAGNOSTICS)));
    }

    // ---------------------------------------------------------------- top level

    void analyze(List<Sx> forms) {
        List<Sx> flat = new ArrayList<>();
        flatten(forms, flat);
        for (Sx f : flat) {
            try {
                classify(f);
            } catch (DiagnosticException e) {
                failed(e);
            }
        }
        ownNames.addAll(functions.keySet());
        ownNames.addAll(constants.keySet());
        for (List<Object> group : groups()) {
            try {
                inferGroup(group);
            } catch (DiagnosticException e) {
                failed(e);
                pending.clear();
                for (Object o : group) if (o instanceof FnDef fn && fn.scheme == null) fn.scheme = Scheme.mono(monoOrFresh(fn));
            }
        }
        for (Object o : program) {
            if (!(o instanceof TopExpr t)) continue;
            try {
                t.node = expr(t.sx, new Scope(null), main);
                resolvePending(true);
            } catch (DiagnosticException e) {
                failed(e);
                pending.clear();
            }
        }
        try {
            inf.solveEffects();
        } catch (Infer.Clash c) {
            diagnostics.add(LispCode.TYPE_MISMATCH.at(Origin.of(sourceId, 1, 1), "code that yields values of two different types: " + c.getMessage()));
        }
    }

    private static void flatten(List<Sx> forms, List<Sx> out) {
        for (Sx f : forms) {
            if ("begin".equals(Sx.head(f))) {
                List<Sx> it = ((Sx.SList) f).items();
                flatten(it.subList(1, it.size()), out);
            } else out.add(f);
        }
    }

    private void classify(Sx f) {
        if ("define-type".equals(Sx.head(f))) {
            defineType((Sx.SList) f);
            return;
        }
        if (!"define".equals(Sx.head(f))) {
            program.add(new TopExpr(f));
            return;
        }
        List<Sx> it = ((Sx.SList) f).items();
        if (it.size() < 3) throw malformed(f, "(define name value) or (define (name params…) body…)");
        Sx target = it.get(1);
        String name;
        Object def;
        if (target instanceof Sx.SList sig) {
            if (sig.items().isEmpty() || !(sig.items().get(0) instanceof Sx.SSymbol n)) throw malformed(f, "(define (name params…) body…)");
            name = n.name();
            int bodyAt = 2;
            Sx ret = null;
            java.util.SortedSet<dev.finch.ir.cap.Capability> effects = null;
            if (it.get(2).kind() == Sx.Kind.COLON) {
                if (it.size() < 5) throw malformed(f, "(define (name params…) : type body…)");
                ret = it.get(3);
                bodyAt = 4;
                // (define (f params…) : type ! {caps} body…): the capabilities the signature declares, as Co-Forth's.
                String caps = effectsText(it, bodyAt);
                if (caps != null) {
                    int skip = ((Sx.SSymbol) it.get(bodyAt)).name().equals("!") ? 2 : 1;
                    if (it.size() <= bodyAt + skip) throw malformed(f, "(define (name params…) : type ! {capabilities} body…)");
                    effects = effects(caps, it.get(bodyAt).origin());
                    bodyAt += skip;
                }
            }
            def = new FnDef(name, f.origin(), sig.items().subList(1, sig.items().size()), ret, it.subList(bodyAt, it.size()));
            ((FnDef) def).declaredEffects = effects;
        } else {
            Sx annotation = null;
            Sx value;
            if (target instanceof Sx.SSymbol n) {
                name = n.name();
                if (it.size() == 5 && it.get(2).kind() == Sx.Kind.COLON) {
                    annotation = it.get(3);
                    value = it.get(4);
                } else if (it.size() == 3) value = it.get(2);
                else throw malformed(f, "(define name value)");
            } else if (target instanceof Sx.SBracket br && it.size() == 3) {
                name = bracketName(br);
                annotation = br;
                value = it.get(2);
            } else throw malformed(f, "(define name value)");
            if ("lambda".equals(Sx.head(value)) && annotation == null) {
                List<Sx> lam = ((Sx.SList) value).items();
                if (lam.size() < 3 || !(lam.get(1) instanceof Sx.SList ps)) throw malformed(value, "(lambda (params…) body…)");
                def = new FnDef(name, f.origin(), ps.items(), null, lam.subList(2, lam.size()));
            } else def = new ConstDef(name, f.origin(), annotation, value);
        }
        if (!coForthSpellable(name)) {
            throw malformedMsg(target, "'" + name + "' cannot name a definition: definitions share one dictionary with Co-Forth, where this "
                    + "name reads as a keyword, a number or a field label; choose another name");
        }
        if (functions.containsKey(name) || constants.containsKey(name)) {
            throw new DiagnosticException(LispCode.DUPLICATE_DEFINITION.at(f.origin(), "'" + name + "' is defined twice in this submission"));
        }
        if (def instanceof FnDef fn) functions.put(name, fn);
        else constants.put(name, (ConstDef) def);
        program.add(def);
    }

    /**
     * The source text of a signature's {@code ! {caps}} at {@code at} — the symbol {@code !} followed by braces, or the
     * one symbol {@code !{…}} — or null when there is none.
     */
    private static String effectsText(List<Sx> it, int at) {
        if (at >= it.size() || !(it.get(at) instanceof Sx.SSymbol bang)) return null;
        if (bang.name().equals("!") && at + 1 < it.size() && it.get(at + 1) instanceof Sx.SBraces b && b.text() != null) return b.text();
        if (bang.name().startsWith("!{") && bang.name().endsWith("}")) return bang.name().substring(1);
        return null;
    }

    /** The capabilities of a {@code {caps}} text, read by the one type parser (as a signature's effects). */
    private java.util.SortedSet<dev.finch.ir.cap.Capability> effects(String braces, Origin o) {
        try {
            return TypeSyntax.parseSignature("-> ! " + braces, TypeSyntax.MAX_NESTING, Long.MAX_VALUE).effects();
        } catch (TypeSyntax.TypeSyntaxException e) {
            throw new DiagnosticException(LispCode.BAD_ANNOTATION.at(o, "malformed capabilities '" + Sx.quote(braces) + "': " + e.getMessage()));
        }
    }

    /**
     * {@code (define-type name T)}: names the structure T for this submission's annotations and the session's (see
     * {@link dev.finch.ir.type.TypeNames}); it becomes the constant that carries it, {@code nm.type.name}, bound to
     * {@code (empty-list T)} with T spelled as its structure.
     */
    private void defineType(Sx.SList f) {
        List<Sx> it = f.items();
        if (it.size() != 3 || !(it.get(1) instanceof Sx.SSymbol n)) throw malformed(f, "(define-type name T)");
        String text = typeText(it.get(2));
        env.budget().nesting(Phase.LOWER, bracketDepth(text), it.get(2).origin());
        dev.finch.ir.type.TypeNames.Result r;
        try {
            r = dev.finch.ir.type.TypeNames.define(n.name(), text.strip(), namedTypes(), env.opaqueTypes(), TypeSyntax.MAX_NESTING, Long.MAX_VALUE);
        } catch (TypeSyntax.TypeSyntaxException e) {
            throw new DiagnosticException(LispCode.BAD_ANNOTATION.at(it.get(2).origin(), "malformed type '" + Sx.quote(text) + "': " + e.getMessage()));
        }
        if (r.refused().isPresent()) {
            throw new DiagnosticException(dev.finch.ir.type.TypeNameCode.of(r.refusal().problem()).at(n.origin(), r.refusal().message()));
        }
        String constant = dev.finch.ir.type.TypeNames.constantName(n.name());
        if (constants.containsKey(constant)) return; // defined before in this submission, as the same structure (define checked it)
        namedTypes().put(n.name(), r.structure());
        Sx value = new Sx.SList(List.of(new Sx.SSymbol("empty-list", f.origin()), new Sx.SSymbol(r.structure().toString(), it.get(2).origin())), f.origin());
        ConstDef def = new ConstDef(constant, f.origin(), null, value);
        constants.put(constant, def);
        program.add(def);
    }

    /**
     * Strongly connected groups of definitions, dependencies first (the frontend kit's {@link Components}). A group
     * lists its definitions last-reached first, the order Lisp has always typed them in.
     */
    private Map<String, dev.finch.ir.type.Type> namedTypes() {
        if (namedTypes == null) namedTypes = new HashMap<>(env.namedTypes());
        return namedTypes;
    }

    private List<List<Object>> groups() {
        List<Object> defs = new ArrayList<>();
        for (Object o : program) if (!(o instanceof TopExpr)) defs.add(o);
        List<List<Object>> out = new ArrayList<>();
        if (defs.isEmpty()) return out; // a program of expressions only: nothing to order
        for (List<Object> group : Components.of(defs, this::uses)) {
            List<Object> reversed = new ArrayList<>(group);
            java.util.Collections.reverse(reversed);
            out.add(reversed);
        }
        return out;
    }

    /** The definitions of this program a definition names. */
    private List<Object> uses(Object d) {
        Set<String> names = new HashSet<>();
        if (d instanceof FnDef fn) {
            for (Sx s : fn.body) symbols(s, names);
        } else symbols(((ConstDef) d).value, names);
        List<Object> ds = new ArrayList<>();
        for (String n : names) {
            if (functions.containsKey(n)) ds.add(functions.get(n));
            else if (constants.containsKey(n)) ds.add(constants.get(n));
        }
        return ds;
    }

    private static void symbols(Sx s, Set<String> out) {
        switch (s.kind()) {
            case SYMBOL: out.add(((Sx.SSymbol) s).name()); break;
            case LIST: for (Sx x : ((Sx.SList) s).items()) symbols(x, out); break;
            case BRACKET: for (Sx x : ((Sx.SBracket) s).items()) symbols(x, out); break;
            case BRACES: for (Sx x : ((Sx.SBraces) s).items()) symbols(x, out); break;
            default:
        }
    }

    private void inferGroup(List<Object> group) {
        boolean hasFn = group.stream().anyMatch(o -> o instanceof FnDef);
        if (hasFn) inf.enter();
        for (Object o : group) {
            if (o instanceof FnDef fn) {
                List<Ty> ins = new ArrayList<>();
                Body body = new Body(null, inf.eff(), null, false, new IrNames(), fn.annotationVars);
                for (Sx p : fn.params) {
                    Local l = declare(p, body);
                    fn.paramLocals.add(l);
                    ins.add(l.type);
                }
                Ty ret = fn.returnAnnotation == null ? inf.fresh() : annotation(typeText(fn.returnAnnotation), fn.returnAnnotation.origin(), fn.annotationVars);
                fn.mono = new Ty.Fn(ins, List.of(ret), body.eff);
                fn.inferring = true;
            } else {
                ConstDef c = (ConstDef) o;
                c.type = c.annotation == null ? inf.fresh() : annotation(typeText(c.annotation), c.annotation.origin(), main.annotationVars);
            }
        }
        for (Object o : group) {
            if (o instanceof FnDef fn) {
                Ty ret = fn.mono.outs().get(0);
                Body body = new Body(null, fn.mono.eff(), fn.returnAnnotation == null ? null : ret, false, new IrNames(), fn.annotationVars);
                Scope scope = new Scope(null);
                rebindOwners(fn, body);
                for (Local l : fn.paramLocals) {
                    body.irNames.add(l.ir);
                    scope.put(l);
                }
                fn.bodyNode = body(fn.body, scope, body, fn.origin);
                unifyAt(fn.body.isEmpty() ? fn.origin : fn.body.get(fn.body.size() - 1).origin(), ret, fn.bodyNode.type,
                        "the body of '" + fn.name + "' does not match its return type");
            } else {
                ConstDef c = (ConstDef) o;
                c.valueNode = expr(c.value, new Scope(null), main);
                unifyAt(c.value.origin(), c.type, c.valueNode.type, () -> "the value of '" + c.name + "' does not match its declared type");
            }
        }
        resolvePending(true);
        if (hasFn) inf.leave();
        for (Object o : group) {
            if (o instanceof FnDef fn) {
                fn.inferring = false;
                fn.scheme = inf.generalize(fn.mono);
            }
        }
    }

    /**
     * The function's type as far as its failed group got, or, when it failed before its signature was formed (a
     * malformed annotation), a fresh one of its arity, so later uses are checked against something rather than nothing.
     */
    private Ty.Fn monoOrFresh(FnDef fn) {
        if (fn.mono != null) return fn.mono;
        List<Ty> ins = new ArrayList<>();
        for (int i = 0; i < fn.params.size(); i++) ins.add(inf.fresh());
        fn.mono = new Ty.Fn(ins, List.of(inf.fresh()), inf.eff());
        return fn.mono;
    }

    /** Parameters were declared before their body existed; give them the body as owner (for set! checks). */
    private void rebindOwners(FnDef fn, Body body) {
        for (int i = 0; i < fn.paramLocals.size(); i++) {
            Local l = fn.paramLocals.get(i);
            fn.paramLocals.set(i, new Local(l.name, l.ir, l.type, body));
        }
    }

    // ---------------------------------------------------------------- expressions

    Node expr(Sx sx, Scope sc, Body b) {
        inf.at(sx.origin());
        switch (sx.kind()) {
            case INT: return lit(new Literal.IntLit(((Sx.SInt) sx).value()), sx.origin(), Infer.INT);
            case FLOAT: return lit(new Literal.FloatLit(((Sx.SFloat) sx).value()), sx.origin(), Infer.FLOAT);
            case STRING: return lit(new Literal.StringLit(((Sx.SString) sx).value()), sx.origin(), Infer.STRING);
            case SYMBOL: return symbol((Sx.SSymbol) sx, sc, b);
            case QUOTE: return quoted(((Sx.SQuote) sx).datum(), sx.origin());
            case BRACES: return record((Sx.SBraces) sx, sc, b);
            case LIST: return list((Sx.SList) sx, sc, b);
            case KEYWORD:
                throw malformedMsg(sx, "a keyword like " + abbreviate(sx) + " names a record field or variant tag; it is not a value (use '"
                        + abbreviate(new Sx.SSymbol(((Sx.SKeyword) sx).name(), sx.origin())) + " for a symbol)");
            default:
                throw malformedMsg(sx, "'" + abbreviate(sx) + "' is not an expression here");
        }
    }

    private Node lit(Literal l, Origin o, Ty t) {
        Node n = new Node(Node.Kind.LIT, o, t);
        n.lit = l;
        return n;
    }

    private Node unit(Origin o) { return new Node(Node.Kind.UNIT, o, Infer.UNIT); }

    /**
     * Quoted data: {@code 'name} is a symbol; {@code '(1 2 3)} is a typed list of quoted data (ints, floats, strings,
     * #t/#f, symbols, nested lists), so it lowers exactly like {@code (list 1 2 3)}.
     */
    Node quoted(Sx d, Origin o) {
        switch (d.kind()) {
            case SYMBOL: {
                String name = ((Sx.SSymbol) d).name();
                // Scheme: 'true is the symbol true; the booleans #t and #f stay booleans inside quoted data.
                if (name.equals("#t")) return lit(new Literal.BoolLit(true), d.origin(), Infer.BOOL);
                if (name.equals("#f")) return lit(new Literal.BoolLit(false), d.origin(), Infer.BOOL);
                return lit(new Literal.SymbolLit(name), o, Infer.SYMBOL);
            }
            case INT: return lit(new Literal.IntLit(((Sx.SInt) d).value()), d.origin(), Infer.INT);
            case FLOAT: return lit(new Literal.FloatLit(((Sx.SFloat) d).value()), d.origin(), Infer.FLOAT);
            case STRING: return lit(new Literal.StringLit(((Sx.SString) d).value()), d.origin(), Infer.STRING);
            case LIST: {
                List<Sx> items = ((Sx.SList) d).items();
                if (items.isEmpty()) {
                    throw new DiagnosticException(LispCode.EMPTY_LITERAL.at(o, "'() has no element to type it; write (empty-list T)", "(empty-list T)", "'()"));
                }
                Ty el = inf.fresh();
                Node n = new Node(Node.Kind.LIST, o, Infer.con("list", el));
                for (Sx x : items) {
                    Node v = quoted(x, x.origin());
                    unifyAt(v.origin, el, v.type, "the elements of a quoted list must have one type");
                    n.kids.add(v);
                }
                return n;
            }
            default:
                throw new DiagnosticException(LispCode.UNSUPPORTED.at(d.origin(), "only symbols, numbers, strings, bools and lists of them can be quoted; "
                        + "build other data with (list …), (map …) or { :k v }"));
        }
    }

    private Node symbol(Sx.SSymbol s, Scope sc, Body b) {
        String name = s.name();
        Origin o = s.origin();
        Local l = sc.lookup(name);
        if (l != null && l.loop != null) {
            throw new DiagnosticException(LispCode.UNSUPPORTED.at(o, "'" + name + "' names a named let; it can only be called, in tail position: ("
                    + name + " args…)"));
        }
        if (l != null) {
            Node n = new Node(Node.Kind.LOCAL, o, l.type);
            n.local = l;
            return n;
        }
        switch (name) {
            case "true": case "#t": return lit(new Literal.BoolLit(true), o, Infer.BOOL);
            case "false": case "#f": return lit(new Literal.BoolLit(false), o, Infer.BOOL);
            default:
        }
        FnDef fn = functions.get(name);
        if (fn != null) return quoteWord(name, o, fnType(fn, b));
        if (env.word(name).isPresent()) {
            Ty.Fn t = (Ty.Fn) inf.fromType(env.word(name).get(), new HashMap<>());
            return quoteWord(name, o, t);
        }
        Node c = constant(name, o);
        if (c != null) return c;
        WordSpec spec = env.vocabulary().word(name).orElse(null);
        if (spec != null && !spec.special() && spec.overloads().size() == 1) {
            Type.Fn sig = spec.overloads().get(0).signature();
            if (sig.ins().isEmpty()) return callWord(name, o, (Ty.Fn) inf.fromType(sig, new HashMap<>()), List.of(), b);
            return quoteWord(name, o, (Ty.Fn) inf.fromType(sig, new HashMap<>()));
        }
        if (spec != null) {
            throw new DiagnosticException(LispCode.NOT_CALLABLE.at(o, "'" + name + "' is overloaded or special and cannot be passed as a value; wrap it: (lambda (x y) (" + name + " x y))"));
        }
        throw unknown(name, o, sc);
    }

    private Node constant(String name, Origin o) {
        ConstDef cd = constants.get(name);
        Ty t = null;
        if (cd != null) t = cd.type;
        else if (env.constant(name).isPresent()) t = inf.fromType(env.constant(name).get(), new HashMap<>());
        if (t == null) return null;
        Node n = new Node(Node.Kind.CONST, o, t);
        n.name = name;
        return n;
    }

    private Node quoteWord(String name, Origin o, Ty.Fn t) {
        Node n = new Node(Node.Kind.QUOTE_WORD, o, t);
        n.name = name;
        return n;
    }

    private Ty.Fn fnType(FnDef fn, Body b) {
        if (fn.scheme != null) return (Ty.Fn) inf.instantiate(fn.scheme);
        if (fn.mono != null) return fn.mono;
        throw new DiagnosticException(LispCode.INTERNAL.at(fn.origin, "function '" + fn.name + "' used before its group was inferred"));
    }

    private Node list(Sx.SList l, Scope sc, Body b) {
        List<Sx> it = l.items();
        if (it.isEmpty()) throw malformedMsg(l, "() is not an expression; for an empty list write (empty-list T)");
        Sx head = it.get(0);
        List<Sx> args = it.subList(1, it.size());
        if (!(head instanceof Sx.SSymbol hs)) {
            Node fn = expr(head, sc, b);
            return callValue(fn, analyzeAll(args, sc, b), l.origin(), b);
        }
        String name = hs.name();
        Local local = sc.lookup(name);
        if (local != null && local.loop != null) return Forms.loopCall(this, local, analyzeAll(args, sc, b), l.origin(), b);
        if (local != null) return callValue(symbol(hs, sc, b), analyzeAll(args, sc, b), l.origin(), b);
        Node form = Forms.form(this, name, l, sc, b);
        if (form != null) return form;
        FnDef fn = functions.get(name);
        if (fn != null) return callWord(name, l.origin(), fnType(fn, b), analyzeAll(args, sc, b), b);
        if (env.word(name).isPresent()) {
            Ty.Fn t = (Ty.Fn) inf.fromType(env.word(name).get(), new HashMap<>());
            return callWord(name, l.origin(), t, analyzeAll(args, sc, b), b);
        }
        Node c = constant(name, hs.origin());
        if (c != null) return callValue(c, analyzeAll(args, sc, b), l.origin(), b);
        WordSpec spec = env.vocabulary().word(name).orElse(null);
        if (spec != null) return Forms.vocabulary(this, spec, l, analyzeAll(args, sc, b), b);
        throw unknown(name, hs.origin(), sc);
    }

    /**
     * Whether {@code name} in head position (no local of that name) is the vocabulary's word, as {@link #list} resolves
     * it: no function or constant of this program nor word or constant of the session has the name.
     */
    boolean vocabularyWord(String name) {
        return !functions.containsKey(name) && !constants.containsKey(name) && env.word(name).isEmpty() && env.constant(name).isEmpty()
                && !Forms.NAMES.contains(name) && env.vocabulary().word(name).isPresent();
    }

    List<Node> analyzeAll(List<Sx> xs, Scope sc, Body b) {
        List<Node> out = new ArrayList<>();
        for (Sx x : xs) out.add(expr(x, sc, b));
        return out;
    }

    /** A call of a word (module function, session word or vocabulary overload) with analyzed arguments. */
    Node callWord(String name, Origin o, Ty.Fn t, List<Node> args, Body b) {
        Node n = callPure(name, o, t.ins(), t.outs(), args);
        Infer.flows(t.eff(), b.eff);
        return n;
    }

    /**
     * A call of a word with inputs {@code ins} and outputs {@code outs} that adds nothing to the body's effects (a
     * pure one; {@link #callWord} adds the callee's).
     */
    Node callPure(String name, Origin o, List<Ty> ins, List<Ty> outs, List<Node> args) {
        if (ins.size() != args.size()) {
            throw new DiagnosticException(LispCode.ARITY.at(o, "'" + name + "' takes " + ins.size() + " argument(s), given " + args.size(),
                    Integer.toString(ins.size()), Integer.toString(args.size())));
        }
        if (outs.size() > 1) {
            throw new DiagnosticException(LispCode.NOT_CALLABLE.at(o, "'" + name + "' leaves " + outs.size() + " values; a Lisp call must produce one value or none"));
        }
        for (int i = 0; i < args.size(); i++) {
            unifyArgument(args.get(i).origin, ins.get(i), args.get(i).type, i, name);
        }
        Node n = new Node(Node.Kind.CALL, o, outs.isEmpty() ? Infer.UNIT : outs.get(0));
        n.name = name;
        n.kids.addAll(args);
        n.outs = outs.size();
        return n;
    }

    /** A call of a function value: arguments, then the closure, then {@code execute}. */
    Node callValue(Node fn, List<Node> args, Origin o, Body b) {
        Ty ft = fn.type.prune();
        Ty.Fn f;
        if (ft instanceof Ty.Fn known) {
            f = known;
            if (f.ins().size() != args.size()) {
                throw new DiagnosticException(LispCode.ARITY.at(o, "this function takes " + f.ins().size() + " argument(s), given " + args.size(),
                        Infer.show(f), Integer.toString(args.size()) + " argument(s)"));
            }
        } else if (ft instanceof Ty.Var) {
            List<Ty> ins = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) ins.add(inf.fresh());
            f = new Ty.Fn(ins, List.of(inf.fresh()), inf.eff());
            unifyAt(fn.origin, f, fn.type, "called value");
        } else {
            throw new DiagnosticException(LispCode.NOT_A_FUNCTION.at(fn.origin, "a value of type " + Infer.show(ft) + " is called as a function",
                    "a function", Infer.show(ft)));
        }
        if (f.outs().size() > 1) throw new DiagnosticException(LispCode.NOT_CALLABLE.at(o, "this function leaves several values"));
        for (int i = 0; i < args.size(); i++) unifyAt(args.get(i).origin, f.ins().get(i), args.get(i).type, "argument " + (i + 1));
        Infer.flows(f.eff(), b.eff);
        Node n = new Node(Node.Kind.CALL_VALUE, o, f.outs().isEmpty() ? Infer.UNIT : f.outs().get(0));
        n.kids.add(fn);
        n.kids.addAll(args);
        n.outs = f.outs().size();
        return n;
    }

    private Node record(Sx.SBraces br, Scope sc, Body b) {
        List<Sx> it = br.items();
        if (it.size() % 2 != 0) throw malformedMsg(br, "a record literal is { :field value … } with a value for every field");
        Map<String, Ty> fields = new TreeMap<>();
        Node n = new Node(Node.Kind.RECORD, br.origin(), null);
        for (int i = 0; i < it.size(); i += 2) {
            if (!(it.get(i) instanceof Sx.SKeyword k)) throw malformedMsg(it.get(i), "a record field is written :name");
            if (fields.containsKey(k.name())) throw malformedMsg(it.get(i), "field :" + k.name() + " appears twice");
            Node v = expr(it.get(i + 1), sc, b);
            fields.put(k.name(), v.type);
            n.fields.add(k.name());
            n.kids.add(v);
        }
        n.type = new Ty.Rec(fields);
        return n;
    }

    /** A body: forms in sequence, where leading or interleaved {@code define}s bind locals for what follows. */
    Node body(List<Sx> forms, Scope outer, Body b, Origin o) {
        Scope sc = new Scope(outer);
        Node seq = new Node(Node.Kind.SEQ, o, Infer.UNIT);
        Node last = null;
        for (Sx f : forms) {
            if ("define".equals(Sx.head(f))) {
                seq.kids.add(innerDefine((Sx.SList) f, sc, b));
                last = null;
            } else {
                last = expr(f, sc, b);
                seq.kids.add(last);
            }
        }
        seq.type = last == null ? Infer.UNIT : last.type;
        return seq;
    }

    private Node innerDefine(Sx.SList f, Scope sc, Body b) {
        List<Sx> it = f.items();
        if (it.size() < 3) throw malformed(f, "(define name value)");
        Node value;
        Local l;
        if (it.get(1) instanceof Sx.SList sig && !sig.items().isEmpty() && sig.items().get(0) instanceof Sx.SSymbol n) {
            int bodyAt = 2;
            Sx ret = null;
            if (it.get(2).kind() == Sx.Kind.COLON && it.size() > 4) {
                ret = it.get(3);
                bodyAt = 4;
            }
            value = Forms.lambda(this, sig.items().subList(1, sig.items().size()), ret, it.subList(bodyAt, it.size()), f.origin(), sc, b);
            l = newLocal(n.name(), value.type, b);
        } else {
            if (it.size() != 3) throw malformed(f, "(define name value)");
            value = expr(it.get(2), sc, b);
            l = declare(it.get(1), b);
            unifyAt(it.get(2).origin(), l.type, value.type, () -> "the value of '" + l.name + "'");
        }
        sc.put(l);
        return bind(l, value, f.origin());
    }

    Node bind(Local l, Node value, Origin o) {
        Node n = new Node(Node.Kind.BIND, o, Infer.UNIT);
        n.local = l;
        n.kids.add(value);
        return n;
    }

    // ---------------------------------------------------------------- locals and annotations

    /** Declares a parameter or binding name: a symbol or {@code [name : T]}. */
    Local declare(Sx p, Body b) {
        if (p instanceof Sx.SSymbol s) return newLocal(s.name(), inf.fresh(), b);
        if (p instanceof Sx.SBracket br) {
            String name = bracketName(br);
            return newLocal(name, annotation(typeText(br), br.origin(), b.annotationVars), b);
        }
        throw malformedMsg(p, "a binding is a name or [name : type], found '" + abbreviate(p) + "'");
    }

    Local newLocal(String name, Ty t, Body b) {
        int cut = name.indexOf('%');
        String base = cut > 0 ? name.substring(0, cut) : name;
        if (!coForthSpellable(base)) base = "local";
        return new Local(name, b.irNames.fresh(base, reservedNames), t, b);
    }

    /**
     * Whether {@code name} reads back as one Co-Forth word (not a keyword, number, field label, parameterized word,
     * and free of the delimiters Co-Forth splits on), so the canonical Co-Forth of the program is the same program.
     */
    static boolean coForthSpellable(String name) {
        if (name.isEmpty() || CO_FORTH_KEYWORDS.contains(name) || name.startsWith("(") || name.startsWith("\\")) return false;
        for (int i = 0; i < name.length(); i++) if (" \t\r\n\f[]{},\"".indexOf(name.charAt(i)) >= 0) return false;
        return !(mayNotBeAWord(name) && NotAWord.PATTERN.matcher(name).matches());
    }

    /**
     * False when no alternative of {@link NotAWord#PATTERN} can match {@code name} (each needs a leading sign, digit or
     * quote, a trailing colon, a {@code <} or a leading {@code s"}): most names, which then skip the regex.
     */
    private static boolean mayNotBeAWord(String name) {
        char c = name.charAt(0);
        return c == '-' || c == '+' || c >= '0' && c <= '9' || c == '\'' || name.endsWith(":") || name.indexOf('<') >= 0
                || name.startsWith("s\"");
    }

    /**
     * Spellings Co-Forth reads as something other than a word: field labels, numbers, parameterized words, strings,
     * quotes. In a holder class, compiled when a name first needs it (most never do: {@link #mayNotBeAWord}).
     */
    private static final class NotAWord {
        static final java.util.regex.Pattern PATTERN = java.util.regex.Pattern.compile(
                "[a-zA-Z_][a-zA-Z0-9_-]*:|-?[0-9]+|-?0[xX][0-9a-fA-F]+|-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?|[+-]inf\\.0|\\+nan\\.0"
                + "|[a-z][a-z0-9-]*<.*>|constant<.*>|s\".*|'.*");
    }

    static String bracketName(Sx.SBracket br) {
        List<Sx> it = br.items();
        if (it.size() < 3 || !(it.get(0) instanceof Sx.SSymbol s) || it.get(1).kind() != Sx.Kind.COLON) {
            throw new DiagnosticException(LispCode.MALFORMED_FORM.at(br.origin(), "an annotation is [name : type], found " + abbreviate(br)));
        }
        return s.name();
    }

    /** The type spelling of an annotation datum: a bracket's text after the colon, or the datum itself. */
    static String typeText(Sx sx) {
        if (sx instanceof Sx.SBracket br) {
            if (br.typeText() != null) return br.typeText();
            StringBuilder t = new StringBuilder();
            List<Sx> it = br.items();
            for (int i = 2; i < it.size(); i++) t.append(i > 2 ? " " : "").append(it.get(i));
            return t.toString();
        }
        if (sx instanceof Sx.SList l && l.text() != null) return l.text();
        return sx.toString();
    }

    /**
     * The inference type of an annotation's spelling. The spelling's bracket nesting is measured first, without
     * recursion, because the type parser recurses once per level.
     */
    Ty annotation(String text, Origin o, Map<String, Ty> vars) {
        env.budget().nesting(Phase.LOWER, bracketDepth(text), o);
        try {
            return inf.fromType(TypeSyntax.parse(text, TypeSyntax.MAX_NESTING, Long.MAX_VALUE, dev.finch.ir.type.TypeNames.resolver(namedTypes())), vars);
        } catch (TypeSyntax.TypeSyntaxException e) {
            throw new DiagnosticException(LispCode.BAD_ANNOTATION.at(o, "malformed type '" + Sx.quote(text) + "': " + e.getMessage()));
        } catch (DiagnosticException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DiagnosticException(LispCode.BAD_ANNOTATION.at(o, "malformed type '" + Sx.quote(text) + "'"));
        }
    }

    /** How deeply {@code <…>}, {@code (…)}, {@code {…}} and {@code […]} nest in a type spelling. */
    static int bracketDepth(String text) {
        int depth = 0;
        int deepest = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '<' || c == '(' || c == '{' || c == '[') deepest = Math.max(deepest, ++depth);
            else if ((c == '>' && (i == 0 || text.charAt(i - 1) != '-')) || c == ')' || c == '}' || c == ']') depth = Math.max(0, depth - 1);
        }
        return deepest;
    }

    // ---------------------------------------------------------------- constraints and diagnostics

    // The common ones spell their message's subject only when the types clash, and take no function value for it:
    // a fresh JVM's first submission links no lambda (each costs about 0.7 ms there).

    void unifyAt(Origin o, Ty expected, Ty found, String what) {
        inf.at(o);
        try {
            inf.unify(expected, found);
        } catch (Infer.Clash c) {
            throw clash(o, expected, found, what, c);
        }
    }

    /** {@link #unifyAt(Origin, Ty, Ty, String)} with the message's subject spelled only when the types clash. */
    void unifyAt(Origin o, Ty expected, Ty found, java.util.function.Supplier<String> what) {
        inf.at(o);
        try {
            inf.unify(expected, found);
        } catch (Infer.Clash c) {
            throw clash(o, expected, found, what.get(), c);
        }
    }

    /** Unifies argument {@code i} (from 0) of a call of {@code name}. */
    void unifyArgument(Origin o, Ty expected, Ty found, int i, String name) {
        inf.at(o);
        try {
            inf.unify(expected, found);
        } catch (Infer.Clash c) {
            throw clash(o, expected, found, "argument " + (i + 1) + " of '" + name + "'", c);
        }
    }

    /** Unifies the result of a call of {@code name}. */
    void unifyResult(Origin o, Ty expected, Ty found, String name) {
        inf.at(o);
        try {
            inf.unify(expected, found);
        } catch (Infer.Clash c) {
            throw clash(o, expected, found, "the result of '" + name + "'", c);
        }
    }

    private static DiagnosticException clash(Origin o, Ty expected, Ty found, String what, Infer.Clash c) {
        return new DiagnosticException((c.infinite() ? LispCode.INFINITE_TYPE : LispCode.TYPE_MISMATCH)
                .at(o, what + ": " + c.getMessage(), Infer.show(expected), Infer.show(found)));
    }

    void defer(Pending p) {
        if (!p.attempt(false)) pending.add(p);
    }

    /**
     * Retries pending rules in rounds until a round resolves none; with force, then resolves the oldest by defaulting
     * and goes on. Every attempt is charged as work: a long chain of rules that each wait for the next is bounded by
     * the work limit, not by patience.
     */
    void resolvePending(boolean force) {
        while (true) {
            boolean progress = true;
            while (progress && !pending.isEmpty()) {
                progress = false;
                ArrayDeque<Pending> round = pending;
                pending = new ArrayDeque<>();
                for (Pending p : round) {
                    env.budget().charge(Phase.VERIFY, 1, Origin.of(sourceId, 1, 1));
                    if (p.attempt(false)) progress = true;
                    else pending.add(p);
                }
            }
            if (!force || pending.isEmpty()) return;
            pending.pollFirst().attempt(true);
        }
    }

    DiagnosticException malformed(Sx at, String shape) {
        return new DiagnosticException(LispCode.MALFORMED_FORM.at(at.origin(), "malformed form, expected " + shape + ", found " + abbreviate(at)));
    }

    /**
     * Whether an IR local may not be named {@code n}: a word of the vocabulary or the session, a session constant, a
     * Co-Forth keyword, or one of this program's top-level names. Asked of the immutable environment each time rather
     * than copied into a set, so that a program pays for the names it uses, not for the size of the vocabulary.
     */
    /** {@link #reserved(String)} as a predicate: a class, not a method reference (no lambda on a first submission). */
    private final java.util.function.Predicate<String> reservedNames = new Reserved();

    private final class Reserved implements java.util.function.Predicate<String> {
        @Override
        public boolean test(String n) { return reserved(n); }
    }

    private boolean reserved(String n) {
        return ownNames.contains(n) || CO_FORTH_KEYWORDS.contains(n) || env.vocabulary().word(n).isPresent()
                || env.words().containsKey(n) || env.constants().containsKey(n);
    }

    DiagnosticException malformedMsg(Sx at, String message) {
        return new DiagnosticException(LispCode.MALFORMED_FORM.at(at.origin(), message));
    }

    /** A datum for a message, cut to about 60 characters. */
    static String abbreviate(Sx sx) { return Sx.abbreviate(sx, 60); }

    private DiagnosticException unknown(String name, Origin o, Scope sc) {
        Set<String> candidates = new HashSet<>(env.vocabulary().names());
        candidates.addAll(functions.keySet());
        candidates.addAll(constants.keySet());
        candidates.addAll(env.words().keySet());
        candidates.addAll(env.constants().keySet());
        candidates.addAll(Forms.NAMES);
        sc.names(candidates);
        // By meaning first (display is say, car is list-uncons), then by spelling; the same as the verifier says for Co-Forth.
        String meaning = dev.finch.ir.vocab.Meanings.hint(name, dev.finch.ir.vocab.SourceSyntax.LISP, env.vocabulary());
        String spelling = dev.finch.ir.diag.Suggestions.didYouMean(name, candidates);
        return new DiagnosticException(LispCode.UNKNOWN_NAME.at(o, "unknown name '" + Sx.quote(name) + "'" + meaning + spelling
                + (meaning.isEmpty() && spelling.isEmpty() ? "; define it first, or look it up (search_word; on the command line finch inspect NAME)" : "")));
    }


    Eff effOf(Body b) { return b.eff; }
}
