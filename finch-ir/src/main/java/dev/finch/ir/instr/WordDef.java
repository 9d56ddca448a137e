package dev.finch.ir.instr;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.Optional;

/**
 * A definition {@code : name ( sig ) body ;}. The signature may be omitted when the verifier can infer it
 * (not for recursive words).
 */
public record WordDef(String name, Optional<Type.Fn> declared, Block body, Origin origin) { }
