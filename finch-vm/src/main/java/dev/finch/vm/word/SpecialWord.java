package dev.finch.vm.word;

import dev.finch.ir.vocab.Typing;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * A word typed by a dedicated verifier rule that needs its immediates (a type, a tag, a field) or the call site's whole
 * signature to run: a constant of an enum that declares the word ({@link Word}, {@link Overload}) and implements it in
 * both tiers. The compiler's own ({@code dev.finch.vm.compile.Specials}) are the only ones; the word SPI names them by
 * this interface, so it depends on no compiler.
 */
public interface SpecialWord {
    /** The verifier rule that types the word's calls. */
    Typing typing();

    /** The constant's name. */
    String name();
}
