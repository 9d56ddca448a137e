/**
 * Durable forms beside the engine: a value's ({@code ValueCodec}, with the {@code ValueForms} word libraries register
 * for their own values), the programs saved values refer to ({@code Programs}), and a suspended run's continuation
 * ({@code Continuations}, {@code DurableRuns}). Internal: exported only to finch-core, which saves sessions and runs, and
 * to the host words, whose handles and streams persist as value forms.
 */
module finch.persist {
    requires transitive finch.vm;
    exports dev.finch.vm.persist to finch.core, finch.host;
}
