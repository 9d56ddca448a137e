package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, deliverable 4 (reliability row 26): a program cannot set its own prices. Over a host's model world a
 * grant of {@code [in 0] [out 0]}, a negative price or one of 2^62 reaches the provider zero times and costs the host
 * nothing; the host's prices apply, and the session still works afterwards.
 */
class HostileMoneyTest {
    private final AtomicInteger asked = new AtomicInteger();

    /** Stands in for a real provider (not simulated): counts what reaches it. */
    private final ModelProvider provider = request -> {
        asked.incrementAndGet();
        return new ModelProvider.Reply("\"hi\"", 2, "end_turn", 0);
    };

    /** The host serves gpt at $3 and $15 a million tokens, at most 4096 output tokens, and gives each run 10 µ$. */
    private Session session() {
        ModelWorld world = ModelWorld.over(provider)
                .model("gpt", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096))
                .budget(Money.ofMicros(10)).build();
        return Finch.builder().models(world).build().newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)"));
    }

    /** Fifty asks of unbounded text, each failure caught and counted: the value is how many of the 50 failed. */
    private static String fiftyAsks(String terms) {
        return "(grant gpt (model " + terms + "))\n" + """
                (define chat () (ask gpt Text (list (Message [role User] [content "hi"])) 'chat))
                (define go (n) (if (= n 0) 0 (+ (catch (begin (chat) 0) e 1) (go (- n 1)))))
                (go 50)
                """;
    }

    private static Outcome submit(Session s, String source) {
        return s.submit(Submission.of(source, "agent.nm").withLanguage(Language.NORMAN));
    }

    /** The submission fails with {@code code}, nothing reaches the provider, and the session goes on. */
    private void refused(String terms, String code) {
        Session s = session();
        Outcome o = submit(s, fiftyAsks(terms));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo(code);
        assertThat(asked.get()).as("asks that reached the provider").isZero();
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test void zeroPricesAreRefusedBeforeAnyAskIsSent() { refused("[in 0] [out 0]", "E-NORMAN-402"); }

    @Test void aNegativePriceIsRefusedWhenTheFileIsChecked() { refused("[in -1000000] [out 15]", "E-NORMAN-017"); }

    @Test void aPriceOfTwoToTheSixtySecondIsRefusedWhenTheFileIsChecked() { refused("[out 4611686018427387904]", "E-NORMAN-017"); }

    @Test void aHugeCeilingCannotOverflowTheReservation() {
        // the grant asks for 2^62 output tokens; the host's ceiling (4096) applies, which 10 µ$ cannot reserve
        Session s = session();
        Outcome o = submit(s, fiftyAsks("[ceiling 4611686018427387904]"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack().get(0).display()).isEqualTo("50.0");
        assertThat(asked.get()).isZero();
    }

    @Test void withoutStatedPricesTheHostsApplyAndNoAskFitsTheBudget() {
        Session s = session();
        Outcome o = submit(s, fiftyAsks(""));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack().get(0).display()).as("50 of 50 asks OverBudget").isEqualTo("50.0");
        assertThat(asked.get()).isZero();
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }
}
