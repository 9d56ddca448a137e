package dev.finch.ir.instr;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.Optional;

/**
 * A definition {@code : name ( sig ) body ;}. The signature may be omitted when the verifier can infer it
 * (not for recursive words).
 */
public record WordDef(String name, Optional<Type.Fn> declared, Block body, Origin origin) {
    /** The namespace of the words a frontend makes for itself (µNorman's basis, its top-level and val wrappers). */
    public static final String INTERNAL_PREFIX = "nm.";

    /** Where a frontend keeps a user's definition whose own name is taken by a vocabulary word: {@code nm.user.ok}. */
    public static final String RENAMED_PREFIX = "nm.user.";

    /**
     * True for a word a frontend made for its own lowering, which a session lists nowhere: a name in
     * {@link #INTERNAL_PREFIX}'s namespace that is not a user's renamed definition ({@link #RENAMED_PREFIX}).
     */
    public static boolean isInternal(String name) { return name.startsWith(INTERNAL_PREFIX) && !name.startsWith(RENAMED_PREFIX); }
}
