package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.LimitCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a file and, in place of each {@code (use file)}, the file it uses (relative to the using file), each file
 * once; a cycle of uses is refused at the use that closes it. Every file counts against the submission's budget: each
 * is at most {@code maxSourceChars} long (read no further than that, {@code E-LIMIT-010} at the use), their tokens
 * count toward one token limit, and a chain of uses nests at most {@code maxNesting} deep ({@code E-LIMIT-012}). A
 * crossed limit ends the loading (its exception propagates); other problems are collected.
 */
final class Loader {
    private final SourceLoader sources;
    private final CompileBudget budget;
    private final Reader reader;
    private final Set<String> loaded = new HashSet<>();
    private final LinkedHashSet<String> inProgress = new LinkedHashSet<>();
    final List<Sx> datums = new ArrayList<>();
    final List<Diagnostic> diagnostics = new ArrayList<>();

    Loader(SourceLoader sources, CompileBudget budget) {
        this.sources = sources;
        this.budget = budget;
        this.reader = new Reader(budget);
    }

    /** Loads the root text, whose identity is {@code sourceId}. */
    void root(String text, String sourceId) {
        load(text, sourceId);
    }

    private void load(String text, String id) {
        loaded.add(id);
        inProgress.add(id);
        List<Sx> read;
        try {
            read = reader.file(text, id);
        } catch (DiagnosticException e) {
            Budgets.rethrowCrossed(e);
            diagnostics.addAll(e.diagnostics());
            inProgress.remove(id);
            return;
        }
        for (Sx d : read) {
            if (d instanceof Sx.SList l && "use".equals(l.head()) && l.size() == 2
                    && (l.get(1) instanceof Sx.Str || l.get(1) instanceof Sx.Atom)) {
                String file = l.get(1) instanceof Sx.Str s ? s.value() : ((Sx.Atom) l.get(1)).text();
                String target = sources.resolve(id, file);
                if (inProgress.contains(target)) {
                    diagnostics.add(NormanCode.USE_CYCLE.at(l.origin(), "`" + file + "` is already being loaded: the uses form a cycle "
                            + String.join(" → ", cycle(target)) + " → " + target));
                    continue;
                }
                if (loaded.contains(target)) continue;
                budget.nesting(Phase.PARSE, inProgress.size() + 1, l.origin());
                var content = sources.read(target, budget.limits().maxSourceChars());
                if (content.isEmpty()) {
                    diagnostics.add(NormanCode.USE_NOT_FOUND.at(l.origin(), "cannot read `" + file + "` (resolved to " + target + ")"));
                    continue;
                }
                if (content.get().length() > budget.limits().maxSourceChars()) throw tooLong(file, l.origin());
                load(content.get(), target);
            }
            datums.add(d);
        }
        inProgress.remove(id);
    }

    private DiagnosticException tooLong(String file, dev.finch.ir.diag.Origin at) {
        int max = budget.limits().maxSourceChars();
        return new DiagnosticException(new Diagnostic(Phase.PARSE, LimitCode.SOURCE_SIZE.code(), "`" + file + "` has more than " + max
                + " characters; the limit is " + max + " for each file", at, Integer.toString(max), "more than " + max));
    }

    private List<String> cycle(String target) {
        List<String> out = new ArrayList<>();
        boolean on = false;
        for (String s : inProgress) {
            if (s.equals(target)) on = true;
            if (on) out.add(s);
        }
        return out;
    }
}
