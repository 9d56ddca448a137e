package dev.finch.words;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * {@code json-to-value}, show's inverse as a word: typed by the call's own output type (fixed by an ascription in
 * Co-Forth), in the interpreter and in compiled words alike; a type left open, or one with no written form, stops
 * the run with E-SHOW-001, never an exception.
 */
class JsonToValueTest {
    private final Session s = Finch.create().newSession();

    private Outcome forth(String src) { return s.submit(Submission.of(src, "j.forth")); }

    @Test void readsAtTheAscribedTypeAndAnswersNoneForJsonOfAnotherShape() {
        Outcome o = forth("{\"b\":[\"x\"],\"a\":2} json-to-value<option<record{a:float,b:list<symbol>}>> show "
                + "{\"a\":\"2\"} json-to-value<option<record{a:float}>> show");
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(e -> e.display()).containsExactly(
                "\"{\\\"a\\\":2,\\\"b\\\":[\\\"x\\\"],\\\"tag\\\":\\\"some\\\"}\"", "\"{\\\"tag\\\":\\\"none\\\"}\"");
    }

    @Test void inAWordOfTheProgramToo() {
        Outcome o = forth(": num ( json -- option<float> ) json-to-value<option<float>> ; 5 json-of-int num");
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(e -> e.display()).containsExactly("(some 5.0)");
    }

    @Test void aTypeWithoutAWrittenFormStopsTheRunWithAShowError() {
        Outcome o = forth("1 json-of-int json-to-value<option<int -> int>> drop");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-SHOW-001");
        assertThat(o.diagnostics().get(0).message()).contains("json-to-value").doesNotContain("Exception");
    }
}
