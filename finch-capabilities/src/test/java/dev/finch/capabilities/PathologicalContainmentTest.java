package dev.finch.capabilities;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Hostile selectors must not make authorization slow; when work runs out the answer is "not contained". */
class PathologicalContainmentTest {
    /** A hang guard only: the containment search is bounded by its own budget (answering "not contained" past it). */
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);


    private static String repeat(String s, int n, String sep) { return String.join(sep, Collections.nCopies(n, s)); }

    @Test
    void longWildcardSegmentsAreDecidedQuickly() {
        String outerSeg = "*" + repeat("a?", 60, "*") + "*";
        String innerSeg = repeat("?*b", 60, "") + "a";
        PathPattern outer = PathPattern.parse("${workspace}/" + outerSeg).value();
        PathPattern inner = PathPattern.parse("${workspace}/" + innerSeg).value();
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            boolean c = outer.contains(inner);
            // Whatever the answer, it must be sound on a sample of inner's instances.
            if (c) assertThat(outer.matches(ConcretePath.of(Root.WORKSPACE, innerSeg.replace("?", "b").replace("*", "")).value())).isTrue();
        });
    }

    @Test
    void manyDoubleStarSegmentsAreDecidedQuickly() {
        String outer = "${workspace}/" + repeat("**/a*", 300, "/");
        String inner = "${workspace}/" + repeat("**/*a", 300, "/");
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            boolean c = PathPattern.parse(outer).value().contains(PathPattern.parse(inner).value());
            assertThat(c).isFalse();
        });
        String same = "${workspace}/" + repeat("**/?*b", 300, "/");
        assertTimeoutPreemptively(HANG_GUARD, () ->
                assertThat(PathPattern.parse(same).value().contains(PathPattern.parse(same).value())).isTrue());
    }

    @Test
    void matchingIsLinearEvenForLongSelectors() {
        PathPattern p = PathPattern.parse("${workspace}/" + repeat("**", 1, "") + "/" + repeat("*", 1000, "/")).value();
        ConcretePath deep = ConcretePath.of(Root.WORKSPACE, repeat("x", 2000, "/")).value();
        assertTimeoutPreemptively(HANG_GUARD, () -> assertThat(p.matches(deep)).isTrue());
    }
}
