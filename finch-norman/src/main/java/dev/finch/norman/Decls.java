package dev.finch.norman;

import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The program's datatypes and records as types. Each {@code Any} in a declaration, and each parameterized type
 * it mentions, becomes a type parameter of the declared type (decisions D10: {@code Option a}, {@code Pair a b},
 * {@code Resources a b}); a type may mention itself, with its own parameters. Within the submission's budget: a
 * declaration's parameters (which double when a record holds two of another) are at most {@code maxTypeSize}
 * ({@code E-LIMIT-014}), and declarations that refer to the next one nest at most {@code maxNesting} deep
 * ({@code E-LIMIT-012}).
 */
final class Decls {
    /** One field: its name and its type over the declaring type's parameters. */
    record Field(String name, Ty type) { }

    /** A constructor of a datatype, with its position among the datatype's constructors. */
    record ConInfo(String name, String datatype, List<Field> fields, int index) { }

    /** A datatype (constructors) or a record (fields), with its type parameters. */
    record TypeInfo(String name, boolean isRecord, List<Ty.Var> params, List<ConInfo> constructors, List<Field> fields, Origin origin) {
        Ty.Con applied(List<Ty> args) { return new Ty.Con(name, args); }
    }

    final Map<String, TypeInfo> types = new LinkedHashMap<>();
    final Map<String, ConInfo> constructors = new HashMap<>();
    private final Map<String, Ast.Def> pending = new LinkedHashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    private final Map<String, List<Ty.Var>> partialParams = new HashMap<>();
    private final CompileBudget budget;
    private int fields;

    /** The type variables of this submission's inference: the declarations' and, after them, {@link Infer}'s. */
    final dev.finch.frontend.types.VarSupply vars = new dev.finch.frontend.types.VarSupply();

    Decls(CompileBudget budget) { this.budget = budget; }

    /** The number of fields of every record declared (what looking a field up among them all costs). */
    int fieldCount() { return fields; }

    /** Declares every datatype and record of {@code defs}. */
    void declareAll(List<Ast.Def> defs) {
        for (Ast.Def d : defs) {
            if (d instanceof Ast.Datatype dt) pending.put(dt.name(), d);
            if (d instanceof Ast.RecordDecl r) pending.put(r.name(), d);
        }
        for (String name : List.copyOf(pending.keySet())) declare(name);
    }

    private TypeInfo declare(String name) {
        TypeInfo done = types.get(name);
        if (done != null) return done;
        Ast.Def d = pending.get(name);
        List<Ty.Var> params = new ArrayList<>();
        inProgress.add(name);
        budget.nesting(Phase.VERIFY, inProgress.size(), d.origin());
        partialParams.put(name, params);
        TypeInfo info;
        if (d instanceof Ast.RecordDecl r) {
            List<Field> fields = new ArrayList<>();
            for (Ast.FieldDecl f : r.fields()) fields.add(new Field(f.name(), declared(f.type(), name, params)));
            fields = selfReferences(fields, name, params);
            info = new TypeInfo(name, true, params, List.of(), fields, r.origin());
            this.fields += fields.size();
        } else {
            Ast.Datatype dt = (Ast.Datatype) d;
            List<ConInfo> cons = new ArrayList<>();
            for (Ast.ConDecl c : dt.constructors()) {
                List<Field> fields = new ArrayList<>();
                for (Ast.FieldDecl f : c.fields()) fields.add(new Field(f.name(), declared(f.type(), name, params)));
                cons.add(new ConInfo(c.name(), name, fields, cons.size()));
            }
            for (int i = 0; i < cons.size(); i++) {
                ConInfo c = cons.get(i);
                cons.set(i, new ConInfo(c.name(), name, selfReferences(c.fields(), name, params), c.index()));
            }
            info = new TypeInfo(name, false, params, cons, List.of(), dt.origin());
            for (ConInfo c : cons) constructors.put(c.name(), c);
        }
        inProgress.remove(name);
        types.put(name, info);
        return info;
    }

