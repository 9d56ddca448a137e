package dev.finch.capabilities;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Every refusal of the capability model, one stable code each (decisions D4, D9). */
public enum CapabilityCode implements DiagnosticCode {
    /** The capability text does not parse: bad name, unbalanced parentheses, empty argument. */
    MALFORMED_SPEC("E-CAP-001", Phase.HOST, "The capability text does not parse as name or name(args)."),
    /** The name is not one of the capability kinds Finch knows (D9). */
    UNKNOWN_CAPABILITY("E-CAP-002", Phase.HOST, "The capability name is not a known capability kind."),
    /** Wrong number of arguments, a missing, duplicate or unknown key, or a malformed name or number. */
    BAD_PARAMETER("E-CAP-003", Phase.HOST, "A capability parameter is missing, duplicated, unknown or malformed."),
    /** A path selector does not start with one of the known roots. */
    UNKNOWN_ROOT("E-CAP-004", Phase.HOST, "A path selector must start with ${workspace}, ${host-machine}, ${project} or ${task.output}."),
    /** A {@code ..} segment: paths never climb. */
    PATH_PARENT("E-CAP-005", Phase.HOST, "A path contains a '..' segment."),
    /** An absolute path where a root-relative one is required. */
    PATH_ABSOLUTE("E-CAP-006", Phase.HOST, "A path is absolute where a root-relative path is required."),
    /** An empty path or empty segment ({@code a//b}, a trailing slash). */
    PATH_EMPTY_SEGMENT("E-CAP-007", Phase.HOST, "A path is empty or has an empty segment."),
    /** A {@code .} segment: the canonical spelling has none. */
    PATH_DOT("E-CAP-008", Phase.HOST, "A path contains a '.' segment."),
    /** NUL, a control or invisible format character, a lone surrogate, or edge whitespace in a name. */
    PATH_FORBIDDEN_CHAR("E-CAP-009", Phase.HOST, "A path segment contains a character no file name may carry here."),
    /** A selector character inside a concrete name, or a malformed wildcard such as {@code a**}. */
    PATH_RESERVED_CHAR("E-CAP-010", Phase.HOST, "A path segment contains a reserved selector character or a malformed wildcard."),
    /** A segment over 255 UTF-8 bytes or a path over 4096 bytes. */
    PATH_TOO_LONG("E-CAP-011", Phase.HOST, "A path or one of its segments is too long."),
    /** A grant id that is already in the set. */
    DUPLICATE_GRANT("E-CAP-012", Phase.HOST, "A grant with this id is already present."),
    /** Revoking an id the set does not hold. */
    UNKNOWN_GRANT("E-CAP-013", Phase.HOST, "No grant with this id is present."),
    /** No grant in the set permits the requirement. */
    NOT_GRANTED("E-CAP-014", Phase.HOST, "No grant permits this capability requirement."),
    /** A child's grant is not contained in any delegable parent grant. */
    ATTENUATION_EXCEEDS("E-CAP-015", Phase.HOST, "A child grant is not contained in a delegable parent grant."),
    /** A path template, or one instantiation of it, cannot be proved to stay inside its bound. */
    TEMPLATE_OUTSIDE_BOUND("E-CAP-016", Phase.VERIFY, "A path template or its instantiation is not provably inside its bound."),
    /** A path argument lives under a different root than the template that consumes it. */
    TEMPLATE_ROOT_MISMATCH("E-CAP-017", Phase.VERIFY, "A path argument's root differs from the template's root."),
    /** A grant id that is not a short identifier. */
    BAD_GRANT_ID("E-CAP-018", Phase.HOST, "A grant id must be 1-64 characters of letters, digits, '-', '_' or '.'.");

    private final String code;
    private final Phase phase;
    private final String meaning;

    CapabilityCode(String code, Phase phase, String meaning) {
        this.code = code;
        this.phase = phase;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return phase; }

    @Override public String meaning() { return meaning; }
}
