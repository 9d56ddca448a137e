package dev.finch;

import dev.finch.ir.vocab.SourceSyntax;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The primer: the part of the language definition a model needs on every turn (the grammar in brief, the type
 * spelling, the idioms, the rules that surprise, how to look the rest up), at a quarter of the full text's size.
 * Nothing in it is a second copy of a fact: a template ({@code primer-lisp-forth.md}, {@code primer-norman.md}) holds
 * the primer's order, its headings and its runnable idiom examples, and directives that select from the one source of
 * each fact —
 * <ul>
 *   <li>{@code {{grammar Section}}}: the spans of the grammar text's section marked {@code «…»} (the full text drops the marks);</li>
 *   <li>{@code {{quote Section "text"}}}: text the grammar section holds word for word (refused when it does not);</li>
 *   <li>{@code {{forms lang name…}}}, {@code {{form lang name}}}: forms of the syntax table with their meaning;</li>
 *   <li>{@code {{words name…}}}: words of the vocabulary, each {@code name : signature} and the first clause of its doc;</li>
 *   <li>{@code {{sigs name…}}}: words of the vocabulary as {@code name : signature} only, on one line, for names that say what they do;</li>
 *   <li>{@code {{word name}}}: one word with its whole doc;</li>
 *   <li>{@code {{family name…}}}: words that share one signature, which is shown once (refused when they do not).</li>
 * </ul>
 * A template's {@code ## } sections name the languages they serve ({@code ## Lisp {lisp}}); a directive naming
 * anything that does not exist fails the build of the primer, so the primer cannot drift from its sources.
 */
final class Primer {
    private static final Pattern DIRECTIVE = Pattern.compile("\\{\\{(\\w+)((?:\\s+[^}\\s]+|\\s+\"[^\"]*\")*)\\s*}}");
    private static final Pattern SECTION_TAG = Pattern.compile("^(## .*?)\\s*\\{([a-z ]+)}\\s*$");
    /** The longest first clause of a word's doc a {@code {{words}}} line shows before it is cut. */
    static final int SHORT_DOC = 64;

    private Primer() { }

    /** The template for {@code language}: Lisp and Co-Forth share one, µNorman has its own. */
    static String templateName(Language language) { return language == Language.NORMAN ? "primer-norman.md" : "primer-lisp-forth.md"; }

    /**
     * The primer over {@code vocabulary} for {@code only} ({@code null}: Lisp and Co-Forth together), with the words and
     * forms it names, as a {@link LanguageDefinition} of detail {@link LanguageDefinition.Detail#PRIMER}.
     */
    static LanguageDefinition build(Vocabulary vocabulary, String grammar, Language only) {
        String template = Discovery.resource(templateName(only));
        Set<String> serves = only == null ? Set.of(Language.LISP.spelling(), Language.FORTH.spelling()) : Set.of(only.spelling());
        Named named = new Named();
        StringBuilder out = new StringBuilder();
        StringBuilder grammarParts = new StringBuilder();
        for (String section : template.split("(?m)^(?=## )")) {
            String body = section;
            if (section.startsWith("## ")) {
                int eol = section.indexOf('\n');
                String heading = eol < 0 ? section : section.substring(0, eol);
                Matcher m = SECTION_TAG.matcher(heading);
                if (!m.matches()) throw new IllegalStateException("primer section '" + heading + "' names no languages ({lisp forth})");
                boolean wanted = false;
                for (String l : m.group(2).trim().split("\\s+")) wanted |= serves.contains(l);
                if (!wanted) continue;
                body = m.group(1) + (eol < 0 ? "" : section.substring(eol));
            }
            out.append(expand(body, vocabulary, grammar, named, grammarParts));
        }
        String text = out.toString().replaceAll("\n{3,}", "\n\n").strip() + "\n";
        List<LanguageDefinition.Category> categories = new ArrayList<>();
        Map<WordSpec.Category, List<WordSummary>> byCategory = new LinkedHashMap<>();
        for (WordSpec w : named.words) byCategory.computeIfAbsent(w.category(), c -> new ArrayList<>()).add(Discovery.summary(w));
        byCategory.forEach((c, ws) -> categories.add(new LanguageDefinition.Category(Discovery.categoryName(c), ws)));
        return new LanguageDefinition(Outcome.PROTOCOL, LanguageDefinition.Detail.PRIMER, grammarParts.toString().strip() + "\n",
                List.copyOf(named.forms), categories, text);
    }

