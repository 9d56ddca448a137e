package dev.finch.norman;

import dev.finch.ir.diag.Origin;
import java.util.List;
import java.util.Optional;

/**
 * The abstract syntax of µNorman after the syntactic checks. Sugar (and, or, begin, par, (fail 'sym), the default
 * ask site) is already translated into core forms, as the reference defines it, so later phases see only these.
 */
public final class Ast {
    private Ast() { }

    // ---- types as written ---------------------------------------------------------------------------------------

    /** A type as written: {@code Text (Text n) Num Bool Sym (List ty [n]) Name Any}. */
    public sealed interface TypeExpr {
        /** The discriminator for switches. */
        enum Kind { TEXT, NUM, BOOL, SYM, LIST, NAMED, ANY }

        Kind kind();

        Origin origin();
    }

    /** {@code Text} or {@code (Text n)}: a bound in bytes. */
    public record TText(Optional<Long> bound, Origin origin) implements TypeExpr { @Override public Kind kind() { return Kind.TEXT; } }

    /** {@code Num}, {@code Bool} or {@code Sym}. */
    public record TPrim(Kind kind, Origin origin) implements TypeExpr { }

    /** {@code (List ty)} or {@code (List ty n)}. */
    public record TList(TypeExpr element, Optional<Long> bound, Origin origin) implements TypeExpr { @Override public Kind kind() { return Kind.LIST; } }

    /** A datatype or record name. */
    public record TNamed(String name, Origin origin) implements TypeExpr { @Override public Kind kind() { return Kind.NAMED; } }

    /** {@code Any}: a placeholder, which becomes a type parameter. */
    public record TAny(Origin origin) implements TypeExpr { @Override public Kind kind() { return Kind.ANY; } }

    // ---- expressions --------------------------------------------------------------------------------------------

    /** An expression. */
    public sealed interface Exp {
        /** The discriminator for switches. */
        enum Kind { NUM, TEXT, BOOL, SYM, MONEY, DURATION, INFINITY, EMPTY_LIST, VAR, IF, LET_STAR, LAMBDA, APPLY, DOT, CASE,
            CONSTRUCT, RECORD_NEW, LIST, CONS, FAIL, CATCH, ASK, CALL, BUDGET, WORKFLOW }

        Kind kind();

        Origin origin();
    }

    /** A numeral; µNorman {@code Num} is a double. */
    public record Num(double value, Origin origin) implements Exp { @Override public Kind kind() { return Kind.NUM; } }

    /** A string. */
    public record Text(String value, Origin origin) implements Exp { @Override public Kind kind() { return Kind.TEXT; } }

    /** {@code #t} / {@code #f}. */
    public record Bool(boolean value, Origin origin) implements Exp { @Override public Kind kind() { return Kind.BOOL; } }

    /** A symbol {@code 'x}. */
    public record Sym(String name, Origin origin) implements Exp { @Override public Kind kind() { return Kind.SYM; } }

    /** Money such as {@code $0.50}, exact in micro-dollars. */
    public record Money(long micros, Origin origin) implements Exp { @Override public Kind kind() { return Kind.MONEY; } }

    /** A duration such as {@code 40s}, exact in milliseconds. */
    public record Duration(long millis, Origin origin) implements Exp { @Override public Kind kind() { return Kind.DURATION; } }

    /** {@code ∞}: no limit, of money or of time. */
    public record Infinity(Origin origin) implements Exp { @Override public Kind kind() { return Kind.INFINITY; } }

    /** {@code '()}: the empty list. */
    public record EmptyList(Origin origin) implements Exp { @Override public Kind kind() { return Kind.EMPTY_LIST; } }

    /** A name: a local, a top-level definition, a primitive or a grant. */
    public record Var(String name, Origin origin) implements Exp { @Override public Kind kind() { return Kind.VAR; } }

    /** {@code (if c t e)}; also the translation of and/or. */
    public record If(Exp test, Exp then, Exp otherwise, Origin origin) implements Exp { @Override public Kind kind() { return Kind.IF; } }

    /** One {@code [x e]} of a let*; the name {@code _} ignores the value (the translation of begin). */
    public record Binding(String name, Exp value, Origin origin) { }

    /** {@code (let* ([x e]…) body)}; also the translation of begin. */
    public record LetStar(List<Binding> bindings, Exp body, Origin origin) implements Exp {
        public LetStar { bindings = List.copyOf(bindings); }
        @Override public Kind kind() { return Kind.LET_STAR; }
    }

    /** {@code (lambda (x…) body)}. */
    public record Lambda(List<String> formals, Exp body, Origin origin) implements Exp {
        public Lambda { formals = List.copyOf(formals); }
        @Override public Kind kind() { return Kind.LAMBDA; }
    }

    /** {@code (f arg…)}. */
    public record Apply(Exp fn, List<Exp> args, Origin origin) implements Exp {
        public Apply { args = List.copyOf(args); }
        @Override public Kind kind() { return Kind.APPLY; }
    }

