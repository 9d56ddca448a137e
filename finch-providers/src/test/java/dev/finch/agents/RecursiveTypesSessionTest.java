package dev.finch.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.vm.value.Money;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Recursive µNorman types in a session (issue 16, item 5): a model's plan tree is validated into a value of the
 * recursive type, shown, kept on the session stack, and saved and restored with a paused run.
 */
class RecursiveTypesSessionTest {
    private final ModelProvider model = request -> new ModelProvider.Reply(
            "{\"goal\":\"ship\",\"steps\":[{\"goal\":\"build\",\"steps\":[]},{\"goal\":\"test\",\"steps\":[]}]}", 20, "end_turn", 5);

    private Finch finch() {
        return Finch.builder().models(ModelWorld.over(model).model("gpt", HostModel.perToken(Money.ofMicros(1), Money.ofMicros(1), 400))
                .budget(Money.ofMicros(10_000)).timeLimit(Duration.ofMinutes(1)).build()).imageKey(dev.finch.persist.Images.KEY).build();
    }

    private static Outcome submit(Session s, String src) { return s.submit(Submission.of(src, "plan.nm").withLanguage(Language.NORMAN)); }

    private static final String PLAN = """
            (grant gpt (model [in 1] [out 1] [ceiling 400]))
            (record Plan (goal Text) (steps (List Plan)))
            (define size (p) (+ 1 (sizes (. p steps))))
            (define sizes (ps) (case ps ['() 0] [(cons h t) (+ (size h) (sizes t))]))
            (define plan () (ask gpt Plan (list (Message [role User] [content "ship it"])) 'plan))
            (let* ([p (plan)]) (text-append (show p) " " (show (size p))))
            """;

    @Test void aPlanTreeIsAskedForValidatedShownAndSavedWithThePausedRun() {
        Session s = finch().newSession();
        Outcome first = submit(s, "(record Tree (label Text) (kids (List Tree)))\n(Tree [label \"root\"] [kids (list (Tree [label \"leaf\"] [kids '()]))])");
        assertThat(first).as("%s", first).isInstanceOf(Outcome.Completed.class);
        Outcome o = submit(s, PLAN);
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
        Session restored = finch().restore(s.save(o.executionId()), SessionOptions.DEFAULT);
        Outcome done = restored.approve(o.executionId(), Scope.ONCE);
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.stack()).hasSize(2);
        assertThat(done.stack().get(0).type()).contains("rec<Tree,record{kids:list<Tree>,label:string}>");
        assertThat(done.stack().get(1).display()).isEqualTo(
                "\"{\\\"goal\\\":\\\"ship\\\",\\\"steps\\\":[{\\\"goal\\\":\\\"build\\\",\\\"steps\\\":[]},{\\\"goal\\\":\\\"test\\\",\\\"steps\\\":[]}]} 3\"");
    }
}
