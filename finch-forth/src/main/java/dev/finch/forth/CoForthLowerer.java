package dev.finch.forth;

import dev.finch.forth.CoForthParser.BeginUntilContext;
import dev.finch.forth.CoForthParser.BeginWhileContext;
import dev.finch.forth.CoForthParser.CaseArmContext;
import dev.finch.forth.CoForthParser.CaseOfContext;
import dev.finch.forth.CoForthParser.ClosureContext;
import dev.finch.forth.CoForthParser.ConstantContext;
import dev.finch.forth.CoForthParser.DefinitionContext;
import dev.finch.forth.CoForthParser.ElementsContext;
import dev.finch.forth.CoForthParser.FalseLitContext;
import dev.finch.forth.CoForthParser.FieldContext;
import dev.finch.forth.CoForthParser.FloatLitContext;
import dev.finch.forth.CoForthParser.IfOkContext;
import dev.finch.forth.CoForthParser.IfSomeContext;
import dev.finch.forth.CoForthParser.IfThenContext;
import dev.finch.forth.CoForthParser.IntLitContext;
import dev.finch.forth.CoForthParser.ItemContext;
import dev.finch.forth.CoForthParser.ItemsContext;
import dev.finch.forth.CoForthParser.JsonLitContext;
import dev.finch.forth.CoForthParser.ListContext;
import dev.finch.forth.CoForthParser.LocalStoreContext;
import dev.finch.forth.CoForthParser.MapContext;
import dev.finch.forth.CoForthParser.ParamWordContext;
import dev.finch.forth.CoForthParser.ProgramContext;
import dev.finch.forth.CoForthParser.PropagateContext;
import dev.finch.forth.CoForthParser.QuoteContext;
import dev.finch.forth.CoForthParser.RecordContext;
import dev.finch.forth.CoForthParser.StringLitContext;
import dev.finch.forth.CoForthParser.SymbolLitContext;
import dev.finch.forth.CoForthParser.TopItemContext;
import dev.finch.forth.CoForthParser.TrueLitContext;
import dev.finch.forth.CoForthParser.TypeDefContext;
import dev.finch.forth.CoForthParser.UnitLitContext;
import dev.finch.forth.CoForthParser.WordContext;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeNameCode;
import dev.finch.ir.type.TypeNames;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.antlr.v4.runtime.BufferedTokenStream;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Lowers a Co-Forth parse tree to a {@link Module}: one visitor method per labelled alternative, each appending
 * its instructions to the block being built. Locals are tracked per word in program (text) order: after
 * {@code :> x}, a bare {@code x} in the same word (or in main) is a LocalLoad.
 */
final class CoForthLowerer extends CoForthBaseVisitor<Void> {
    private static final String NAME = "[A-Za-z_][A-Za-z0-9_-]*";

    private final String sourceId;
    private final BufferedTokenStream tokens;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final List<WordDef> words = new ArrayList<>();
    private final Set<String> defined = new HashSet<>();
    private Set<String> locals = new HashSet<>();
    private List<Instr> out = new ArrayList<>();

    private final Vocabulary vocabulary;
    private final CompileBudget budget;
    private final Environment env;
    /** The session's named types and those this program has defined so far, in program order (copied when first needed). */
    private Map<String, Type> named;
    /** The opaque types a named type may mention, computed at the first type definition. */
    private Set<String> opaque;

    CoForthLowerer(String sourceId, BufferedTokenStream tokens, Environment env) {
        this.sourceId = sourceId;
        this.tokens = tokens;
        this.env = env;
        this.vocabulary = env.vocabulary();
        this.budget = env.budget();
    }

    List<Diagnostic> diagnostics() { return diagnostics; }

    Module lower(ProgramContext program) {
        List<Instr> main = out;
        for (TopItemContext top : program.topItem()) {
            if (top.definition() != null) definition(top.definition());
            else visit(top.item());
        }
        return new Module(sourceId, CoForth.LANGUAGE, words, new Block(main));
    }

