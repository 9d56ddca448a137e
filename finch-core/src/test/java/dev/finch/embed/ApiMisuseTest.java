package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 14, item 7: a null argument to a public method is a documented IllegalArgumentException, never an NPE. */
class ApiMisuseTest {
    private final Finch finch = Finch.create();
    private final Session s = finch.newSession();

    @Test void nullArgumentsAreNamedIllegalArguments() {
        List<Runnable> misuse = List.of(
                () -> s.approve(null, null), () -> s.approve("x", null), () -> s.deny(null, "no"), () -> s.resume(null),
                () -> s.respond(null, null), () -> s.respond((dev.finch.VmResume) null), () -> s.cancel(null), () -> s.submit(null),
                () -> s.submitAsync(null), () -> s.check(null), () -> s.save(null), () -> s.pendingRequest(null), () -> s.call(null),
                () -> s.call("+", (Value[]) null), () -> s.call("+", Value.of(1), null), () -> s.installWords(null), () -> s.revoke(null),
                () -> s.buffer(null), () -> finch.restore(null), () -> finch.restore("{}", null));
        for (Runnable r : misuse) assertThatThrownBy(r::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        assertThat(s.submit(Submission.of("1 2 +", "t")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test void unknownExecutionsAreOutcomesNotExceptions() {
        assertThat(s.approve("s9-x-e9", Scope.ONCE).diagnostics().get(0).code()).isEqualTo("E-SESSION-004");
        assertThat(s.resume("nope").status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(s.respond((String) null).status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(s.cancel("nope")).isFalse();
        assertThat(finch.newSession(SessionOptions.DEFAULT).inspectWord(null)).isEmpty();
    }
}
