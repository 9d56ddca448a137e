package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Frontend;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Finch's own frontends are made when a language is first submitted: once, whichever threads ask at once. */
class LazyFrontendsTest {
    private static final int THREADS = 8;

    private static Submission in(Language language) {
        return switch (language) {
            case FORTH -> Submission.of("1 2 +", "t.fth");
            case LISP -> Submission.of("(+ 1 2)", "t.lisp");
            case NORMAN -> Submission.of("(+ 1 2)", "t.nm");
        };
    }

    @Test void manyThreadsSubmittingEachLanguageFirstAtOnceGetOneFrontendAndTheSameAnswers() throws Exception {
        try (Finch finch = Finch.create()) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Outcome>> outcomes = new ArrayList<>();
                List<String> expected = new ArrayList<>();
                List<Future<Frontend>> frontends = new ArrayList<>();
                for (int i = 0; i < THREADS; i++) {
                    Language language = Language.values()[i % Language.values().length];
                    frontends.add(pool.submit(() -> {
                        start.await();
                        return finch.frontend(language).orElseThrow();
                    }));
                    expected.add(language == Language.NORMAN ? "3.0" : "3"); // µNorman's numbers are floats
                    outcomes.add(pool.submit(() -> {
                        start.await();
                        return finch.newSession().submit(in(language));
                    }));
                }
                start.countDown();
                for (int i = 0; i < THREADS; i++) {
                    assertThat(outcomes.get(i).get()).isInstanceOf(Outcome.Completed.class);
                    assertThat(outcomes.get(i).get().stack()).extracting(StackEntry::display).containsExactly(expected.get(i));
                }
                for (int i = 0; i < THREADS; i++) {
                    Language language = Language.values()[i % Language.values().length];
                    assertThat(frontends.get(i).get()).as("%s's frontend", language).isSameAs(finch.frontend(language).orElseThrow());
                    assertThat(frontends.get(i).get().language()).isEqualTo(language.spelling());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test void aBuildersFrontendStandsForItsLanguageAndTheOthersAreStillFinchsOwn() {
        Frontend lisp = new dev.finch.lisp.Lisp();
        try (Finch finch = Finch.builder().frontend(Language.LISP, lisp).build(); Finch other = Finch.create()) {
            assertThat(finch.frontend(Language.LISP)).containsSame(lisp);
            assertThat(finch.frontend(Language.FORTH).orElseThrow()).as("Co-Forth's is shared").isSameAs(other.frontend(Language.FORTH).orElseThrow());
            assertThat(finch.frontend(Language.NORMAN).orElseThrow()).as("µNorman's holds each Finch's source loader")
                    .isNotSameAs(other.frontend(Language.NORMAN).orElseThrow());
        }
    }
}
