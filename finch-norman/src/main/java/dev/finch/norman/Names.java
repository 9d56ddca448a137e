package dev.finch.norman;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * "Did you mean" for µNorman: the µNorman names near an unknown one (what is bound where it is used, the file's
 * definitions and grants, the primitives and µNorman's own forms), and µNorman's spelling of the forms a model
 * writes from other Lisps ({@code match} is {@code case} here).
 */
final class Names {
    private Names() { }

    /** Forms of other languages, by the µNorman form that does their job. */
    private static final Map<String, String> ELSEWHERE = Map.ofEntries(
            Map.entry("match", "case"), Map.entry("cond", "case"), Map.entry("switch", "case"), Map.entry("when", "if"),
            Map.entry("unless", "if"), Map.entry("let", "let*"), Map.entry("letrec", "let*"), Map.entry("progn", "begin"),
            Map.entry("do", "begin"), Map.entry("defn", "define"), Map.entry("def", "define"), Map.entry("defun", "define"),
            Map.entry("fn", "lambda"), Map.entry("try", "catch"), Map.entry("raise", "fail"), Map.entry("throw", "fail"),
            Map.entry("error", "fail"), Map.entry("say", "show"), Map.entry("print", "show"), Map.entry("display", "show"),
            Map.entry("str", "show"), Map.entry("string-append", "text-append"), Map.entry("concat", "text-append"));

    /** A suffix for an unbound name: {@code ; did you mean `case`?} (with why, for another language's form), or empty. */
    @SafeVarargs
    static String hint(String name, Collection<String>... scopes) {
        String other = ELSEWHERE.get(name);
        if (other != null) return "; µNorman writes `" + name + "` as `" + other + "`";
        List<String> candidates = new ArrayList<>(Syntax.RESERVED);
        candidates.remove("_");
        for (Collection<String> s : scopes) candidates.addAll(s);
        return dev.finch.ir.diag.Suggestions.didYouMean(name, candidates);
    }
}
