package dev.finch.capabilities;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Collections;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Hostile selectors must not make authorization slow; when work runs out the answer is "not contained". */
// A hang guard only, a minute: the containment search is bounded by its own budget (answering "not contained" past it).
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PathologicalContainmentTest {

    private static String repeat(String s, int n, String sep) { return String.join(sep, Collections.nCopies(n, s)); }

    @Test
    void longWildcardSegmentsAreDecidedQuickly() {
        String outerSeg = "*" + repeat("a?", 60, "*") + "*";
        String innerSeg = repeat("?*b", 60, "") + "a";
        PathPattern outer = PathPattern.parse("${workspace}/" + outerSeg).value();
        PathPattern inner = PathPattern.parse("${workspace}/" + innerSeg).value();
        boolean c = outer.contains(inner);
        // Whatever the answer, it must be sound on a sample of inner's instances.
        if (c) assertThat(outer.matches(ConcretePath.of(Root.WORKSPACE, innerSeg.replace("?", "b").replace("*", "")).value())).isTrue();
    }

    @Test
    void manyDoubleStarSegmentsAreDecidedQuickly() {
        String outer = "${workspace}/" + repeat("**/a*", 300, "/");
        String inner = "${workspace}/" + repeat("**/*a", 300, "/");
        boolean c = PathPattern.parse(outer).value().contains(PathPattern.parse(inner).value());
        assertThat(c).isFalse();
        String same = "${workspace}/" + repeat("**/?*b", 300, "/");
        assertThat(PathPattern.parse(same).value().contains(PathPattern.parse(same).value())).isTrue();
    }

    @Test
    void matchingIsLinearEvenForLongSelectors() {
        PathPattern p = PathPattern.parse("${workspace}/" + repeat("**", 1, "") + "/" + repeat("*", 1000, "/")).value();
        ConcretePath deep = ConcretePath.of(Root.WORKSPACE, repeat("x", 2000, "/")).value();
        assertThat(p.matches(deep)).isTrue();
    }
}