    /** {@code (. e field)}. */
    public record Dot(Exp record, String field, Origin origin) implements Exp { @Override public Kind kind() { return Kind.DOT; } }

    /** {@code (case e [pattern body]…)}. */
    public record Case(Exp scrutinee, List<Branch> branches, Origin origin) implements Exp {
        public Case { branches = List.copyOf(branches); }
        @Override public Kind kind() { return Kind.CASE; }
    }

    /** One branch of a case. */
    public record Branch(Pattern pattern, Exp body, Origin origin) { }

    /** {@code (Con e…)} or a bare nullary {@code Con}: positional. */
    public record Construct(String constructor, List<Exp> args, Origin origin) implements Exp {
        public Construct { args = List.copyOf(args); }
        @Override public Kind kind() { return Kind.CONSTRUCT; }
    }

    /** {@code (Record [field e]…)}: every field, named, in the order written (which is the evaluation order). */
    public record RecordNew(String record, List<Binding> fields, Origin origin) implements Exp {
        public RecordNew { fields = List.copyOf(fields); }
        @Override public Kind kind() { return Kind.RECORD_NEW; }
    }

    /** {@code (list e…)}. */
    public record ListExp(List<Exp> items, Origin origin) implements Exp {
        public ListExp { items = List.copyOf(items); }
        @Override public Kind kind() { return Kind.LIST; }
    }

    /** {@code (cons h t)}. */
    public record Cons(Exp head, Exp tail, Origin origin) implements Exp { @Override public Kind kind() { return Kind.CONS; } }

    /** {@code (fail e)}: e is a Failure ({@code (fail 'sym)} arrives here as {@code (fail (Raised 'sym))}). */
    public record Fail(Exp failure, Origin origin) implements Exp { @Override public Kind kind() { return Kind.FAIL; } }

    /** {@code (catch e name handler)}. */
    public record Catch(Exp body, String name, Exp handler, Origin origin) implements Exp { @Override public Kind kind() { return Kind.CATCH; } }

    /** {@code (ask model ty context ['site])}; the site defaults to {@code name:line:col}, the file's own name (see {@code Syntax.defaultSite}). */
    public record Ask(Exp model, TypeExpr type, Exp context, String site, Origin origin) implements Exp { @Override public Kind kind() { return Kind.ASK; } }

    /** {@code (call capability op exp…)}. */
    public record CallTool(Exp capability, String op, List<Exp> args, Origin origin) implements Exp {
        public CallTool { args = List.copyOf(args); }
        @Override public Kind kind() { return Kind.CALL; }
    }

    /** {@code (budget ([cost e] [time e]) body)}; an omitted limit is ∞. */
    public record Budget(Optional<Exp> cost, Optional<Exp> time, Exp body, Origin origin) implements Exp { @Override public Kind kind() { return Kind.BUDGET; } }

    /** {@code (workflow ([name e]…) body)}; also the translation of par. Steps are listed in a dependency order. */
    public record Workflow(List<Binding> steps, Exp body, Origin origin) implements Exp {
        public Workflow { steps = List.copyOf(steps); }
        @Override public Kind kind() { return Kind.WORKFLOW; }
    }

    // ---- patterns -----------------------------------------------------------------------------------------------

    /** A flat pattern. */
    public sealed interface Pattern {
        /** The discriminator for switches. */
        enum Kind { CON, NIL, CONS, WILD }

        Kind kind();

        Origin origin();
    }

    /** {@code Con} or {@code (Con x _)}: a null entry in {@code vars} is {@code _}. */
    public record PCon(String constructor, List<Optional<String>> vars, Origin origin) implements Pattern {
        public PCon { vars = List.copyOf(vars); }
        @Override public Kind kind() { return Kind.CON; }
    }

    /** {@code '()}. */
    public record PNil(Origin origin) implements Pattern { @Override public Kind kind() { return Kind.NIL; } }

    /** {@code (cons h t)}; an empty name is {@code _}. */
    public record PCons(Optional<String> head, Optional<String> tail, Origin origin) implements Pattern { @Override public Kind kind() { return Kind.CONS; } }

    /** {@code _}. */
    public record PWild(Origin origin) implements Pattern { @Override public Kind kind() { return Kind.WILD; } }

    // ---- definitions --------------------------------------------------------------------------------------------

    /** A definition or extended definition. */
    public sealed interface Def {
        /** The discriminator for switches. */
        enum Kind { VAL, DEFINE, DATATYPE, RECORD, EXP, USE, GRANT, SCRIPT, UNDER, TEST }

        Kind kind();

        Origin origin();
    }

    /** {@code (val name exp)}. */
    public record Val(String name, Exp value, Origin origin) implements Def { @Override public Kind kind() { return Kind.VAL; } }

    /** {@code (define name (formals) body)}. */
    public record Define(String name, List<String> formals, Exp body, Origin origin) implements Def {
        public Define { formals = List.copyOf(formals); }
        @Override public Kind kind() { return Kind.DEFINE; }
    }

