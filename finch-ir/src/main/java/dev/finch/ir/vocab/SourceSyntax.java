package dev.finch.ir.vocab;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The source syntax of the frontends ({@code if}, {@code while}, {@code define}, …): reported by discovery without a
 * runtime signature, because it has none. Unlike words, syntax is fixed by the frontends and not installed by hosts.
 */
public final class SourceSyntax {
    private static final Map<String, SyntaxSpec> SYNTAX = new LinkedHashMap<>();

    static {
        List<String> forth = List.of("forth");
        List<String> lisp = List.of("lisp");
        List<String> both = List.of("forth", "lisp");
        syntax(":", forth, ": name ( ins -- outs ) body ;", "Define a word; the signature is checked against the body.");
        syntax("if", both, "cond if … else … then | (if c a b)", "Two-way branch on a bool; both arms leave the same row.");
        syntax("if-some", forth, "opt if-some … else … then", "Branch on an option; the some edge receives the payload.");
        syntax("if-ok", forth, "res if-ok … else … then", "Branch on a result; ok and err edges receive their payloads.");
        syntax("begin", forth, "begin … while … repeat | begin … until", "Loops; the row at the loop head is invariant.");
        syntax("while", both, "begin test while body repeat | (while test body…)", "Loop while the test is true.");
        syntax("case", forth, "n case 1 of … endof otherwise … endcase", "Integer case with verified arms, no fallthrough.");
        syntax("constant", forth, "value constant name", "Define a constant in the dictionary.");
        syntax("?", forth, "res ?", "Propagate an err from a function whose sole return is a result.");
        syntax("[']", forth, "['] word", "Push an execution token for a word.");
        syntax("define", lisp, "(define (f x …) body…) | (define x value)", "Define a function or a value.");
        syntax("lambda", lisp, "(lambda (x …) body…)", "A closure.");
        syntax("let", lisp, "(let ((x v) …) body…)", "Local bindings.");
    }

    private SourceSyntax() { }

    private static void syntax(String name, List<String> languages, String form, String doc) {
        SYNTAX.put(name, new SyntaxSpec(name, languages, form, doc));
    }

    /** Every piece of source syntax, in documentation order. */
    public static List<SyntaxSpec> all() { return List.copyOf(SYNTAX.values()); }

    /** The syntax named {@code name}, if any. */
    public static Optional<SyntaxSpec> named(String name) { return Optional.ofNullable(SYNTAX.get(name)); }
}
