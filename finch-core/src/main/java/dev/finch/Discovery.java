package dev.finch;

import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.print.CoForthPrinter;
import dev.finch.ir.vocab.SourceSyntax;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The discovery tools of the contract ({@code get_vm_state}, {@code get_language_definition}, {@code search_word},
 * {@code inspect_word}) over one committed session state. Everything here is read-only and derived from two
 * sources: the session's {@link Vocabulary} (Finch's and the host's words), {@link SourceSyntax}, and the session's
 * committed {@link VmState}. Reach it through
 * {@link Session#getVmState()} and its siblings; {@link #languageDefinition()} needs no session.
 */
public final class Discovery {
    private static final String GRAMMAR_RESOURCE = "language-grammar.md";
    /** The last definition built, with the vocabulary it describes (a Finch's sessions share one vocabulary). */
    private static volatile Object[] language;
    /** The last primer built: the vocabulary, the language (null: Lisp and Co-Forth) and the primer (asked for on every turn). */
    private static volatile Object[] primer;

    private Discovery() { }

    /** One committed state of a session, read once so that every field of a report agrees. */
    record View(String sessionId, VmState state, long revision, long generation) { }

    // ------------------------------------------------------------------------------------------- vm state

    static VmStateReport vmState(View v) {
        List<StackEntry> stack = StackDisplay.entries(v.state());
        List<VmStateReport.DefinitionEntry> defs = new ArrayList<>();
        new TreeMap<>(v.state().words()).forEach((n, w) -> {
            if (!dev.finch.ir.instr.WordDef.isInternal(n)) defs.add(new VmStateReport.DefinitionEntry(n, w.signature().toString()));
        });
        List<VmStateReport.ConstantEntry> consts = new ArrayList<>();
        TreeMap<String, TypedValue> named = new TreeMap<>(v.state().constants());
        named.keySet().removeIf(dev.finch.ir.instr.WordDef::isInternal); // named types' carriers, and a frontend's own
        // Bounded as a whole, like the stack: the last constant by name first.
        String[] shown = StackDisplay.displays(List.copyOf(named.values()));
        int i = 0;
        for (Map.Entry<String, TypedValue> c : named.entrySet()) consts.add(new VmStateReport.ConstantEntry(c.getKey(), c.getValue().type().toString(), shown[i++]));
        return new VmStateReport(v.sessionId(), stack, v.revision(), v.generation(), defs, consts);
    }

    // ------------------------------------------------------------------------------------------- language

    /** The language definition of Finch's own words (no host words): what {@code finch language} prints. */
    public static LanguageDefinition languageDefinition() { return languageDefinition(VmState.EMPTY.library().vocabulary()); }

    /** One language's definition of Finch's own words: what {@code finch language --lang L} prints. */
    public static LanguageDefinition languageDefinition(Language language) {
        return languageDefinition(VmState.EMPTY.library().vocabulary(), language);
    }

    /**
     * The language definition over {@code vocabulary}: the fixed grammar text plus the syntax and the words
     * (Finch's and the host's) generated from the vocabulary, the one source of truth.
     */
    public static LanguageDefinition languageDefinition(Vocabulary vocabulary) {
        Object[] l = language;
        if (l != null && l[0] == vocabulary) return (LanguageDefinition) l[1];
        LanguageDefinition built = buildLanguageDefinition(vocabulary, null);
        language = new Object[] {vocabulary, built};
        return built;
    }

    /**
     * One language's part of the definition over {@code vocabulary}: the shared sections, that language's grammar
     * and syntax, and (for Lisp and Co-Forth, which call them) the core words; {@code null} for all three.
     */
    public static LanguageDefinition languageDefinition(Vocabulary vocabulary, Language only) {
        return only == null ? languageDefinition(vocabulary) : buildLanguageDefinition(vocabulary, only);
    }

    /** The primer of Finch's own words for Lisp and Co-Forth: what {@code finch language --primer} prints. */
    public static LanguageDefinition primer() { return primer(VmState.EMPTY.library().vocabulary(), null); }

    /** One language's primer of Finch's own words: what {@code finch language --primer --lang L} prints. */
    public static LanguageDefinition primer(Language language) { return primer(VmState.EMPTY.library().vocabulary(), language); }

    /**
     * The primer over {@code vocabulary}: the part of the definition a model needs on every turn, selected from the
     * same grammar text, syntax table and vocabulary as the full definition ({@link Primer}); for {@code only} one
     * language ({@code null}: Lisp and Co-Forth together; µNorman has a primer of its own).
     */
    public static LanguageDefinition primer(Vocabulary vocabulary, Language only) {
        Object[] p = primer;
        if (p != null && p[0] == vocabulary && p[1] == only) return (LanguageDefinition) p[2];
        LanguageDefinition built = Primer.build(vocabulary, grammarText().replace(VARIADIC, variadic(vocabulary)), only);
        primer = new Object[] {vocabulary, only, built};
        return built;
    }

    /** The definition over {@code vocabulary} at {@code detail}, for {@code only} one language ({@code null}: all it covers). */
    public static LanguageDefinition languageDefinition(Vocabulary vocabulary, Language only, LanguageDefinition.Detail detail) {
        return detail == LanguageDefinition.Detail.PRIMER ? primer(vocabulary, only) : languageDefinition(vocabulary, only);
    }

    /**
     * The sections of the grammar text (its {@code ## } headings, by their first word) and the languages each serves:
     * a section for every language is shared. A heading missing here fails the build of the definition.
     */
    private static final Map<String, List<Language>> SECTIONS = Map.of(
            "Submitting", List.of(Language.LISP, Language.FORTH, Language.NORMAN),
            "Co-Forth", List.of(Language.FORTH),
            "Lisp", List.of(Language.LISP),
            "Types", List.of(Language.LISP, Language.FORTH),
            "µNorman", List.of(Language.NORMAN));

    private static LanguageDefinition buildLanguageDefinition(Vocabulary vocabulary, Language only) {
        List<Language> languages = only == null ? List.of(Language.FORTH, Language.LISP, Language.NORMAN) : List.of(only);
        String grammar = grammarSections(Primer.unmarked(grammarText()), languages).replace(VARIADIC, variadic(vocabulary));
        List<SyntaxSpec> syntax = new ArrayList<>();
        for (Language lang : languages) syntax.addAll(SourceSyntax.of(lang.spelling()));
        boolean words = languages.contains(Language.FORTH) || languages.contains(Language.LISP);
        Map<WordSpec.Category, List<WordSummary>> byCategory = new LinkedHashMap<>();
        for (WordSpec.Category c : WordSpec.Category.values()) byCategory.put(c, new ArrayList<>());
        if (words) for (WordSpec w : vocabulary.words()) byCategory.get(w.category()).add(summary(w));
        List<LanguageDefinition.Category> categories = new ArrayList<>();
        byCategory.forEach((c, ws) -> {
            if (!ws.isEmpty()) categories.add(new LanguageDefinition.Category(categoryName(c), ws));
        });

        StringBuilder b = new StringBuilder();
        b.append("# Finch language definition (").append(Outcome.PROTOCOL).append(")");
        if (only != null) b.append(": ").append(only.spelling()).append(" only (finch language prints all three)");
        b.append("\n\n").append(grammar.strip()).append("\n\n");
        for (Language lang : languages) {
            b.append("## ").append(title(lang)).append(" syntax (forms, not callables)\n\n");
            for (SyntaxSpec s : SourceSyntax.of(lang.spelling())) b.append("- `").append(s.form()).append("` ").append(s.doc()).append('\n');
            b.append('\n');
        }
        if (words) {
            b.append("## Core words by category (`name : signature`; Lisp and Co-Forth call them)\n");
            for (LanguageDefinition.Category c : categories) {
                b.append("\n### ").append(c.name()).append("\n\n");
                for (WordSummary w : c.words()) {
                    b.append("- `").append(w.name()).append(" : ").append(w.summary()).append("` ").append(w.doc()).append('\n');
                }
            }
            b.append('\n');
        }
        b.append("Use search_word and inspect_word (`finch inspect NAME`) for one word or form, get_vm_state for the session's own definitions.\n");
        return new LanguageDefinition(Outcome.PROTOCOL, LanguageDefinition.Detail.FULL, grammar, syntax, categories, b.toString());
    }

    /** Where the grammar text names the words Lisp folds over any number of arguments. */
    private static final String VARIADIC = "<<lisp-variadic>>";

    /** The words Lisp folds from the left over more than two arguments ({@code (+ 1 2 3)}), from their declarations. */
    private static String variadic(Vocabulary vocabulary) {
        StringBuilder b = new StringBuilder();
        for (WordSpec w : vocabulary.words()) {
            if (!w.foldsLeft()) continue;
            b.append(b.length() == 0 ? "`" : " ").append(w.name());
        }
        return b.length() == 0 ? "No words" : b.append('`').toString();
    }

    private static String title(Language l) {
        switch (l) {
            case FORTH: return "Co-Forth";
            case LISP: return "Lisp";
            default: return "µNorman";
        }
    }

    /** The sections of {@code text} that serve one of {@code languages}, in the text's order. */
    static String grammarSections(String text, List<Language> languages) {
        StringBuilder out = new StringBuilder();
        for (String section : text.split("(?m)^(?=## )")) {
            if (section.isBlank()) continue;
            if (!section.startsWith("## ")) throw new IllegalStateException("the grammar text must start with a ## heading");
            String heading = section.substring(3, section.indexOf('\n') < 0 ? section.length() : section.indexOf('\n')).strip();
            String key = heading.split("[\\s(]", 2)[0];
            List<Language> serves = SECTIONS.get(key);
            if (serves == null) throw new IllegalStateException("grammar section '" + heading + "' serves no language: add it to Discovery.SECTIONS");
            if (serves.stream().anyMatch(languages::contains)) out.append(section.stripTrailing()).append("\n\n");
        }
        return out.toString().strip() + "\n";
    }

    /** The grammar text with its «primer» marks (the full definition drops them, the primer selects by them). */
    private static String grammarText() { return resource(GRAMMAR_RESOURCE); }

    /** A text resource of this package, read whole. */
    static String resource(String name) {
        try (InputStream in = Discovery.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("resource dev/finch/" + name + " is missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The category's spelling in listings and JSON: lowercase, as {@code vm-vocabulary} writes it. */
    static String categoryName(WordSpec.Category c) { return c.name().toLowerCase(Locale.ROOT); }

    // ------------------------------------------------------------------------------------------- inspect

    /**
     * What {@code name} denotes, resolved in the verifier's order (a persisted definition, then a constant, then a
     * core word), falling back to source syntax, which has no runtime meaning of its own.
     */
    static Optional<WordInfo> inspect(View v, String name) { return inspect(v, name, null); }

    /**
     * As {@link #inspect(View, String)}, with the forms of {@code language} first (all languages' forms are kept, so
     * that a Lisp {@code define} and a µNorman {@code define} both answer); {@code null} keeps documentation order.
     */
    static Optional<WordInfo> inspect(View v, String name, Language language) {
        if (name == null) return Optional.empty();
        String n = name.strip();
        List<SyntaxSpec> forms = new ArrayList<>(SourceSyntax.forms(n));
        if (language != null) forms.sort(Comparator.comparingInt(s -> s.languages().contains(language.spelling()) ? 0 : 1));
        CompiledWord w = v.state().words().get(n);
        if (w != null) return Optional.of(new WordInfo.Definition(n, w.signature().toString(), source(w)));
        TypedValue c = dev.finch.ir.instr.WordDef.isInternal(n) ? null : v.state().constants().get(n);
        if (c != null) return Optional.of(new WordInfo.Constant(n, c.type().toString(), StackDisplay.display(c, dev.finch.vm.value.Values.DISPLAY_LIMIT)));
        dev.finch.ir.type.Type structure = namedTypes(v).get(n);
        if (structure != null) return Optional.of(new WordInfo.NamedType(n, structure.toString()));
        Optional<WordSpec> core = v.state().library().vocabulary().word(n);
        if (core.isPresent()) {
            WordSpec s = core.get();
            List<String> overloads = s.signatures().stream().map(Object::toString).toList();
            return Optional.of(new WordInfo.CoreWord(n, s.signatureText(), overloads, categoryName(s.category()), s.doc(), s.special(), forms));
        }
        return forms.isEmpty() ? Optional.empty() : Optional.of(new WordInfo.Syntax(n, forms));
    }

    /**
     * The definition as canonical Co-Forth, rebuilt from its verified IR with its verified signature declared; empty for
     * a definition of a restored session that cannot be rebuilt (its diagnostic is the submission's that calls it).
     */
    private static Optional<String> source(CompiledWord w) {
        CheckedWord checked;
        try {
            checked = w.checked();
        } catch (CompiledWord.Unavailable e) {
            return Optional.empty();
        }
        if (checked == null) return Optional.empty();
        return Optional.of(coForth(w.name(), w.signature(), checked));
    }

    /** A verified definition as canonical Co-Forth, its verified signature declared. */
    static String coForth(String name, dev.finch.ir.type.Type.Fn signature, CheckedWord checked) {
        List<Instr> body = new ArrayList<>(checked.body().nodes().size());
        for (Node node : checked.body().nodes()) body.add(node.instr());
        return CoForthPrinter.print(new WordDef(name, Optional.of(signature), new Block(body), checked.origin()));
    }

    // ------------------------------------------------------------------------------------------- search

    /**
     * Every name that matches {@code query} by name or by meaning, best first ({@link WordSearch}): name matches
     * (equal, prefix, contains, every term in it) above matches by meaning over names, the names other languages give
     * a word or form, docs and signatures; ties go to session definitions and constants, then core words, then
     * syntax, then shorter names.
     */
    static List<WordSummary> search(View v, String query) {
        List<WordSearch.Entry> entries = new ArrayList<>();
        Map<String, List<String>> wordAka = new java.util.HashMap<>();
        for (WordSpec w : v.state().library().vocabulary().words()) wordAka.put(w.name(), w.aka());
        Map<String, List<String>> formAka = new java.util.HashMap<>();
        for (SyntaxSpec s : SourceSyntax.all()) formAka.put(s.form(), s.aka());   // a form is one language's
        for (WordSummary s : everything(v)) {
            List<String> aka = s.kind() == WordKind.CORE_WORD ? wordAka.getOrDefault(s.name(), List.of())
                    : s.kind() == WordKind.SYNTAX ? formAka.getOrDefault(s.summary(), List.of()) : List.of();
            entries.add(new WordSearch.Entry(s, aka));
        }
        return WordSearch.rank(entries, query, Comparator.<WordSummary>comparingInt(s -> kindOrder(s.kind()))
                .thenComparingInt(s -> s.name().length())
                .thenComparing(WordSummary::name));
    }

    private static int kindOrder(WordKind k) {
        switch (k) {
            case DEFINITION: return 0;
            case CONSTANT: return 1;
            case CORE_WORD: return 2;
            default: return 3;
        }
    }

    /** Every name the session can discover, each once per kind. */
    static List<WordSummary> everything(View v) {
        List<WordSummary> all = new ArrayList<>();
        new TreeMap<>(v.state().words()).forEach((n, w) -> {
            if (!dev.finch.ir.instr.WordDef.isInternal(n)) all.add(new WordSummary(n, WordKind.DEFINITION, w.signature().toString(), ""));
        });
        new TreeMap<>(namedTypes(v)).forEach((n, t) -> all.add(new WordSummary(n, WordKind.NAMED_TYPE, t.toString(), "named type")));
        new TreeMap<>(v.state().constants()).forEach((n, c) -> {
            if (!dev.finch.ir.instr.WordDef.isInternal(n)) all.add(new WordSummary(n, WordKind.CONSTANT, c.type().toString(),
                    "= " + StackDisplay.display(c, StackDisplay.MIN_CHARS)));
        });
        for (WordSpec w : v.state().library().vocabulary().words()) all.add(summary(w));
        for (SyntaxSpec s : SourceSyntax.all()) {
            all.add(new WordSummary(s.name(), WordKind.SYNTAX, s.form(), "(" + String.join(", ", s.languages()) + ") " + s.doc()));
        }
        return all;
    }

    /** The session's named types (name → structure), from the constants that carry them. */
    private static Map<String, dev.finch.ir.type.Type> namedTypes(View v) {
        Map<String, dev.finch.ir.type.Type> types = new LinkedHashMap<>();
        v.state().constants().forEach((n, c) -> types.put(n, c.type()));
        return dev.finch.ir.type.TypeNames.in(types);
    }

    static WordSummary summary(WordSpec w) { return new WordSummary(w.name(), WordKind.CORE_WORD, w.signatureText(), w.doc()); }

    /**
     * Up to {@code max} names close to a name that denotes nothing — definitions, constants, core words and syntax
     * forms, ranked by closeness with a cutoff ({@link dev.finch.ir.diag.Suggestions#near}): none rather than noise.
     */
    static List<String> suggestions(View v, String name, int max) {
        String n = name == null ? "" : name.strip();
        // By meaning first (display is say, car is list-uncons, do is begin), then by spelling.
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (WordSpec w : v.state().library().vocabulary().byMeaning(n)) out.add(w.name());
        for (Language l : Language.values()) for (SyntaxSpec s : SourceSyntax.byMeaning(n, l.spelling())) out.add(s.name());
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (WordSummary s : everything(v)) names.add(s.name());
        out.addAll(dev.finch.ir.diag.Suggestions.near(n, names, max));
        return out.stream().limit(Math.max(0, max)).toList();
    }

    /**
     * The answer to inspecting a name that denotes nothing: that it is none, and — when another language's name for
     * something Finch has was meant ({@code display}, {@code car}, {@code do}) — what Finch calls it, with its signature
     * or form, for {@code language}'s forms (every language's when null).
     */
    public static String notFound(dev.finch.ir.vocab.Vocabulary vocabulary, String name, Language language) {
        String n = name == null ? "" : name.strip();
        java.util.Set<String> meant = new java.util.LinkedHashSet<>();
        for (Language l : Language.values()) {
            if (language == null || language == l) meant.addAll(dev.finch.ir.vocab.Meanings.of(n, l.spelling(), vocabulary));
        }
        StringBuilder b = new StringBuilder("'").append(n).append("' is no core word, definition, constant, named type or syntax");
        if (!meant.isEmpty()) {
            b.append("; in Finch that is ");
            int i = 0;
            for (String m : meant) {
                if (i > 0) b.append(i == meant.size() - 1 ? " or " : ", ");
                b.append('`').append(m).append('`');
                i++;
            }
        }
        return b.toString();
    }

    /** {@link #notFound(dev.finch.ir.vocab.Vocabulary, String, Language)}, then the names close to it when no meaning was found. */
    public static String notFound(dev.finch.ir.vocab.Vocabulary vocabulary, String name, Language language, List<String> close) {
        String s = notFound(vocabulary, name, language);
        return close.isEmpty() || s.contains("; in Finch that is") ? s : s + "; did you mean " + String.join(", ", close) + "?";
    }

}