    /**
     * Whether the default-channel tokens (EOF aside) are a flat program: only items that are one token
     * ({@code 1 2.5 "s" s" s" true false unit 'sym {json} ? word name<T>}) or a naming token and the WORD it names
     * ({@code :> x  ['] w  constant x  constant<T> x  type<T> t}). Such a text nests nothing, so the structure check
     * finds nothing in it, and the grammar's parse of it is one {@code item} per item in text order — what
     * {@link #lowerFlat} lowers directly, token by token, with the same methods the visitor calls. Everything else
     * (any construct, closer, comma, field label, stray or unnamed naming token) goes through the structure check
     * and the parser. {@code FlatLoweringTest} checks the two paths give the same lowering.
     */
    static boolean flat(List<Token> tokens) {
        int n = tokens.size();
        for (int i = 0; i < n; i++) {
            Token t = tokens.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL || t.getType() == Token.EOF) continue;
            switch (t.getType()) {
                case CoForthLexer.INT, CoForthLexer.FLOAT, CoForthLexer.STRING, CoForthLexer.SSTRING, CoForthLexer.TRUE,
                        CoForthLexer.FALSE, CoForthLexer.UNIT, CoForthLexer.SYMBOL, CoForthParser.JSON_OBJECT, CoForthLexer.QUESTION,
                        CoForthParser.PARAM_WORD, CoForthLexer.WORD -> { }
                case CoForthLexer.LOCAL_STORE, CoForthLexer.TICK, CoForthLexer.CONSTANT, CoForthParser.CONSTANT_TYPED, CoForthParser.TYPE_DEF -> {
                    int name = nextDefault(tokens, i + 1);
                    if (name < 0 || tokens.get(name).getType() != CoForthLexer.WORD) return false;
                    i = name;
                }
                default -> { return false; }
            }
        }
        return true;
    }

    private static int nextDefault(List<Token> tokens, int from) {
        for (int i = from; i < tokens.size(); i++) if (tokens.get(i).getChannel() == Token.DEFAULT_CHANNEL) return i;
        return -1;
    }

    /** Lowers a {@link #flat} program from its tokens, as {@link #lower} lowers its parse tree. */
    Module lowerFlat() {
        List<Token> all = tokens.getTokens();
        for (int i = 0; i < all.size(); i++) {
            Token t = all.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL || t.getType() == Token.EOF) continue;
            switch (t.getType()) {
                case CoForthLexer.INT -> intLit(t);
                case CoForthLexer.FLOAT -> floatLit(t);
                case CoForthLexer.STRING, CoForthLexer.SSTRING -> stringLit(t);
                case CoForthLexer.TRUE -> push(new Literal.BoolLit(true), t);
                case CoForthLexer.FALSE -> push(new Literal.BoolLit(false), t);
                case CoForthLexer.UNIT -> push(new Literal.UnitLit(), t);
                case CoForthLexer.SYMBOL -> symbolLit(t);
                case CoForthParser.JSON_OBJECT -> jsonLit(t);
                case CoForthLexer.QUESTION -> propagate(t);
                case CoForthParser.PARAM_WORD -> paramWord(t);
                case CoForthLexer.WORD -> word(t);
                default -> {
                    int at = nextDefault(all, i + 1);
                    Token name = all.get(at);
                    switch (t.getType()) {
                        case CoForthLexer.LOCAL_STORE -> localStore(t, name);
                        case CoForthLexer.TICK -> quote(t, name);
                        case CoForthParser.TYPE_DEF -> typeDef(t, name);
                        default -> constant(t, name);
                    }
                    i = at;
                }
            }
        }
        return new Module(sourceId, CoForth.LANGUAGE, words, new Block(out));
    }

    private void definition(DefinitionContext ctx) {
        String name = ctx.name.getText();
        if (!defined.add(name)) {
            report(ForthCode.DUPLICATE_DEFINITION.at(origin(ctx.name), "'" + name + "' is defined twice in this program"));
        }
        Optional<Type.Fn> signature = signatureAfter(ctx.name);
        Set<String> outerLocals = locals;
        List<Instr> outer = out;
        locals = new HashSet<>();
        Block body = block(ctx.items());
        locals = outerLocals;
        out = outer;
        words.add(new WordDef(name, signature, body, origin(ctx.start)));
    }

    // ------------------------------------------------------------------------------------------------ blocks

    private Block block(ItemsContext ctx) {
        return ctx == null ? Block.EMPTY : sequence(ctx.item());
    }

    private Block sequence(List<? extends ParseTree> children) {
        List<Instr> outer = out;
        List<Instr> mine = new ArrayList<>();
        out = mine;
        for (ParseTree child : children) {
            if (child instanceof ItemContext) visit(child);
        }
        out = outer;
        return new Block(mine);
    }

    private Block elements(ElementsContext ctx) { return sequence(ctx.children == null ? List.of() : ctx.children); }

    // ------------------------------------------------------------------------------------------------ literals

    @Override public Void visitIntLit(IntLitContext ctx) { intLit(ctx.start); return null; }

    private void intLit(Token t) {
        // No lambdas here and in takesField: a fresh JVM's first submission runs them, where each costs ~0.7 ms.
        Optional<Long> v = parseInt(t);
        if (v.isPresent()) push(new Literal.IntLit(v.get()), t);
    }

    @Override public Void visitFloatLit(FloatLitContext ctx) { floatLit(ctx.start); return null; }

    private void floatLit(Token t) {
        String text = t.getText();
        double v;
        switch (text) {
            case "+inf.0": v = Double.POSITIVE_INFINITY; break;
            case "-inf.0": v = Double.NEGATIVE_INFINITY; break;
            case "+nan.0": v = Double.NaN; break;
            default:
                v = Double.parseDouble(text);
                if (Double.isInfinite(v)) {
                    report(ForthCode.BAD_NUMBER.at(origin(t), "float literal " + text + " is out of range (write +inf.0 or -inf.0)"));
                    return;
                }
        }
        push(new Literal.FloatLit(v), t);
    }

    @Override public Void visitStringLit(StringLitContext ctx) { stringLit(ctx.start); return null; }

    private void stringLit(Token t) {
        String text = t.getText();
        int bodyStart = text.startsWith("s\"") ? 2 : 1;
        // Forth's s" takes the one space after it as a delimiter: s" hi" is "hi".
        if (bodyStart == 2 && text.length() > 3 && text.charAt(2) == ' ') bodyStart = 3;
        try {
            push(new Literal.StringLit(Escapes.decode(text.substring(bodyStart, text.length() - 1))), t);
        } catch (Escapes.EscapeException e) {
            report(ForthCode.BAD_ESCAPE.at(originAt(t, bodyStart + e.offset), e.getMessage()));
        }
    }

    @Override public Void visitTrueLit(TrueLitContext ctx) { push(new Literal.BoolLit(true), ctx.start); return null; }

    @Override public Void visitFalseLit(FalseLitContext ctx) { push(new Literal.BoolLit(false), ctx.start); return null; }

    @Override public Void visitUnitLit(UnitLitContext ctx) { push(new Literal.UnitLit(), ctx.start); return null; }

    @Override public Void visitSymbolLit(SymbolLitContext ctx) { symbolLit(ctx.start); return null; }

    private void symbolLit(Token t) { push(new Literal.SymbolLit(t.getText().substring(1)), t); }

    @Override public Void visitJsonLit(JsonLitContext ctx) { jsonLit(ctx.start); return null; }

    private void jsonLit(Token t) {
        try {
            push(new Literal.JsonLit(Json.canonical(t.getText())), t);
        } catch (Json.JsonException e) {
            report(ForthCode.BAD_JSON.at(originAt(t, e.offset), "malformed JSON object: " + e.getMessage()));
        }
    }

    // ------------------------------------------------------------------------------------------------ control

    @Override public Void visitIfThen(IfThenContext ctx) {
        Block then = block(ctx.then);
        out.add(new Instr.If(then, block(ctx.otherwise), origin(ctx.start)));
        return null;
    }

    @Override public Void visitIfSome(IfSomeContext ctx) {
        Block some = block(ctx.some);
        out.add(new Instr.IfSome(some, block(ctx.none), origin(ctx.start)));
        return null;
    }

    @Override public Void visitIfOk(IfOkContext ctx) {
        // The contract's result branch: "Both arms are required" — an err arm left out would silently pass the err
        // payload on as if it were the ok one whenever the two happen to share a type.
        if (ctx.ELSE() == null) {
            report(ForthCode.MISSING_ERR_ARM.at(origin(ctx.start), "if-ok needs both arms, if-ok … else … then: the else arm receives the err payload "
                    + "(the contract requires both, even when the ok and err payloads share a type)", "if-ok … else … then", "if-ok … then"));
        }
        Block ok = block(ctx.ok);
        out.add(new Instr.IfOk(ok, block(ctx.err), origin(ctx.start)));
        return null;
    }

    @Override public Void visitBeginWhile(BeginWhileContext ctx) {
        Block test = block(ctx.test);
        out.add(new Instr.Loop(test, block(ctx.body), origin(ctx.start)));
        return null;
    }

    @Override public Void visitBeginUntil(BeginUntilContext ctx) {
        out.add(new Instr.Until(block(ctx.body), origin(ctx.start)));
        return null;
    }

    @Override public Void visitCaseOf(CaseOfContext ctx) {
        List<Instr.Case.Arm> arms = new ArrayList<>();
        for (CaseArmContext arm : ctx.caseArm()) {
            Token value = arm.INT().getSymbol();
            Optional<Long> v = parseInt(value);
            Block body = block(arm.items());
            v.ifPresent(n -> arms.add(new Instr.Case.Arm(n, body, origin(value))));
        }
        Optional<Block> otherwise = ctx.OTHERWISE() == null ? Optional.empty() : Optional.of(block(ctx.otherwise));
        out.add(new Instr.Case(arms, otherwise, origin(ctx.start)));
        return null;
    }

    @Override public Void visitPropagate(PropagateContext ctx) { propagate(ctx.start); return null; }

    private void propagate(Token t) { out.add(new Instr.Propagate(origin(t))); }

    @Override public Void visitQuote(QuoteContext ctx) { quote(ctx.start, ctx.name); return null; }

    private void quote(Token t, Token name) { out.add(new Instr.Quote(name.getText(), origin(t))); }

    @Override public Void visitConstant(ConstantContext ctx) { constant(ctx.start, ctx.name); return null; }

    /** {@code constant name} or {@code constant<T> name}; {@code t} is the CONSTANT or CONSTANT_TYPED token. */
    private void constant(Token t, Token name) {
        Optional<Type> declared = Optional.empty();
        if (t.getType() == CoForthParser.CONSTANT_TYPED) {
            String text = t.getText();
            int open = text.indexOf('<');
            Optional<Type> type = type(t, open + 1, text.substring(open + 1, text.length() - 1));
            if (type.isEmpty()) return;
            declared = type;
        }
        out.add(new Instr.Constant(name.getText(), declared, origin(t)));
    }

    /**
     * {@code type<T> name}: names the structure T for the rest of this program and the session (see
     * {@link TypeNames}); it lowers to the constant that carries it, {@code T empty-list<T> constant nm.type.name}.
     */
    @Override public Void visitTypeDef(TypeDefContext ctx) { typeDef(ctx.start, ctx.name); return null; }

    private void typeDef(Token t, Token nameToken) {
        String text = t.getText();
        String inner = text.substring(text.indexOf('<') + 1, text.length() - 1);
        String name = nameToken.getText();
        if (opaque == null) opaque = env.opaqueTypes();
        TypeNames.Result r;
        try {
            r = TypeNames.define(name, inner.strip(), named(), opaque, budget.limits().maxNesting(), budget.limits().maxTypeSize());
        } catch (TypeSyntax.TypeSyntaxException e) {
            type(t, text.indexOf('<') + 1, inner); // reports the malformed type where it is
            return;
        }
        if (r.refused().isPresent()) {
            report(TypeNameCode.of(r.refusal().problem()).at(origin(nameToken), r.refusal().message()));
            return;
        }
        named().put(name, r.structure());
        Origin at = origin(t);
        out.add(new Instr.Call("empty-list", List.of(new Immediate.TypeArg(r.structure())), at));
        out.add(new Instr.Constant(TypeNames.constantName(name), Optional.empty(), at));
    }

    @Override public Void visitLocalStore(LocalStoreContext ctx) { localStore(ctx.start, ctx.name); return null; }

    private void localStore(Token t, Token nameToken) {
        String name = nameToken.getText();
        locals.add(name);
        out.add(new Instr.LocalStore(name, origin(t)));
    }

    @Override public Void visitClosure(ClosureContext ctx) {
        Token open = ctx.CLOSURE_OPEN().getSymbol();
        Optional<Type.Fn> signature = signatureAfter(open);
        if (signature.isEmpty() && !hasSignatureToken(open)) {
            report(ForthCode.MISSING_SIGNATURE.at(origin(open), "a closure needs its signature right after '[:', e.g. [: ( int -- int ) dup * ;]"));
        }
        Block body = block(ctx.items());
        signature.ifPresent(fn -> out.add(new Instr.Closure(fn, body, origin(open))));
        return null;
    }

    // ------------------------------------------------------------------------------------------------ data

    @Override public Void visitList(ListContext ctx) {
        out.add(new Instr.ListLit(elements(ctx.elements()), origin(ctx.start)));
        return null;
    }

    @Override public Void visitMap(MapContext ctx) {
        out.add(new Instr.MapLit(elements(ctx.elements()), origin(ctx.start)));
        return null;
    }

    @Override public Void visitRecord(RecordContext ctx) {
        List<Instr.RecordLit.Field> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (FieldContext f : ctx.field()) {
            Token label = f.FIELD().getSymbol();
            String name = label.getText().substring(0, label.getText().length() - 1);
            if (!names.add(name)) report(ForthCode.DUPLICATE_FIELD.at(origin(label), "field '" + name + "' appears twice in this record"));
            fields.add(new Instr.RecordLit.Field(name, block(f.items()), origin(label)));
        }
        out.add(new Instr.RecordLit(fields, origin(ctx.start)));
        return null;
    }

    // ------------------------------------------------------------------------------------------------ words

    /**
     * A word spelled like a generic type whose {@code < >} did not close on its token (compiled once, not per word; in a
     * holder, so that a fresh JVM compiles it only when a word has a {@code <} — a regular expression's character
     * classes link lambdas, milliseconds in a JVM's first submission).
     */
    private static final class UnbalancedTypeParameter {
        static final java.util.regex.Pattern PATTERN = java.util.regex.Pattern.compile("[a-z][a-z0-9-]*<.*");
    }

    @Override public Void visitWord(WordContext ctx) { word(ctx.start); return null; }

    private void word(Token t) {
        String name = t.getText();
        if (takesField(name)) {
            fuseFieldName(t, name);
        } else if (name.indexOf('<') > 0 && UnbalancedTypeParameter.PATTERN.matcher(name).matches()) {
            report(ForthCode.BAD_TYPE_PARAMETER.at(origin(t), "'" + name + "': the < > parameters do not balance (or span a line)"));
        } else if (locals.contains(name)) {
            out.add(new Instr.LocalLoad(name, origin(t)));
        } else {
            out.add(new Instr.Call(name, origin(t)));
        }
    }

    /** {@code "city" record-get}: the literal just pushed becomes the immediate (the shared IR has no dynamic field names). */
    private void fuseFieldName(Token t, String name) {
        Token previous = previousDefault(t);
        if (previous != null && (previous.getType() == CoForthLexer.STRING || previous.getType() == CoForthLexer.SSTRING)
                && !out.isEmpty() && out.get(out.size() - 1) instanceof Instr.Push p
                && p.literal() instanceof Literal.StringLit s && p.origin().equals(origin(previous))) {
            out.remove(out.size() - 1);
            out.add(new Instr.Call(name, List.of(new Immediate.NameArg(s.value())), p.origin()));
            return;
        }
        if (previous != null && (previous.getType() == CoForthLexer.STRING || previous.getType() == CoForthLexer.SSTRING)) {
            return; // the string itself was malformed and already reported
        }
        report(ForthCode.FIELD_NAME_NOT_LITERAL.at(origin(t), "'" + name + "' needs the field name as a string literal right before it, e.g. \"city\" " + name,
                "a string literal", previous == null ? "start of input" : previous.getText()));
    }

    /** True when {@code name} is written after its literal field name ({@code "city" record-get}). */
    private boolean takesField(String name) {
        Optional<WordSpec> w = vocabulary.word(name);
        return w.isPresent() && w.get().typing().immediates().contains(Typing.Immediate.FIELD);
    }

    /**
     * {@code name<…>}: the static arguments of a word whose typing takes them, in the shape its {@link Typing}
     * declares ({@code variant<T,tag>}, {@code empty-map<K,V>}), or one type that ascribes an ordinary word's output.
     */
    @Override public Void visitParamWord(ParamWordContext ctx) { paramWord(ctx.start); return null; }

    private void paramWord(Token t) {
        String text = t.getText();
        int open = text.indexOf('<');
        String name = text.substring(0, open);
        String inner = text.substring(open + 1, text.length() - 1);
        int innerAt = open + 1;
        Optional<WordSpec> spec = vocabulary.word(name);
        List<Typing.Immediate> shape = spec.map(w -> w.typing() == Typing.ORDINARY ? List.of(Typing.Immediate.TYPE) : w.typing().immediates())
                .filter(l -> !l.isEmpty() && !l.contains(Typing.Immediate.FIELD)).orElse(null);
        if (shape == null) {
            report(ForthCode.UNKNOWN_PARAMETERIZED.at(origin(t), "'" + name + "<…>' takes no parameters; " + parameterized()));
            return;
        }
        List<Integer> commas = topLevelCommas(inner);
        if (commas.size() != shape.size() - 1) {
            report(ForthCode.BAD_TYPE_PARAMETER.at(origin(t), "'" + name + "' is written " + form(name, shape) + ", with " + shape.size()
                    + " parameter" + (shape.size() == 1 ? "" : "s")));
            return;
        }
        List<Immediate> immediates = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < shape.size(); i++) {
            int to = i < commas.size() ? commas.get(i) : inner.length();
            String part = inner.substring(from, to);
            int at = innerAt + from;
            Optional<? extends Immediate> imm = shape.get(i) == Typing.Immediate.TYPE ? type(t, at, part).map(Immediate.TypeArg::new)
                    : tag(t, at, part).map(Immediate.NameArg::new);
            if (imm.isEmpty()) return;
            immediates.add(imm.get());
            from = to + 1;
        }
        out.add(new Instr.Call(name, immediates, origin(t)));
    }

    /** The spelling of a parameterized word for messages: {@code variant<T,tag>}. */
    private static String form(String name, List<Typing.Immediate> shape) {
        long types = shape.stream().filter(i -> i == Typing.Immediate.TYPE).count();
        List<String> typeNames = types == 2 ? List.of("K", "V") : List.of("T");
        List<String> parts = new ArrayList<>();
        int k = 0;
        for (Typing.Immediate i : shape) parts.add(i == Typing.Immediate.TAG ? "tag" : typeNames.get(k++));
        return name + "<" + String.join(",", parts) + ">";
    }

    /** The words of this vocabulary that take parameters, for the message of a word that does not. */
    private String parameterized() {
        List<String> forms = new ArrayList<>();
        for (WordSpec w : vocabulary.words()) if (w.typing().bracketed()) forms.add(form(w.name(), w.typing().immediates()));
        forms.add("constant<T>");
        return "only " + String.join(", ", forms) + " take < > parameters (and a vocabulary word's output may be ascribed as word<T>)";
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private Optional<Type> type(Token t, int at, String text) {
        try {
            return Optional.of(TypeSyntax.parse(text.strip(), budget.limits().maxNesting(), budget.limits().maxTypeSize(), TypeNames.resolver(named())));
        } catch (TypeSyntax.TypeSyntaxException e) {
            int lead = text.length() - text.stripLeading().length();
            Origin where = originAt(t, at + lead + e.offset());
            refuseOverLimit(e, where);
            report(ForthCode.BAD_TYPE_PARAMETER.at(where, "malformed type '" + clip(text.strip()) + "': " + e.getMessage()));
        } catch (RuntimeException e) {
            report(ForthCode.BAD_TYPE_PARAMETER.at(originAt(t, at), "malformed type '" + clip(text.strip()) + "'"));
        }
        return Optional.empty();
    }

    /** A written type past the compile limits is the limit's diagnostic (thrown), not a malformed type. */
    private void refuseOverLimit(TypeSyntax.TypeSyntaxException e, Origin where) {
        switch (e.problem()) {
            case TOO_DEEP -> budget.nesting(Phase.PARSE, (int) Math.min(Integer.MAX_VALUE, e.measured()), where);
            case TOO_LARGE -> budget.typeSize(Phase.PARSE, e.measured(), where);
            case MALFORMED -> { }
        }
    }

    /** At most 80 characters of {@code s}, for a message. */
    private static String clip(String s) { return s.length() <= 80 ? s : s.substring(0, 77) + "..."; }

    private Optional<String> tag(Token t, int at, String text) {
        String tag = text.strip();
        if (tag.matches(NAME)) return Optional.of(tag);
        report(ForthCode.BAD_TYPE_PARAMETER.at(originAt(t, at), "'" + tag + "' is not a tag name"));
        return Optional.empty();
    }

    /** The commas separating the parameters of {@code name<…>}; "->" is an arrow, not a closing bracket. */
    private static List<Integer> topLevelCommas(String s) {
        int depth = 0;
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '>') { i++; continue; }
            if (c == '(' || c == '{' || c == '[' || c == '<') depth++;
            else if (c == ')' || c == '}' || c == ']' || c == '>') depth--;
            else if (c == ',' && depth == 0) out.add(i);
        }
        return out;
    }

    /** The signature is the PAREN comment directly after {@code t} (decisions D7), if there is one. */
    private Optional<Type.Fn> signatureAfter(Token t) {
        List<Token> hidden = tokens.getHiddenTokensToRight(t.getTokenIndex());
        if (hidden == null || hidden.isEmpty() || hidden.get(0).getType() != CoForthParser.PAREN) return Optional.empty();
        Token paren = hidden.get(0);
        String text = paren.getText();
        String inner = text.substring(1, text.length() - 1);
        int dashes = separator(inner);
        if (dashes < 0) {
            report(ForthCode.BAD_SIGNATURE.at(origin(paren), "a signature separates inputs from outputs with '--': ( int int -- int )",
                    "ins -- outs", text));
            return Optional.empty();
        }
        String compact = inner.substring(0, dashes) + "->" + inner.substring(dashes + 2);
        try {
            return Optional.of(TypeSyntax.parseSignature(compact, budget.limits().maxNesting(), budget.limits().maxTypeSize(), TypeNames.resolver(named())));
        } catch (TypeSyntax.TypeSyntaxException e) {
            Origin where = originAt(paren, 1 + e.offset());
            refuseOverLimit(e, where);
            report(ForthCode.BAD_SIGNATURE.at(where, "malformed signature " + clip(text) + ": " + e.getMessage()));
        } catch (RuntimeException e) {
            report(ForthCode.BAD_SIGNATURE.at(origin(paren), "malformed signature " + clip(text)));
        }
        return Optional.empty();
    }

    private boolean hasSignatureToken(Token t) {
        List<Token> hidden = tokens.getHiddenTokensToRight(t.getTokenIndex());
        return hidden != null && !hidden.isEmpty() && hidden.get(0).getType() == CoForthParser.PAREN;
    }

    /** The offset of the standalone '--' (or '->') outside brackets; -1 when there is none. */
    private static int separator(String s) {
        int depth = 0;
        int arrow = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '{' || c == '[') depth++;
            else if (c == ')' || c == '}' || c == ']') depth--;
            else if (depth == 0 && (s.startsWith("--", i) || s.startsWith("->", i))
                    && (i == 0 || Character.isWhitespace(s.charAt(i - 1)))
                    && (i + 2 == s.length() || Character.isWhitespace(s.charAt(i + 2)))) {
                if (c == '-' && s.charAt(i + 1) == '-') return i;
                if (arrow < 0) arrow = i;
            }
        }
        return arrow;
    }

    private Optional<Long> parseInt(Token t) {
        String text = t.getText();
        boolean negative = text.startsWith("-");
        String digits = negative ? text.substring(1) : text;
        try {
            if (digits.startsWith("0x") || digits.startsWith("0X")) return Optional.of(Long.parseLong((negative ? "-" : "") + digits.substring(2), 16));
            return Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            report(ForthCode.BAD_NUMBER.at(origin(t), "int literal " + text + " does not fit in 64 bits", "-9223372036854775808 … 9223372036854775807", text));
            return Optional.empty();
        }
    }

    private void push(Literal literal, Token t) { out.add(new Instr.Push(literal, origin(t))); }

    private Token previousDefault(Token t) {
        for (int i = t.getTokenIndex() - 1; i >= 0; i--) {
            Token p = tokens.get(i);
            if (p.getChannel() == Token.DEFAULT_CHANNEL) return p;
        }
        return null;
    }

    private void report(Diagnostic d) { diagnostics.add(d); }

    /** {@link #named}, copied from the session's at the first type a program writes (most write none). */
    private Map<String, Type> named() {
        if (named == null) named = new HashMap<>(env.namedTypes());
        return named;
    }

    private Origin origin(Token t) { return Structure.origin(t, sourceId); }

    /** The origin of the character {@code offset} code units into {@code t}'s text (tokens may span lines). */
    private Origin originAt(Token t, int offset) {
        String text = t.getText();
        int line = t.getLine();
        int column = t.getCharPositionInLine() + 1;
        for (int i = 0; i < Math.min(offset, text.length()); i++) {
            char c = text.charAt(i);
            if (c == '\n') { line++; column = 1; }
            else if (!Character.isLowSurrogate(c)) column++;
        }
        return Origin.of(sourceId, line, column);
    }
}
