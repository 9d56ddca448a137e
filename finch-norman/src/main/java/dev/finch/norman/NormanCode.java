package dev.finch.norman;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * Every diagnostic code of the µNorman frontend. 0xx: reading and the syntactic checks (phase parse); 1xx: static
 * types (phase verify, the phase in which Finch reports every type error); 2xx: lowering to the IR (phase lower);
 * 3xx: the test harness (finch test and the JUnit engine); 4xx: a host's model world refusing an ask.
 */
public enum NormanCode implements DiagnosticCode {
    BAD_TOKEN("E-NORMAN-001", Phase.PARSE, "A malformed token: an unterminated string, a bad escape, or a stray character."),
    BRACKETS("E-NORMAN-002", Phase.PARSE, "Brackets do not balance or do not match."),
    BAD_FORM("E-NORMAN-003", Phase.PARSE, "A form is malformed: a part has the wrong shape."),
    ARITY("E-NORMAN-004", Phase.PARSE, "A form is applied with the wrong number of parts (check 5)."),
    DUPLICATE_NAME("E-NORMAN-005", Phase.PARSE, "Formals, constructors of a datatype or fields of a record repeat (check 1); or a name is defined twice, or two grants share a name (in one file or across used files)."),
    DUPLICATE_STEP("E-NORMAN-006", Phase.PARSE, "A workflow's binding names repeat (check 2)."),
    WORKFLOW_CYCLE("E-NORMAN-007", Phase.PARSE, "A workflow's dependency graph has a cycle (check 3)."),
    NESTED_PATTERN("E-NORMAN-008", Phase.PARSE, "A pattern is nested: a constructor applies to something other than a name or _ (check 4)."),
    REPEATED_PATTERN_VAR("E-NORMAN-009", Phase.PARSE, "A variable repeats within one pattern (check 4)."),
    RESERVED_WORD("E-NORMAN-010", Phase.PARSE, "A reserved word is used as a name."),
    DUPLICATE_CONSTRUCTOR("E-NORMAN-011", Phase.PARSE, "A constructor name is declared twice in the program (one namespace)."),
    DUPLICATE_TYPE("E-NORMAN-012", Phase.PARSE, "A datatype or record name is declared twice."),
    BAD_LITERAL("E-NORMAN-013", Phase.PARSE, "A malformed numeral, money amount, duration or bound, or one too large to hold (money beyond a long of micro-dollars, a duration beyond a long of milliseconds)."),
    UNKNOWN_FIELD("E-NORMAN-014", Phase.PARSE, "A record is built with a field it does not have, without one it has, or with one twice."),
    BAD_PATTERN("E-NORMAN-015", Phase.PARSE, "A pattern is not one of Con, (Con x _), '(), (cons h t), _."),
    UNKNOWN_TYPE("E-NORMAN-016", Phase.PARSE, "A type names no datatype, record or built-in type."),
    BAD_GRANT_TERM("E-NORMAN-017", Phase.PARSE, "A model grant's price is not micro-dollars a token in digits with at most six decimals, from 0 to a million dollars; its ceiling or think is not a whole number in range (a ceiling at least 1); or its id is not a string; or a script's (out n) is not a whole number of tokens."),
    SCRIPT_ENTRY("E-NORMAN-018", Phase.PARSE, "A script entry is not one of (reply \"…\"), (result \"…\"), (provider-error \"…\"), (refused 'category), (out n), (latency d), or an (out n)/(latency d) comes before any answer it could qualify."),
    SCRIPT_LATENCY("E-NORMAN-019", Phase.PARSE, "A script's (latency d) is not a duration such as 40ms, 2s, 1min or 1h."),
    USE_NOT_FOUND("E-NORMAN-020", Phase.PARSE, "A used file cannot be read."),
    USE_CYCLE("E-NORMAN-021", Phase.PARSE, "Files use each other in a cycle."),
    DUPLICATE_SCRIPT("E-NORMAN-022", Phase.PARSE, "Two scripts have the same name, or one script lists a site (or cap/op) twice."),
    TYPE_MISMATCH("E-NORMAN-101", Phase.VERIFY, "An expression's type does not fit where it is used (expected/found)."),
    UNBOUND("E-NORMAN-102", Phase.VERIFY, "A name is bound by nothing in scope."),
    INFINITE_TYPE("E-NORMAN-103", Phase.VERIFY, "A type would have to contain itself."),
    AMBIGUOUS_FIELD("E-NORMAN-104", Phase.VERIFY, "A field selection's record type cannot be determined."),
    NOT_A_CAPABILITY("E-NORMAN-105", Phase.VERIFY, "call needs a tool capability (a tool grant's name or a value holding one); through a value, the tool grants that declare the operation must agree on its result type."),
    SCRIPT_NO_GRANT("E-NORMAN-106", Phase.VERIFY, "A script's [cap/op …] entry names no tool grant, or an operation its grant does not declare (a kernel's fork aside); a memory grant's calls are never scripted."),
    MEMORY_CALL("E-NORMAN-107", Phase.VERIFY, "A memory grant is used other than as the capability of a call of get, put, list or delete with its arguments: "
            + "another operation, a wrong number of arguments, or the grant's name as a value (a memory grant is not a first-class capability)."),
    RECURSIVE_TYPE("E-NORMAN-201", Phase.LOWER, "Generic datatypes or records (with an Any field) that refer to each other have no IR type yet (one that refers to itself, and non-generic ones that refer to each other, are recursive types)."),
    AGENTIC_NOT_LOWERED("E-NORMAN-202", Phase.LOWER, "An agentic form (ask, call, budget, workflow, grant, script) is not lowered yet."),
    VERIFIER_REJECTED("E-NORMAN-203", Phase.LOWER, "What Finch lowered a checked µNorman program to did not verify: a defect of Finch, not of the program (the µNorman checks should have caught any mistake first); reported at the construct, in µNorman terms."),
    LOAD_SUSPENDED("E-NORMAN-301", Phase.EXECUTE, "The test harness could not load a file: its top level suspended instead of completing."),
    HARNESS_INTERNAL("E-NORMAN-302", Phase.EXECUTE, "The test harness met a defect of Finch (not of the program) while loading a file."),
    TEST_FILE_UNREADABLE("E-NORMAN-303", Phase.PARSE, "A .nm file found by the JUnit engine cannot be read as UTF-8 text."),
    TOP_LEVEL_FAILED("E-NORMAN-304", Phase.EXECUTE, "A val or top-level expression of a file run under a script (finch run --script) failed and nothing caught it: it is reported with its form, and the rest of the file still ran."),
    MODEL_NOT_SERVED("E-NORMAN-401", Phase.EXECUTE, "An ask names a model (its grant's id, else its name) that the host's model world does not serve (ModelWorld.Builder.model); nothing was sent."),
    PRICE_BELOW_HOST("E-NORMAN-402", Phase.EXECUTE, "An ask's grant states a price below the host's price for that model: a program cannot lower what the host charges; nothing was sent."),
    NO_SCRIPTED_ANSWER("E-NORMAN-403", Phase.EXECUTE, "A scripted world has no answer for an ask or call: the script has no reply left for its site (or cap/op), or a call runs outside any script. A checked run-time error: the test or the script is wrong, not the world.");

    /**
     * The verifier's diagnostics of a µNorman module, as µNorman diagnostics: a verifier rejection ({@code E-VERIFY-…})
     * of a program the µNorman checks accepted is Finch's defect, reported at the same place as
     * {@link #VERIFIER_REJECTED} without the IR's codes or type variables; anything else (a compile limit) is kept.
     */
    public static java.util.List<dev.finch.ir.diag.Diagnostic> fromVerifier(java.util.List<dev.finch.ir.diag.Diagnostic> diagnostics) {
        return diagnostics.stream().map(d -> !d.code().startsWith("E-VERIFY-") ? d
                : VERIFIER_REJECTED.at(d.origin(), "Finch could not run what it made of this µNorman code: a defect of Finch, not of "
                        + "your program (it passed µNorman's checks); please report it with this file")).toList();
    }

    private final String code;
    private final Phase phase;
    private final String meaning;

    NormanCode(String code, Phase phase, String meaning) {
        this.code = code;
        this.phase = phase;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return phase; }

    @Override public String meaning() { return meaning; }
}
