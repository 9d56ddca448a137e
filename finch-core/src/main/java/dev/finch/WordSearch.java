package dev.finch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code search_word}'s ranking: by name first (equal, prefix, contained, every term in it), then by meaning — a
 * weighted term match over each entry's name, the names other languages give it ({@code aka}), its documentation and
 * its signature, with light stemming ({@code splits}, {@code sorting} → {@code split}, {@code sort}), compound words
 * split into known terms ({@code uppercase} → {@code upper case}) and a small table of synonyms for the words models
 * use where Finch's names and docs use others ({@code size} for {@code length}, {@code dictionary} for {@code map}). Rare
 * terms weigh more than common ones (inverse document frequency over the entries searched). Deterministic: the same
 * entries and query always rank alike, ties broken by kind, name length and name.
 */
final class WordSearch {
    /** One searchable entry: its listing line and the other names it is known by. */
    record Entry(WordSummary summary, List<String> aka) { }

    private record Ranked(double score, Entry entry) { }

    /** Terms too common in queries to mean anything by themselves (never names: a query equal to a name still ranks it first). */
    private static final Set<String> STOP = Set.of("a", "an", "the", "of", "for", "with", "from", "into", "in", "on", "at", "my",
            "some", "all", "each", "every", "value", "values", "how", "do", "i", "is", "it", "this", "that");

    /**
     * Words models use for what Finch names otherwise, both ways. Each group is one meaning; the words Finch uses are
     * in its names and docs ({@code upcase}, {@code downcase}, {@code slice}, {@code say}, {@code map}, {@code list}).
     */
    private static final List<List<String>> SYNONYMS = List.of(
            List.of("upper", "upcase", "capital", "capitalize", "capitalise"),
            List.of("lower", "downcase"),
            List.of("length", "size", "count", "len", "number"),
            List.of("concat", "concatenate", "append", "join", "combine"),
            List.of("find", "search", "locate", "index", "position"),
            List.of("remove", "delete", "drop", "without"),
            List.of("substring", "slice", "substr", "part"),
            List.of("print", "display", "output", "write", "say", "emit", "show"),
            List.of("map", "dictionary", "dict", "hash", "hashmap", "table", "object"),
            List.of("list", "array", "vector", "sequence", "elements", "items"),
            List.of("string", "text", "str"),
            List.of("int", "integer", "number", "decimal"),
            List.of("float", "double", "real", "decimal"),
            List.of("read", "open", "load"),
            List.of("sort", "order", "sorted"),
            List.of("key", "comparator", "keys"),
            List.of("contains", "includes", "has", "member"),
            List.of("trim", "strip", "whitespace"),
            List.of("parse", "decode", "read"),
            List.of("stringify", "serialize", "encode", "dump"),
            List.of("first", "head", "front"),
            List.of("last", "end", "tail"),
            List.of("char", "character", "chars", "characters", "letter", "letters"),
            List.of("loop", "repeat", "iterate", "while"),
            List.of("fold", "reduce", "accumulate", "sum"),
            List.of("filter", "select", "keep", "where"),
            List.of("map", "transform", "apply"),
            List.of("error", "err", "failure", "fail"),
            List.of("option", "maybe", "optional", "nullable"),
            List.of("file", "files", "disk"),
            List.of("run", "execute", "call", "invoke"));

    private static final double NAME = 4, AKA = 3, DOC = 1, SIGNATURE = 0.5, SYNONYM = 0.6;

    private WordSearch() { }

    /** The entries that match {@code query} by name or meaning, best first. */
    static List<WordSummary> rank(List<Entry> entries, String query, Comparator<WordSummary> ties) {
        String q = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
        if (q.isEmpty()) return List.of();
        String[] raw = q.split("\\s+");
        List<Indexed> index = new ArrayList<>(entries.size());
        Map<String, Integer> df = new HashMap<>();
        for (Entry e : entries) {
            Indexed x = Indexed.of(e);
            index.add(x);
            for (String t : x.all) df.merge(t, 1, Integer::sum);
        }
        List<List<String>> terms = terms(raw, df.keySet());
        List<Ranked> hits = new ArrayList<>();
        for (Indexed x : index) {
            double score = nameScore(x.entry.summary().name().toLowerCase(Locale.ROOT), q, raw) + meaning(x, terms, df, index.size());
            if (score > 0) hits.add(new Ranked(score, x.entry));
        }
        hits.sort(Comparator.comparingDouble(Ranked::score).reversed()
                .thenComparing(r -> r.entry().summary(), ties));
        return hits.stream().map(r -> r.entry().summary()).toList();
    }

