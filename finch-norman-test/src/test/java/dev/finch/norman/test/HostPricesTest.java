package dev.finch.norman.test;

import dev.finch.host.ModelHost;

import dev.finch.norman.harness.ScriptedModels;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.HostModel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, deliverable 4: the host owns money. A host's world prices every ask by the host's terms for the model its
 * grant names; a program's grant cannot lower a price, only narrow the ceiling; negative, fractional or overflowing
 * values are refused when the file is checked or the world configured; the reservation never wraps.
 */
class HostPricesTest extends HarnessTestSupport {
    private static final Vm VM = new Vm();

    @AfterAll static void closeVm() { VM.close(); }

    /** Every request a provider was sent. */
    private final List<ModelProvider.Request> sent = new CopyOnWriteArrayList<>();

    /** A real (not simulated) provider that answers each ask with a short JSON text of 3 output tokens. */
    private final ModelProvider provider = request -> {
        sent.add(request);
        return new ModelProvider.Reply(request.schema() instanceof dev.finch.norman.Askable.Num ? "4" : "\"hi\"", 3, "end_turn", 0);
    };

    /** Claude Sonnet's list prices, $3 and $15 a million tokens, at most 8192 output tokens. */
    private static final HostModel SONNET = HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 8192);

    private ModelWorld.Builder world() { return ModelWorld.over(provider).model("gpt", SONNET); }

    /** Runs {@code file}'s top level with {@code world} as the model host and {@code model.ask(*)} granted. */
    private static RunResult run(String file, ScriptedModels world) {
        Norman norman = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = norman.check(file, "agent.nm");
        NormanTests lowered = norman.lowerTests(p, VmState.EMPTY.library().vocabulary());
        assertThat(lowered.diagnostics()).isEmpty();
        Verification v = Verifier.verify(lowered.module().orElseThrow(), VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        GrantSet grants = GrantSet.of(List.of(Grant.of("g", "model.ask(*)", Scope.TASK).value())).value();
        return VM.run("agent", v.module().get(), VmState.EMPTY, TestHarness.LIMITS, OutputSink.NONE, new CancelToken(),
                HostConfig.NONE.withGrants(grants).with(ModelHost.class, world));
    }

    private static Diagnostic failure(RunResult r) {
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Failed.class);
        return ((RunResult.Failed) r).diagnostics().get(0);
    }

    private static Object value(RunResult r) {
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        return ((RunResult.Completed) r).state().stack().get(0).value();
    }

    /** Fifty asks of unbounded Text, each failure caught and counted: the answer is how many of the 50 failed. */
    private static String fiftyAsks(String grant) {
        return grant + """
                (define chat () (ask gpt Text (list (Message [role User] [content "hi"])) 'chat))
                (define go (n) (if (= n 0) 0 (+ (catch (begin (chat) 0) e 1) (go (- n 1)))))
                (go 50)
                """;
    }

    // ---- the host's terms ----------------------------------------------------------------------------------------

    @Test void hostPricesAreExactMoneyAndEachAskIsRoundedUpOnce() {
        HostModel haiku = HostModel.perMillionTokens(new BigDecimal("0.25"), new BigDecimal("1.25"), 4096);
        assertThat(haiku.inPerMillion()).isEqualTo(Money.ofMicros(250_000));
        assertThat(haiku.cost(0, 0)).isZero();
        assertThat(haiku.cost(1, 0)).as("a quarter of a micro-dollar is charged as one, never as nothing").isEqualTo(1);
        assertThat(haiku.cost(4, 0)).isEqualTo(1);
        assertThat(haiku.cost(5, 0)).isEqualTo(2);
        assertThat(haiku.cost(2, 2)).as("the fractions of one ask add up before rounding: 0.5 + 2.5").isEqualTo(3);
        assertThat(haiku.cost(1_000_000, 1_000_000)).isEqualTo(1_500_000);
        assertThat(SONNET.cost(5, 6)).isEqualTo(5 * 3 + 6 * 15);
        assertThat(HostModel.perToken(Money.ofMicros(3), Money.ofMicros(15), 8192)).isEqualTo(SONNET);
    }

    @Test void negativeInexactOrOverflowingHostTermsAreRefused() {
        BigDecimal one = BigDecimal.ONE;
        assertThatThrownBy(() -> HostModel.perMillionTokens(new BigDecimal("-1"), one, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> HostModel.perMillionTokens(one, new BigDecimal("0.0000001"), 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("micro-dollar");
        assertThatThrownBy(() -> HostModel.perMillionTokens(new BigDecimal("1e20"), one, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostModel.perMillionTokens(one, one, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ceiling");
        assertThatThrownBy(() -> HostModel.perToken(Money.UNLIMITED, Money.ofMicros(1), 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostModel.perToken(Money.ofMicros(-3), Money.ofMicros(1), 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostModel.perToken(Money.ofMicros(Long.MAX_VALUE / 1000), Money.ofMicros(1), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not fit");
        assertThatThrownBy(() -> SONNET.cost(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SONNET.cost(Long.MAX_VALUE / 2, 0)).as("refused, never wrapped").isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> SONNET.cost(Long.MAX_VALUE / 10, Long.MAX_VALUE / 10)).as("each part fits, the sum does not").isInstanceOf(ArithmeticException.class);
    }

    // ---- a program cannot set its own prices ---------------------------------------------------------------------

    @Test void aGrantOfZeroPricesIsRefusedBeforeAnythingIsSent() {
        ScriptedModels w = world().budget(Money.ofMicros(10)).build().get();
        Diagnostic d = failure(run(fiftyAsks("(grant gpt (model [in 0] [out 0]))"), w));
        assertThat(d.code()).isEqualTo("E-NORMAN-402");
        assertThat(d.message()).contains("[in 0]").contains("gpt").contains("cannot lower");
        assertThat(sent).as("zero asks reached the provider").isEmpty();
        assertThat(w.spent()).isZero();
        // one price below the host's is enough; the other may be right
        assertThat(failure(run(fiftyAsks("(grant gpt (model [in 3] [out 14]))"), world().unlimitedBudget().build().get())).code())
                .isEqualTo("E-NORMAN-402");
        assertThat(sent).isEmpty();
    }

    @Test void withoutStatedPricesTheHostsApplyAndTheBudgetHolds() {
        // 8192 output tokens at $15 a million is $0.12288: no ask of unbounded text fits 10 µ$, so none is sent.
        ScriptedModels w = world().budget(Money.ofMicros(10)).build().get();
        assertThat(value(run(fiftyAsks("(grant gpt (model))"), w))).as("all 50 asks failed OverBudget").isEqualTo(50.0);
        assertThat(sent).isEmpty();
        assertThat(w.spent()).isZero();
        assertThat(w.trace()).hasSize(50).allSatisfy(e -> assertThat(e.reply()).isEqualTo("OverBudget"));
    }

    @Test void aGrantStatingMoreThanTheHostIsPricedAtTheHosts() {
        ScriptedModels w = world().unlimitedBudget().build().get();
        String file = "(grant gpt (model [in 100] [out 100]))\n(ask gpt Num (list (Message [role User] [content \"2+2?\"])) 'n)";
        assertThat(run(file, w)).isInstanceOf(RunResult.Completed.class);
        // 5 input tokens at 3 µ$, 3 output tokens at 15 µ$: the host's prices, not the grant's 100
        assertThat(w.spent()).isEqualTo(5 * 3 + 3 * 15);
    }

    @Test void aGrantCanOnlyNarrowTheHostsCeiling() {
        ScriptedModels w = world().unlimitedBudget().build().get();
        for (String ceiling : List.of("[ceiling 50]", "[ceiling 100000]", "")) {
            run("(grant gpt (model " + ceiling + "))\n(ask gpt Text (list (Message [role User] [content \"hi\"])) 'chat)", w);
        }
        assertThat(sent).extracting(ModelProvider.Request::maxOutputTokens).containsExactly(50L, 8192L, 8192L);
    }

    @Test void anAskOfAModelTheHostDoesNotServeIsRefused() {
        ScriptedModels w = world().unlimitedBudget().build().get();
        Diagnostic d = failure(run("(grant opus (model [in 15] [out 75]))\n(ask opus Num (list (Message [role User] [content \"n?\"])))", w));
        assertThat(d.code()).isEqualTo("E-NORMAN-401");
        assertThat(d.message()).contains("opus").contains("[gpt]");
        assertThat(sent).isEmpty();
    }

    @Test void theGrantsIdNamesTheModelAndItsProviderAnswers() {
        List<ModelProvider.Request> cheap = new CopyOnWriteArrayList<>();
        ModelProvider haikuProvider = request -> {
            cheap.add(request);
            return new ModelProvider.Reply("4", 1, "end_turn", 0);
        };
        ScriptedModels w = world().model("claude-haiku", HostModel.perMillionTokens(new BigDecimal("0.25"), new BigDecimal("1.25"), 1024), haikuProvider)
                .unlimitedBudget().build().get();
        String file = "(grant fast (model [id \"claude-haiku\"]))\n(ask fast Num (list (Message [role User] [content \"2+2?\"])))";
        assertThat(value(run(file, w))).isEqualTo(4.0);
        assertThat(sent).isEmpty();
        assertThat(cheap).singleElement().extracting(ModelProvider.Request::modelId).isEqualTo("claude-haiku");
        // 5 input tokens at 0.25 µ$ and 1 output token at 1.25 µ$: 2.5 µ$, rounded up
        assertThat(w.spent()).isEqualTo(3);
    }

    @Test void aReservationPastWhatALongCountsIsOverBudgetEvenWithoutABudget() {
        // a ceiling of Long.MAX_VALUE output tokens at $15 a million does not fit in a long of micro-dollars
        HostModel absurd = HostModel.perMillionTokens(BigDecimal.ZERO, new BigDecimal("15"), Long.MAX_VALUE);
        ScriptedModels w = ModelWorld.over(provider).model("gpt", absurd).unlimitedBudget().build().get();
        assertThat(value(run(fiftyAsks("(grant gpt (model))"), w))).isEqualTo(50.0);
        assertThat(sent).isEmpty();
        assertThat(w.spent()).isZero();
    }

    // ---- under a script the grant's terms are the prices, and are checked -----------------------------------------

    @Test void underAScriptTheGrantsPricesAreTheOnlyPriceList() {
        FileReport r = run("""
                (grant gpt (model [in 0] [out 0] [ceiling 10]))
                (define chat () (ask gpt Text (list (Message [role User] [content "hi"])) 'chat))
                (script s [chat (reply "\\"hi\\"") (out 2) (latency 1s)])
                (under ([script s] [cost $0])
                  (check-expect (chat) "hi")
                  (check-within (chat) ([cost $0] [time 1s])))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void underAScriptAnOverflowingWorstCaseIsOverBudgetNotAWrappedCharge() {
        FileReport r = run("""
                (grant gpt (model [in 1000000000000] [out 1000000000000] [ceiling 9223372036854775807]))
                (define chat () (ask gpt Text (list (Message [role User] [content "hi"])) 'chat))
                (define huge () (ask gpt (Text 9223372036854775807) (list (Message [role User] [content "hi"])) 'chat))
                (script s [chat (reply "\\"hi\\"") (out 2) (latency 1s)])
                (under ([script s])
                  (check-fail (chat) OverBudget)
                  (check-fail (huge) OverBudget)
                  (check-within (chat) ([cost $0] [time 0s])))
                """);
        assertThat(r.results()).hasSize(3);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void negativeFractionalOrOverflowingGrantTermsAreRefusedWhenTheFileIsChecked() {
        for (String term : List.of("[in -1]", "[out -5]", "[out 1.0000005]", "[in 1e3]", "[in .5]", "[in 5.]", "[in 99999999999999999999]",
                "[out 1000000000001]", "[out 1000000000000.000001]", "[in $1]", "[in \"three\"]", "[ceiling 0]", "[ceiling 1.5]",
                "[ceiling -4096]", "[think -1]", "[think 2.5]", "[in (+ 1 2)]")) {
            NormanProgram p = new Norman(SourceLoader.inMemory(Map.of())).check("(grant gpt (model " + term + "))", "t.nm");
            assertThat(p.diagnostics()).as(term).extracting(Diagnostic::code).containsExactly("E-NORMAN-017");
            assertThat(p.diagnostics().get(0).phase().spelling()).isEqualTo("parse");
        }
        NormanProgram id = new Norman(SourceLoader.inMemory(Map.of())).check("(grant gpt (model [id claude]))", "t.nm");
        assertThat(id.diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-003");
        NormanProgram out = new Norman(SourceLoader.inMemory(Map.of())).check("(script s [chat (reply \"x\") (out -3)])", "t.nm");
        assertThat(out.diagnostics()).extracting(Diagnostic::code).containsExactly("E-NORMAN-017");
        NormanProgram ok = new Norman(SourceLoader.inMemory(Map.of()))
                .check("(grant gpt (model [id \"x\"] [in 0] [out 1000000000000] [ceiling 9223372036854775807] [think 0]))", "t.nm");
        assertThat(ok.diagnostics()).isEmpty();
        NormanProgram fractions = new Norman(SourceLoader.inMemory(Map.of()))
                .check("(grant gpt (model [in 0.25] [out 1.125] [think 64]))\n(grant tiny (model [in 0.000001] [out 999999999999.999999]))", "t.nm");
        assertThat(fractions.diagnostics()).as("fractions of a micro-dollar a token, to a millionth").isEmpty();
    }
}