    /** The words and forms a primer names, in the order it names them. */
    private static final class Named {
        final Set<WordSpec> words = new LinkedHashSet<>();
        final Set<SyntaxSpec> forms = new LinkedHashSet<>();
    }

    private static String expand(String body, Vocabulary vocabulary, String grammar, Named named, StringBuilder grammarParts) {
        Matcher m = DIRECTIVE.matcher(body);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            List<String> args = arguments(m.group(2));
            String replacement = switch (m.group(1)) {
                case "grammar" -> {
                    String spans = spans(section(grammar, one(m, args)));
                    grammarParts.append(spans).append("\n\n");
                    yield spans;
                }
                case "quote" -> quote(grammar, m, args);
                case "forms" -> forms(m, args, named, false);
                case "form" -> forms(m, args, named, true);
                case "words" -> words(vocabulary, m, args, named);
                case "word" -> {
                    WordSpec w = word(vocabulary, one(m, args));
                    named.words.add(w);
                    yield "`" + w.name() + " : " + w.signatureText() + "` " + w.doc();
                }
                case "family" -> family(vocabulary, m, args, named);
                case "sigs" -> sigs(vocabulary, args, named);
                case "protocol" -> Outcome.PROTOCOL;
                default -> throw new IllegalStateException("unknown primer directive " + m.group());
            };
            m.appendReplacement(b, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(b);
        return b.toString();
    }

    private static List<String> arguments(String text) {
        List<String> out = new ArrayList<>();
        Matcher a = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(text);
        while (a.find()) out.add(a.group(1) != null ? a.group(1) : a.group(2));
        return out;
    }

    private static String one(Matcher m, List<String> args) {
        if (args.size() != 1) throw new IllegalStateException("primer directive " + m.group() + " takes one argument");
        return args.get(0);
    }

    /** The grammar text's section whose heading starts with {@code key} ({@code Co-Forth}, {@code Types}, …). */
    private static String section(String grammar, String key) {
        for (String s : grammar.split("(?m)^(?=## )")) {
            if (s.startsWith("## " + key)) return s;
        }
        throw new IllegalStateException("the grammar text has no section " + key);
    }

    /**
     * The {@code «…»} spans of a section, joined as the text between them was laid out: a blank line across
     * paragraphs, a line break between whole lines (a code block's, a list's), else a space.
     */
    static String spans(String section) {
        StringBuilder b = new StringBuilder();
        int end = -1;
        Matcher m = Pattern.compile("«(.*?)»", Pattern.DOTALL).matcher(section);
        while (m.find()) {
            if (end >= 0) {
                String between = section.substring(end, m.start());
                boolean lines = between.startsWith("\n") && between.endsWith("\n");
                b.append(between.contains("\n\n") ? "\n\n" : lines ? "\n" : " ");
            }
            b.append(m.group(1));
            end = m.end();
        }
        if (end < 0) throw new IllegalStateException("the grammar section " + section.lines().findFirst().orElse("") + " marks no «primer» span");
        return reflow(b.toString());
    }

    /** The width prose is wrapped to, as the grammar text wraps it. */
    static final int WIDTH = 116;

    /**
     * Each prose paragraph (not a code block, not a list) wrapped again to {@link #WIDTH}, so that spans joined within a
     * paragraph read as one; code and lists keep their lines.
     */
    static String reflow(String text) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (String paragraph : text.split("\n\n", -1)) {
            if (out.length() > 0) out.append("\n\n");
            boolean fenced = paragraph.startsWith("```");
            if (fenced || code || paragraph.startsWith("- ")) {
                out.append(paragraph);
                // A code block with a blank line inside stays open across paragraphs.
                long fences = paragraph.lines().filter(l -> l.startsWith("```")).count();
                if (fences % 2 == 1) code = !code;
                continue;
            }
            StringBuilder line = new StringBuilder();
            for (String word : paragraph.strip().split("\\s+")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH) {
                    out.append(line).append('\n');
                    line.setLength(0);
                }
                if (line.length() > 0) line.append(' ');
                line.append(word);
            }
            out.append(line);
        }
        return out.toString();
    }

    /** The grammar text without its primer marks: what the full definition shows. */
    static String unmarked(String grammar) { return grammar.replace("«", "").replace("»", ""); }

    private static String quote(String grammar, Matcher m, List<String> args) {
        if (args.size() != 2) throw new IllegalStateException("primer directive " + m.group() + " takes a section and a quoted text");
        String text = args.get(1);
        String flat = unmarked(section(grammar, args.get(0))).replaceAll("\\s+", " ");
        if (!flat.contains(text)) throw new IllegalStateException("the grammar section " + args.get(0) + " does not say \"" + text + "\"");
        return text;
    }

    private static String forms(Matcher m, List<String> args, Named named, boolean inline) {
        if (args.size() < 2 || inline && args.size() != 2) throw new IllegalStateException("primer directive " + m.group() + " takes a language and form names");
        String language = args.get(0);
        StringBuilder b = new StringBuilder();
        for (String name : args.subList(1, args.size())) {
            SyntaxSpec s = SourceSyntax.named(name, language)
                    .orElseThrow(() -> new IllegalStateException("no " + language + " form " + name + " (primer directive " + m.group() + ")"));
            named.forms.add(s);
            if (b.length() > 0) b.append('\n');
            b.append(inline ? "" : "- ").append('`').append(s.form()).append("` ").append(s.doc());
        }
        return b.toString();
    }

    private static String words(Vocabulary vocabulary, Matcher m, List<String> args, Named named) {
        StringBuilder b = new StringBuilder();
        for (String name : args) {
            WordSpec w = word(vocabulary, name);
            named.words.add(w);
            if (b.length() > 0) b.append('\n');
            b.append("- `").append(w.name()).append(" : ").append(w.signatureText()).append("` ").append(shortDoc(w.doc()));
        }
        return b.toString();
    }

    private static String sigs(Vocabulary vocabulary, List<String> args, Named named) {
        StringBuilder b = new StringBuilder("- ");
        for (String name : args) {
            WordSpec w = word(vocabulary, name);
            named.words.add(w);
            if (b.length() > 2) b.append(", ");
            b.append('`').append(w.name()).append(" : ").append(w.signatureText()).append('`');
        }
        return b.toString();
    }

    private static String family(Vocabulary vocabulary, Matcher m, List<String> args, Named named) {
        String signature = null;
        StringBuilder b = new StringBuilder("- ");
        for (String name : args) {
            WordSpec w = word(vocabulary, name);
            if (signature == null) signature = w.signatureText();
            else if (!signature.equals(w.signatureText())) {
                throw new IllegalStateException("primer directive " + m.group() + ": " + name + " is " + w.signatureText() + ", not " + signature);
            }
            named.words.add(w);
            b.append('`').append(name).append("` ");
        }
        return b.append(": `").append(signature).append('`').toString();
    }

    private static WordSpec word(Vocabulary vocabulary, String name) {
        return vocabulary.word(name).orElseThrow(() -> new IllegalStateException("the primer names " + name + ", which is no word"));
    }

    /**
     * The first clause of a doc: up to its first sentence end or semicolon outside parentheses, cut at a word
     * boundary with … past {@link #SHORT_DOC} characters.
     */
    static String shortDoc(String doc) {
        int depth = 0;
        int cut = doc.length();
        for (int i = 0; i < doc.length(); i++) {
            char c = doc.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth = Math.max(0, depth - 1);
            else if (depth == 0 && (c == ';' || c == '.' && (i + 1 == doc.length() || doc.charAt(i + 1) == ' '))) {
                cut = c == '.' ? i + 1 : i;
                break;
            }
        }
        String s = doc.substring(0, cut).strip();
        if (s.length() <= SHORT_DOC) return s;
        int space = s.lastIndexOf(' ', SHORT_DOC - 1);
        return s.substring(0, space < 0 ? SHORT_DOC - 1 : space) + " …";
    }
}
