package dev.finch.forth;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** The Co-Forth frontend's diagnostic codes (parse: malformed tokens; lower: well-formed tokens in a wrong place). */
public enum ForthCode implements DiagnosticCode {
    SYNTAX("E-FORTH-001", Phase.PARSE, "The grammar does not accept the token here."),
    BAD_TOKEN("E-FORTH-002", Phase.PARSE, "The text cannot be split into Co-Forth tokens."),
    BAD_SIGNATURE("E-FORTH-003", Phase.PARSE, "A definition or closure signature ( ins -- outs ! {caps} yields<Y,R> ) is malformed."),
    BAD_ESCAPE("E-FORTH-004", Phase.PARSE, "A string contains an unknown escape; use \\n \\t \\r \\0 \\\" \\\\ or \\uXXXX."),
    BAD_NUMBER("E-FORTH-005", Phase.PARSE, "A number literal is out of range for its type."),
    BAD_JSON("E-FORTH-006", Phase.PARSE, "A pasted JSON object literal is not strict JSON."),
    BAD_TYPE_PARAMETER("E-FORTH-007", Phase.PARSE, "The type or tag between < > of a parameterized word is malformed."),
    NAME_TOO_LONG("E-FORTH-008", Phase.PARSE, "A word, local, constant, field or symbol name is longer than 256 characters."),

    MISPLACED_WORD("E-FORTH-101", Phase.LOWER, "A structure word appears where nothing it closes or continues is open (then without if, ; without :)."),
    UNTERMINATED_STRING("E-FORTH-102", Phase.LOWER, "A string literal is not closed on its line."),
    UNCLOSED("E-FORTH-103", Phase.LOWER, "A definition, branch, loop, case or bracket is still open at the end of the program."),
    UNCLOSED_COMMENT("E-FORTH-104", Phase.LOWER, "A ( comment or signature is not closed with )."),
    FIELD_NAME_NOT_LITERAL("E-FORTH-105", Phase.LOWER, "record-get and record-set need a literal field name string right before them."),
    NESTED_DEFINITION("E-FORTH-106", Phase.LOWER, "A : definition (or a type<T> name) appears inside another construct; definitions are top-level only."),
    MISSING_NAME("E-FORTH-107", Phase.LOWER, "A word that names something (:, :>, constant, [']) is not followed by a name."),
    MISSING_SIGNATURE("E-FORTH-108", Phase.LOWER, "A closure [: … ;] has no ( ins -- outs ) signature right after [:."),
    MISPLACED_FIELD("E-FORTH-109", Phase.LOWER, "A record field label name: appears outside { }, or a record does not start with a field."),
    MISPLACED_COMMA("E-FORTH-110", Phase.LOWER, "A comma appears outside a list, map or record, where it separates nothing."),
    UNKNOWN_PARAMETERIZED("E-FORTH-111", Phase.LOWER, "Only the words whose typing takes immediates (variant<T,tag>, variant-get<tag>, empty-list<T>, empty-map<K,V>), constant<T>, and a vocabulary word's output ascription word<T> take < > parameters."),
    MISPLACED_IN_CASE("E-FORTH-112", Phase.LOWER, "Between case and endcase only 'N of … endof' arms and one otherwise may appear."),
    DUPLICATE_DEFINITION("E-FORTH-113", Phase.LOWER, "One submission defines the same word twice."),
    DUPLICATE_FIELD("E-FORTH-114", Phase.LOWER, "A record literal names the same field twice."),
    TOO_DEEP("E-FORTH-115", Phase.LOWER, "Constructs are nested deeper than the frontend's own bound (512 levels), which holds even when the compile limits allow more."),
    MISSING_ERR_ARM("E-FORTH-116", Phase.LOWER, "An if-ok has no else: both arms of a result branch are required (if-ok … else … then), even when the ok and err payloads have one type."),
    INTERNAL("E-FORTH-199", Phase.LOWER, "The frontend failed unexpectedly; this is a bug in Finch, not in the program.");

    private final String code;
    private final Phase phase;
    private final String meaning;

    ForthCode(String code, Phase phase, String meaning) {
        this.code = code;
        this.phase = phase;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return phase; }

    @Override public String meaning() { return meaning; }
}