    /** A field's type: {@code Any} and mentioned parameterized types add parameters to {@code owner}. */
    private Ty declared(Ast.TypeExpr t, String owner, List<Ty.Var> params) {
        budget.charge(Phase.VERIFY, 1, t.origin());
        switch (t.kind()) {
            case TEXT: return Ty.TEXT;
            case NUM: return Ty.NUM;
            case BOOL: return Ty.BOOL;
            case SYM: return Ty.SYM;
            case LIST: return Ty.list(declared(((Ast.TList) t).element(), owner, params));
            case ANY: {
                budget.typeSize(Phase.VERIFY, params.size() + 1L, t.origin());
                Ty.Var v = new Ty.Var(vars, Integer.MAX_VALUE, false);
                params.add(v);
                return v;
            }
            case NAMED:
            default: {
                String n = ((Ast.TNamed) t).name();
                if (n.equals(owner)) return new Ty.Con(n, List.copyOf(params)); // completed below by fixParams
                if (inProgress.contains(n)) return new Ty.Con(n, List.copyOf(partialParams.get(n)));
                if (!pending.containsKey(n)) throw unknown(t.origin(), n);
                TypeInfo other = declare(n);
                budget.charge(Phase.VERIFY, other.params().size(), t.origin());
                budget.typeSize(Phase.VERIFY, (long) params.size() + other.params().size(), t.origin());
                List<Ty> args = new ArrayList<>();
                for (int i = 0; i < other.params().size(); i++) {
                    Ty.Var v = new Ty.Var(vars, Integer.MAX_VALUE, false);
                    params.add(v);
                    args.add(v);
                }
                return new Ty.Con(n, args);
            }
        }
    }

    /**
     * The fields with every reference to {@code owner} applied to all of its parameters: a reference met before a
     * later field added a parameter held only the parameters known then (a recursive type is regular: it refers to
     * itself at its own parameters).
     */
    private List<Field> selfReferences(List<Field> fields, String owner, List<Ty.Var> params) {
        List<Field> out = new ArrayList<>();
        for (Field f : fields) out.add(new Field(f.name(), selfReference(f.type(), owner, params, 1)));
        return out;
    }

    private Ty selfReference(Ty t, String owner, List<Ty.Var> params, int depth) {
        budget.charge(Phase.VERIFY, 1, Origin.UNKNOWN);
        if (!(t instanceof Ty.Con c) || c.args().isEmpty() && !c.name().equals(owner)) return t;
        if (c.name().equals(owner)) return new Ty.Con(owner, List.copyOf(params));
        List<Ty> args = new ArrayList<>();
        for (Ty a : c.args()) args.add(selfReference(a, owner, params, depth + 1));
        return new Ty.Con(c.name(), args);
    }

    private static DiagnosticException unknown(Origin at, String n) {
        return new DiagnosticException(NormanCode.UNKNOWN_TYPE.at(at, "unknown type `" + n + "`"));
    }

    /** A type written outside a declaration (an ask's answer, a grant's operation): Any and parameters are fresh. */
    Ty written(Ast.TypeExpr t, int level) {
        switch (t.kind()) {
            case TEXT: return Ty.TEXT;
            case NUM: return Ty.NUM;
            case BOOL: return Ty.BOOL;
            case SYM: return Ty.SYM;
            case LIST: return Ty.list(written(((Ast.TList) t).element(), level));
            case ANY: return new Ty.Var(vars, level, false);
            case NAMED:
            default: {
                TypeInfo info = types.get(((Ast.TNamed) t).name());
                if (info == null) throw unknown(t.origin(), ((Ast.TNamed) t).name());
                List<Ty> args = new ArrayList<>();
                for (int i = 0; i < info.params().size(); i++) args.add(new Ty.Var(vars, level, false));
                return info.applied(args);
            }
        }
    }

    /** The substitution from {@code info}'s parameters to {@code args}. */
    static Map<Ty.Var, Ty> instance(TypeInfo info, List<Ty> args) {
        Map<Ty.Var, Ty> map = new HashMap<>();
        for (int i = 0; i < info.params().size(); i++) map.put(info.params().get(i), args.get(i));
        return map;
    }
}
