package dev.finch.frontend.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Inferences on many threads at once never meet: each numbers its variables from 1 with its own supply, and its answer
 * is the answer it gives alone. (With a static counter the numbers of one inference would depend on the others, and
 * the counter would race.)
 */
class ConcurrentInferenceTest {
    /** What one inference answers: the instances it made, spelled with its own variable numbers, and how many it made. */
    private record Answer(List<String> types, long variables) { }

    /** A small let-polymorphic inference: compose, generalize, instantiate, unify, round after round. */
    private static Answer infer(int rounds) {
        Unifier<T> hm = new Unifier<>(w -> d -> { }, false);
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            hm.enter();
            T.Var a = new T.Var(hm.supply(), hm.level());
            T.Var b = new T.Var(hm.supply(), hm.level());
            T.Var c = new T.Var(hm.supply(), hm.level());
            // compose : (b -> a) (c -> b) -> (c -> a)
            T compose = T.fn(T.fn(a, c), T.fn(a, b), T.fn(b, c));
            hm.leave();
            Scheme<T> s = hm.generalize(compose, v -> true);
            T use = hm.instantiate(s, v -> new T.Var(hm.supply(), hm.level()));
            T.Var x = new T.Var(hm.supply(), hm.level());
            // used at (Text -> Int) ((List Int) -> Text) -> x
            hm.unify(use, T.fn(x, T.fn(T.INT, T.TEXT), T.fn(T.TEXT, T.con("List", T.INT))));
            out.add(T.show(x) + " " + T.show(use));
        }
        return new Answer(out, hm.supply().issued());
    }

    @Test
    void manyInferencesOnManyThreadsAnswerAsEachDoesAlone() throws Exception {
        int threads = 16;
        int rounds = 2_000;
        Answer alone = infer(rounds);
        assertThat(alone.variables()).isEqualTo(rounds * 7L);
        assertThat(alone.types()).allMatch(t -> t.equals("((List (Int)) -> (Int)) (((Text) -> (Int)) ((List (Int)) -> (Text)) -> ((List (Int)) -> (Int)))"));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Callable<Answer>> jobs = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                jobs.add(() -> {
                    start.await();
                    return infer(rounds);
                });
            }
            List<Future<Answer>> answers = new ArrayList<>();
            for (Callable<Answer> j : jobs) answers.add(pool.submit(j));
            start.countDown();
            for (Future<Answer> f : answers) assertThat(f.get()).isEqualTo(alone);
        } finally {
            pool.shutdownNow();
        }
    }
}
