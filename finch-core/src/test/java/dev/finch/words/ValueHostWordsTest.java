package dev.finch.words;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.Value;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A host's word may take and answer {@link Value}s (issue 42): lists, maps, records and options reach it in their
 * public form at the call's own types, in both frontends and both tiers, and what it answers is checked against the
 * declared output like any host's answer.
 */
class ValueHostWordsTest {

    /** Words over Finch's public values. */
    public static final class Tally {
        @Word(name = "total", doc = "The sum of a list of ints.")
        @Overload(sig = "list<int> -> int")
        public static long total(Value items) { return items.asList().stream().mapToLong(Value::asLong).sum(); }

        @Word(name = "tally", doc = "How often each word occurs.")
        @Overload(sig = "list<string> -> map<string,int>")
        public static Value tally(Value words) {
            Map<Value, Value> counts = new LinkedHashMap<>();
            for (Value w : words.asList()) counts.merge(w, Value.of(1L), (a, b) -> Value.of(a.asLong() + b.asLong()));
            return Value.map("string", "int", counts);
        }

        @Word(name = "city-of", doc = "The city field of a record.")
        @Overload(sig = "record{city:string,zip:int} -> string")
        public static String cityOf(Value address) { return address.get("city").asString(); }

        @Word(name = "first-or", doc = "The first of a list, or the default; any element type.")
        @Overload(sig = "list<a> a -> a")
        public static Value firstOr(Value items, Value fallback) { return items.asList().isEmpty() ? fallback : items.asList().get(0); }

        @Word(name = "fib-list", doc = "Answers the wrong type on purpose.")
        @Overload(sig = "int -> list<int>")
        public static Value fibList(long n) { return Value.of("not a list"); }
    }

    /** A word whose Value answer is null: the run fails, the host does not. */
    public static final class AnswersNull {
        @Word(name = "nothing", doc = "Answers nothing.")
        @Overload(sig = "int -> int")
        public static Value nothing(long n) { return null; }
    }

    private static List<String> stack(Outcome o) { return o.stack().stream().map(StackEntry::display).toList(); }

    private static String code(Outcome o) { return o.diagnostics().stream().map(Diagnostic::code).findFirst().orElse("none"); }

    @Test
    void valuesReachTheHostInTheirPublicFormInBothLanguagesAndTiers() {
        for (Finch.Tier tier : Finch.Tier.values()) {
            Session s = Finch.builder().words(Tally.class).tier(tier).build().newSession();
            assertThat(stack(s.submit(Submission.of("(total (list 1 2 3 4))", "t")))).as("%s", tier).containsExactly("10");
            assertThat(stack(s.submit(Submission.of("[ 5 6 ] total", "t")))).as("%s", tier).containsExactly("10", "11");
            Outcome t = Finch.builder().words(Tally.class).tier(tier).build().newSession()
                    .submit(Submission.of("(tally (list \"a\" \"b\" \"a\"))", "t"));
            assertThat(t.stack()).as("%s", tier).extracting(StackEntry::type).containsExactly("map<string,int>");
            assertThat(stack(t).get(0)).contains("\"a\"").contains("2").contains("\"b\"");
            Outcome c = Finch.builder().words(Tally.class).tier(tier).build().newSession()
                    .submit(Submission.of("(city-of {:city \"Oslo\" :zip 150})", "t"));
            assertThat(stack(c)).as("%s: %s", tier, c.diagnostics()).containsExactly("\"Oslo\"");
        }
    }

    @Test
    void aValueAtATypeVariableHasTheCallsType() {
        Session s = Finch.builder().words(Tally.class).build().newSession();
        Outcome o = s.submit(Submission.of("(first-or (list \"x\" \"y\") \"none\")", "t"));
        assertThat(o.stack()).as("%s", o.diagnostics()).containsExactly(new StackEntry("string", "\"x\""));
        Outcome empty = s.submit(Submission.of("(first-or (empty-list int) 7)", "t"));
        assertThat(stack(empty)).as("%s", empty.diagnostics()).endsWith("7");
    }

    @Test
    void aValueOfTheWrongTypeFailsTheRunNotTheHost() {
        Outcome o = Finch.builder().words(Tally.class).build().newSession().submit(Submission.of("(fib-list 3)", "t"));
        assertThat(code(o)).isEqualTo("E-HOST-017");
        assertThat(o.diagnostics().get(0).message()).contains("fib-list").doesNotContain("Exception");
        Outcome none = Finch.builder().words(AnswersNull.class).build().newSession().submit(Submission.of("(nothing 1)", "t"));
        assertThat(code(none)).isEqualTo("E-HOST-017");
    }
}
