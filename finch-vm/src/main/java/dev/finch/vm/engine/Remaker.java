package dev.finch.vm.engine;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedWord;

/**
 * How a compiled program makes its closure literals' closures and its quotations' execution tokens again, each in the
 * tier its function was compiled to: what a saved value or continuation holding one needs to be read back.
 */
public interface Remaker {
    /** A closure of literal {@code body} over {@code captures}. */
    Object closure(CheckedWord body, Object[] captures);

    /** The execution token quotation {@code site} makes. */
    Object quote(Checked.QuoteNode site);
}
