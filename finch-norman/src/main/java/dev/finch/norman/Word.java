package dev.finch.norman;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import java.util.List;

/**
 * Every vocabulary word µNorman's lowering calls by itself (the words a program names are looked up by their own
 * names): one constant each, so the lowering names a word by a constant, never by a string, and the set of words it
 * depends on is this list. {@code WordsTest} checks every one against Finch's core vocabulary, so a word that is
 * renamed or removed there fails the build's tests, not a program at run time.
 */
enum Word {
    EQUALS("="),
    BUDGET_CLOSE("budget-close"),
    BUDGET_OPEN("budget-open"),
    BUDGET_REMAINING("budget-remaining"),
    CAPABILITY_GRANT("capability-grant"),
    DROP("drop"),
    DUP("dup"),
    DURATION_FROM_MILLIS("duration-from-millis"),
    DURATION_UNLIMITED("duration-unlimited"),
    EMPTY_LIST("empty-list"),
    ERR("err"),
    EXECUTE("execute"),
    EXPECT_OK("expect-ok"),
    INT_TO_FLOAT("int-to-float"),
    IS_SOME("is-some"),
    JSON_PARSE("json-parse"),
    JSON_STRINGIFY("json-stringify"),
    JSON_TO_VALUE("json-to-value"),
    LIST_LENGTH("list-length"),
    LIST_PREPEND("list-prepend"),
    LIST_UNCONS("list-uncons"),
    MEMORY_DELETE("memory-delete"),
    MEMORY_GET("memory-get"),
    MEMORY_LIST("memory-list"),
    MEMORY_PUT("memory-put"),
    MODEL_ASK("model-ask"),
    MODEL_CAPABILITY("model-capability"),
    MODEL_GRANT("model-grant"),
    MONEY_FROM_MICROS("money-from-micros"),
    MONEY_UNLIMITED("money-unlimited"),
    OK("ok"),
    PROGRAM_ERROR("program-error"),
    RECORD_GET("record-get"),
    SAY("say"),
    SHOW("show"),
    STEP_FAIL_SIBLINGS("step-fail-siblings"),
    STEP_JOIN("step-join"),
    STEP_SPAWN("step-spawn"),
    STRING_APPEND("string-append"),
    STRING_CONTAINS("string-contains"),
    STRING_JOIN("string-join"),
    STRING_LENGTH("string-length"),
    STRING_SPLIT("string-split"),
    SWAP("swap"),
    TOOL_CALL("tool-call"),
    TOOL_CAPABILITY("tool-capability"),
    UNWRAP("unwrap"),
    VARIANT("variant"),
    VARIANT_GET("variant-get");

    /** The word's name in the vocabulary. */
    final String spelling;

    Word(String spelling) { this.spelling = spelling; }

    /** A call of this word at {@code at}. */
    Instr.Call call(Origin at) { return new Instr.Call(spelling, at); }

    /** A call of this word with immediates (a type argument, a field or tag name) at {@code at}. */
    Instr.Call call(List<Immediate> immediates, Origin at) { return new Instr.Call(spelling, immediates, at); }
}
