package dev.finch.lisp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Module;

/** Shared helpers: lower a snippet and expect success or one diagnostic. */
final class Support {
    private Support() { }

    /** Finch's real vocabulary. */
    static final dev.finch.ir.vocab.Vocabulary VOCABULARY = dev.finch.vm.engine.Vm.vocabulary();
    /** An empty session over it. */
    static final Environment EMPTY = Environment.of(VOCABULARY);

    static Lowering lower(String text) { return lower(text, EMPTY); }

    /** Lowers under a fresh budget of the default limits (a budget meters one submission). */
    static Lowering lower(String text, Environment env) {
        return new Lisp().lower(text, "test.lisp", env.withBudget(dev.finch.ir.limit.CompileBudget.standard()));
    }

    static Module ok(String text) { return ok(text, EMPTY); }

    static Module ok(String text, Environment env) {
        Lowering l = lower(text, env);
        assertThat(l.diagnostics()).as("diagnostics of %s", text).isEmpty();
        return l.module().orElseThrow();
    }

    static String ir(String text) { return IrDump.module(ok(text)); }

    static Diagnostic fails(String text) {
        Lowering l = lower(text);
        assertThat(l.module()).as("lowering of %s", text).isEmpty();
        assertThat(l.diagnostics()).isNotEmpty();
        return l.diagnostics().get(0);
    }
}
