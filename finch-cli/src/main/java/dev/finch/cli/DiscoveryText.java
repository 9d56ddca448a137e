package dev.finch.cli;

import dev.finch.LanguageDefinition;
import dev.finch.StackEntry;
import dev.finch.VmStateReport;
import dev.finch.WordInfo;
import dev.finch.WordSummary;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import java.util.List;

/** The human forms of the discovery results, shared by the {@code vocabulary}/{@code inspect} commands and the REPL. */
final class DiscoveryText {
    private DiscoveryText() { }

    /** Core words by category, the session's definitions, then source syntax. */
    static String vocabulary(LanguageDefinition language, VmStateReport state) {
        StringBuilder b = new StringBuilder();
        for (LanguageDefinition.Category c : language.categories()) {
            b.append(c.name()).append('\n');
            for (WordSummary w : c.words()) b.append("  ").append(w.name()).append(" : ").append(w.summary()).append('\n');
        }
        if (!state.definitions().isEmpty()) {
            b.append("definitions (this session)\n");
            for (VmStateReport.DefinitionEntry d : state.definitions()) b.append("  ").append(d.name()).append(" : ").append(d.signature()).append('\n');
        }
        b.append("syntax (forms, no runtime signature; inspect one for its example)\n");
        for (SyntaxSpec s : dev.finch.ir.vocab.SourceSyntax.all()) {
            b.append("  ").append(s.name()).append("    ").append(s.form()).append("   [").append(String.join(", ", s.languages())).append("]\n");
        }
        return b.toString();
    }

    /** One inspected name; syntax is shown with its form and never with a signature. */
    static String inspect(WordInfo info) {
        StringBuilder b = new StringBuilder();
        if (info instanceof WordInfo.CoreWord w) {
            b.append(w.name()).append(" : ").append(w.signature()).append('\n');
            b.append("  core word (").append(w.category()).append(w.special() ? ", typed by a verifier rule" : "").append(")\n");
            b.append("  ").append(w.doc()).append('\n');
            for (SyntaxSpec f : w.forms()) form(b, f);
        } else if (info instanceof WordInfo.Definition d) {
            b.append(d.name()).append(" : ").append(d.signature()).append('\n');
            b.append("  definition of this session\n");
            d.source().ifPresent(src -> b.append("  ").append(src.strip()).append('\n'));
        } else if (info instanceof WordInfo.Constant c) {
            b.append(c.name()).append(" : ").append(c.type()).append(" = ").append(c.display()).append('\n');
            b.append("  constant of this session\n");
        } else if (info instanceof WordInfo.NamedType t) {
            b.append(t.name()).append(" = ").append(t.structure()).append('\n');
            b.append("  named type of this session: an alias, printed as its structure\n");
        } else {
            WordInfo.Syntax s = (WordInfo.Syntax) info;
            b.append(s.name()).append("    syntax (").append(String.join(", ", s.languages())).append("), not a word: no runtime signature\n");
            for (SyntaxSpec f : s.forms()) form(b, f);
        }
        return b.toString();
    }

    /** One form: its language and shape, its meaning, and its example indented. */
    private static void form(StringBuilder b, SyntaxSpec f) {
        b.append("  ").append(String.join(", ", f.languages())).append(": ").append(f.form()).append('\n');
        b.append("    ").append(f.doc()).append('\n');
        b.append("    example:\n");
        for (String line : f.example().split("\n")) b.append("      ").append(line).append('\n');
    }

    /** Search hits, one per line, at most {@code limit}. */
    static String search(List<WordSummary> hits, int limit) {
        if (hits.isEmpty()) return "no matches\n";
        StringBuilder b = new StringBuilder();
        for (WordSummary w : hits.subList(0, Math.min(limit, hits.size()))) {
            b.append(w.name()).append(w.kind() == dev.finch.WordKind.SYNTAX ? "    " : " : ").append(w.summary())
             .append("   [").append(w.kind().spelling()).append("]\n");
        }
        if (hits.size() > limit) b.append("… ").append(hits.size() - limit).append(" more\n");
        return b.toString();
    }

    /** The committed state: revisions, stack bottom to top, definitions and constants. */
    static String state(VmStateReport r) {
        StringBuilder b = new StringBuilder();
        b.append("vm_revision ").append(r.vmRevision()).append(", manifest_generation ").append(r.manifestGeneration()).append('\n');
        b.append("stack (bottom to top):").append(r.stack().isEmpty() ? " empty" : "").append('\n');
        for (StackEntry e : r.stack()) b.append("  ").append(e.display()).append(" : ").append(e.type()).append('\n');
        for (VmStateReport.DefinitionEntry d : r.definitions()) b.append("definition ").append(d.name()).append(" : ").append(d.signature()).append('\n');
        for (VmStateReport.ConstantEntry c : r.constants()) b.append("constant ").append(c.name()).append(" : ").append(c.type()).append(" = ").append(c.display()).append('\n');
        return b.toString();
    }

    /** A stack in one line, or empty text for an empty stack. */
    static String stackLine(List<StackEntry> stack) {
        if (stack.isEmpty()) return "";
        StringBuilder b = new StringBuilder("stack:");
        for (StackEntry e : stack) b.append("  ").append(e.display()).append(" : ").append(e.type());
        return b.toString();
    }
}