    /** A field declaration {@code (field ty)}. */
    public record FieldDecl(String name, TypeExpr type, Origin origin) { }

    /** A constructor declaration {@code [Con (field ty)…]}. */
    public record ConDecl(String name, List<FieldDecl> fields, Origin origin) {
        public ConDecl { fields = List.copyOf(fields); }
    }

    /** {@code (datatype Type [Con (field ty)…]…)}. */
    public record Datatype(String name, List<ConDecl> constructors, Origin origin) implements Def {
        public Datatype { constructors = List.copyOf(constructors); }
        @Override public Kind kind() { return Kind.DATATYPE; }
    }

    /** {@code (record Record (field ty)…)}. */
    public record RecordDecl(String name, List<FieldDecl> fields, Origin origin) implements Def {
        public RecordDecl { fields = List.copyOf(fields); }
        @Override public Kind kind() { return Kind.RECORD; }
    }

    /** A top-level expression. */
    public record TopExp(Exp exp, Origin origin) implements Def { @Override public Kind kind() { return Kind.EXP; } }

    /** {@code (use file)}, kept for the record once the file has been loaded. */
    public record Use(String file, Origin origin) implements Def { @Override public Kind kind() { return Kind.USE; } }

    /**
     * One {@code [key value]} of a grant's host spec; the value is a type for tool operations and a memory grant's
     * {@code [value τ]}, a written value otherwise (a model's terms, a memory grant's {@code [tree name]}).
     */
    public record HostEntry(String key, Optional<TypeExpr> type, Optional<Sx> value, Origin origin) { }

    /** {@code (grant name (host entry…))}: host is model, kernel, filesystem, http or memory. */
    public record Grant(String name, String host, List<HostEntry> entries, Origin origin) implements Def {
        public Grant { entries = List.copyOf(entries); }
        @Override public Kind kind() { return Kind.GRANT; }
        /** True for a model grant. */
        public boolean isModel() { return host.equals("model"); }
        /** True for a memory grant: its calls read and write one of Finch's memory trees. */
        public boolean isMemory() { return host.equals("memory"); }
        /** True for a tool grant (kernel, filesystem, http): its name is a {@code Tool} value. */
        public boolean isTool() { return !isModel() && !isMemory(); }

        /** A memory grant's tree ({@code session}, {@code project} or {@code global}); empty for any other grant. */
        public Optional<String> tree() {
            if (!isMemory()) return Optional.empty();
            return entries.stream().filter(e -> e.key().equals("tree")).findFirst().flatMap(HostEntry::value)
                    .filter(v -> v instanceof Sx.Atom).map(v -> ((Sx.Atom) v).text());
        }

        /** A memory grant's declared value type ({@code [value τ]}); empty when it declares none (its values are Text). */
        public Optional<TypeExpr> valueType() {
            if (!isMemory()) return Optional.empty();
            return entries.stream().filter(e -> e.key().equals("value")).findFirst().flatMap(HostEntry::type);
        }
    }

    /** One scripted step: {@code (reply "…")}, {@code (out n)}, {@code (latency d)}, {@code (result "…")}, a fault… */
    public record ScriptStep(String kind, Optional<Sx> argument, Origin origin) { }

    /** {@code [site step…]} or {@code [cap/op step…]}. */
    public record SiteScript(String key, List<ScriptStep> steps, Origin origin) {
        public SiteScript { steps = List.copyOf(steps); }
    }

    /** {@code (script Name [site …]…)}. */
    public record Script(String name, List<SiteScript> sites, Origin origin) implements Def {
        public Script { sites = List.copyOf(sites); }
        @Override public Kind kind() { return Kind.SCRIPT; }
    }

    /** {@code (under ([script N] [cost e] [time e]) test…)}. */
    public record Under(Optional<String> script, Optional<Exp> cost, Optional<Exp> time, List<Test> tests, Origin origin) implements Def {
        public Under { tests = List.copyOf(tests); }
        @Override public Kind kind() { return Kind.UNDER; }
    }

    /** The unit-test forms. */
    public enum TestKind {
        CHECK_EXPECT("check-expect"), CHECK_ASSERT("check-assert"), CHECK_FAIL("check-fail"), CHECK_ERROR("check-error"),
        CHECK_WITHIN("check-within"), CHECK_EQUIV("check-equiv");

        private final String spelling;

        TestKind(String spelling) { this.spelling = spelling; }

        /** The form's keyword. */
        public String spelling() { return spelling; }
    }

    /**
     * A unit test: its expressions (e and expected, e alone, e₁ e₂, or e c t for check-within), the failure pattern
     * of check-fail and the grade of check-equiv.
     */
    public record Test(TestKind testKind, List<Exp> exps, Optional<Pattern> pattern, Optional<String> grade, Origin origin) implements Def {
        public Test { exps = List.copyOf(exps); }
        @Override public Kind kind() { return Kind.TEST; }
    }
}