    /** The tiers of a name match, far above any match by meaning. */
    private static double nameScore(String name, String q, String[] raw) {
        String dashed = String.join("-", raw);
        if (name.equals(q) || name.equals(dashed)) return 10_000;
        if (name.startsWith(q) || name.startsWith(dashed)) return 5_000;
        if (name.contains(q) || name.contains(dashed)) return 3_000;
        if (raw.length > 1) {
            for (String t : raw) if (!name.contains(t)) return 0;
            return 2_000;
        }
        return 0;
    }

    /**
     * The query's meaningful terms, each with its alternatives: its stem, and when no entry knows it, its split into two
     * terms entries know ({@code uppercase} → {@code upper}, {@code case}); synonyms are added at scoring.
     */
    private static List<List<String>> terms(String[] raw, Set<String> known) {
        List<List<String>> out = new ArrayList<>();
        for (String r : raw) {
            for (String word : r.split("[^\\p{L}\\p{N}?!<>=+*/]+")) {
                if (word.isEmpty() || STOP.contains(word)) continue;
                String s = stem(word);
                if (!known.contains(s)) {
                    List<String> split = split(s, known);
                    if (!split.isEmpty()) {
                        for (String part : split) out.add(List.of(part));
                        continue;
                    }
                }
                out.add(List.of(s));
            }
        }
        return out;
    }

    /** {@code word} as two terms the entries know, longest first part first; empty when there is no such split. */
    private static List<String> split(String word, Set<String> known) {
        for (int i = word.length() - 2; i >= 2; i--) {
            String a = stem(word.substring(0, i)), b = stem(word.substring(i));
            if (known.contains(a) && known.contains(b)) return List.of(a, b);
        }
        return List.of();
    }

    private static double meaning(Indexed x, List<List<String>> terms, Map<String, Integer> df, int n) {
        if (terms.isEmpty()) return 0;
        double score = 0;
        int matched = 0;
        for (List<String> alternatives : terms) {
            double best = 0;
            for (String t : alternatives) {
                best = Math.max(best, weight(x, t, df, n));
                for (String syn : synonyms(t)) best = Math.max(best, SYNONYM * weight(x, syn, df, n));
            }
            if (best > 0) matched++;
            score += best;
        }
        // Most of the query must be answered: a doc that happens to hold one of two terms is no hit.
        if (matched * 2 <= terms.size()) return 0;
        // An entry that answers every term of the query beats one that answers a rare term alone.
        return score * matched / terms.size();
    }

    private static double weight(Indexed x, String term, Map<String, Integer> df, int n) {
        double field = x.name.contains(term) ? NAME : x.aka.contains(term) ? AKA : x.doc.contains(term) ? DOC
                : x.signature.contains(term) ? SIGNATURE : 0;
        if (field == 0) return 0;
        return field * Math.log(1 + (double) n / df.getOrDefault(term, 1));
    }

    private static Set<String> synonyms(String term) {
        Set<String> out = new LinkedHashSet<>();
        for (List<String> group : SYNONYMS) {
            if (!group.contains(term)) continue;
            for (String s : group) if (!s.equals(term)) out.add(stem(s));
        }
        return out;
    }

    /** A light, deterministic suffix stemmer: plurals and the common verb endings. */
    static String stem(String w) {
        if (w.length() > 5 && w.endsWith("ies")) return w.substring(0, w.length() - 3) + "y";
        if (w.length() > 5 && w.endsWith("ing")) return undouble(w.substring(0, w.length() - 3));
        if (w.length() > 4 && w.endsWith("ed")) return undouble(w.substring(0, w.length() - 2));
        if (w.length() > 4 && (w.endsWith("ches") || w.endsWith("shes") || w.endsWith("sses") || w.endsWith("xes"))) return w.substring(0, w.length() - 2);
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) return w.substring(0, w.length() - 1);
        return w;
    }

    private static String undouble(String w) {
        int n = w.length();
        return n > 2 && w.charAt(n - 1) == w.charAt(n - 2) && "lsz".indexOf(w.charAt(n - 1)) < 0 ? w.substring(0, n - 1) : w;
    }

    /** An entry's terms by field, stemmed. */
    private record Indexed(Entry entry, Set<String> name, Set<String> aka, Set<String> doc, Set<String> signature, Set<String> all) {
        static Indexed of(Entry e) {
            Set<String> name = tokens(e.summary().name());
            Set<String> aka = new HashSet<>();
            for (String a : e.aka()) aka.addAll(tokens(a));
            Set<String> doc = tokens(e.summary().doc());
            Set<String> signature = tokens(e.summary().summary());
            Set<String> all = new HashSet<>(name);
            all.addAll(aka);
            all.addAll(doc);
            all.addAll(signature);
            return new Indexed(e, name, aka, doc, signature, all);
        }
    }

    private static Set<String> tokens(String text) {
        Set<String> out = new HashSet<>();
        for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) if (!t.isEmpty()) out.add(stem(t));
        return out;
    }
}
