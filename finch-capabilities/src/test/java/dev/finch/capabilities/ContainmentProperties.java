package dev.finch.capabilities;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of selector containment over a tiny alphabet, where random patterns overlap often. */
class ContainmentProperties {

    // ---- generators ----

    @Provide
    Arbitrary<String> segmentGlob() {
        return Arbitraries.of('a', 'b', '*', '?').list().ofMinSize(1).ofMaxSize(3)
                .map(cs -> { StringBuilder b = new StringBuilder(); cs.forEach(b::append); return b.toString(); })
                .filter(s -> !s.contains("**"));
    }

    @Provide
    Arbitrary<PathPattern> pattern() {
        Arbitrary<String> segment = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, segmentGlob()),
                net.jqwik.api.Tuple.of(2, Arbitraries.just("**")));
        Arbitrary<Root> root = Arbitraries.frequency(net.jqwik.api.Tuple.of(9, Root.WORKSPACE), net.jqwik.api.Tuple.of(1, Root.PROJECT));
        return Combinators.combine(root, segment.list().ofMaxSize(4)).as((r, segs) ->
                segs.isEmpty() ? PathPattern.parse(r.prefix()).value() : PathPattern.parse(r.prefix() + "/" + String.join("/", segs)).value());
    }

    /** A concrete path selected by {@code p}: each wildcard replaced by random text, each {@code **} by 0–2 names. */
    static ConcretePath instance(PathPattern p, Random random) {
        List<String> names = new ArrayList<>();
        for (String seg : p.segments().segments()) {
            if (seg.equals("**")) {
                for (int k = random.nextInt(3); k > 0; k--) names.add(word(random, 1 + random.nextInt(2)));
                continue;
            }
            StringBuilder b = new StringBuilder();
            for (char c : seg.toCharArray()) {
                if (c == '*') b.append(word(random, random.nextInt(3)));
                else if (c == '?') b.append(word(random, 1));
                else b.append(c);
            }
            names.add(b.length() == 0 ? "c" : b.toString());
        }
        return names.isEmpty() ? ConcretePath.rootOf(p.root()) : ConcretePath.of(p.root(), String.join("/", names)).value();
    }

    private static String word(Random random, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) b.append("abc".charAt(random.nextInt(3)));
        return b.toString();
    }

    /** Narrows {@code p}: every result selects a subset of what {@code p} selects. */
    static PathPattern narrow(PathPattern p, Random random) {
        List<String> out = new ArrayList<>();
        for (String seg : p.segments().segments()) {
            if (seg.equals("**")) {
                switch (random.nextInt(5)) {
                    case 0: break;
                    case 1: out.add("*"); break;
                    case 2: out.add("a"); out.add("**"); break;
                    case 3: out.add("*"); out.add("**"); out.add("b?"); break;
                    default: out.add("**");
                }
                continue;
            }
            StringBuilder b = new StringBuilder();
            for (char c : seg.toCharArray()) {
                if (c == '*') b.append(List.of("*", "", "a", "a*", "?", "*b*").get(random.nextInt(6)));
                else if (c == '?') b.append(random.nextBoolean() ? "?" : "b");
                else b.append(c);
            }
            String s = b.toString().replace("**", "*");
            // An emptied segment would select nothing valid; '?' selects a subset of what '*' did.
            out.add(s.isEmpty() ? "?" : s);
        }
        String text = out.isEmpty() ? p.root().prefix() : p.root().prefix() + "/" + String.join("/", out);
        return PathPattern.parse(text).value();
    }

    // ---- properties ----

    @Property(tries = 3000)
    void soundness(@ForAll("pattern") PathPattern p, @ForAll("pattern") PathPattern q, @ForAll long seed) {
        boolean contained = p.contains(q);
        Statistics.label("contains").collect(contained);
        if (!contained) return;
        Random random = new Random(seed);
        for (int i = 0; i < 30; i++) {
            ConcretePath c = instance(q, random);
            assertThat(q.matches(c)).as("generator sanity: %s selects %s", q, c).isTrue();
            assertThat(p.matches(c)).as("%s contains %s but does not select %s", p, q, c).isTrue();
        }
    }

    @Property(tries = 2000)
    void soundnessOnNarrowedPairsAndPrecision(@ForAll("pattern") PathPattern p, @ForAll long seed) {
        Random random = new Random(seed);
        PathPattern q = narrow(p, random);
        // Precision: a structural narrowing is always recognized as contained.
        assertThat(p.contains(q)).as("%s should contain its narrowing %s", p, q).isTrue();
        for (int i = 0; i < 30; i++) assertThat(p.matches(instance(q, random))).isTrue();
    }

    @Property(tries = 2000)
    void reflexivity(@ForAll("pattern") PathPattern p) {
        assertThat(p.contains(p)).isTrue();
        PathPattern reparsed = PathPattern.parse(p.toString()).value();
        assertThat(reparsed).isEqualTo(p);
        assertThat(p.contains(reparsed)).isTrue();
    }

    @Property(tries = 3000)
    void concretePatternIsContainedIffMatched(@ForAll("pattern") PathPattern p, @ForAll("pattern") PathPattern source, @ForAll long seed) {
        Random random = new Random(seed);
        // Half the paths come from p itself so both answers occur often.
        ConcretePath c = instance(random.nextBoolean() ? p : source, random);
        boolean matched = p.matches(c);
        Statistics.label("matched").collect(matched);
        assertThat(p.contains(PathPattern.of(c))).isEqualTo(matched);
    }

    /** Segment globs are decided exactly: compared against brute force over every name up to length 6 over a, b, c. */
    @Property(tries = 1500)
    void segmentGlobContainmentIsExact(@ForAll("segmentGlob") String outer, @ForAll("segmentGlob") String inner) {
        SegmentGlob o = SegmentGlob.compile(outer);
        SegmentGlob i = SegmentGlob.compile(inner);
        boolean brute = true;
        for (String name : NAMES) if (i.matches(name) && !o.matches(name)) { brute = false; break; }
        Statistics.label("glob contains").collect(brute);
        assertThat(o.contains(i)).as("%s contains %s", outer, inner).isEqualTo(brute);
    }

    private static final List<String> NAMES = names(6);

    private static List<String> names(int max) {
        List<String> out = new ArrayList<>();
        List<String> level = List.of("");
        for (int len = 1; len <= max; len++) {
            List<String> next = new ArrayList<>();
            for (String s : level) for (char c : "abc".toCharArray()) next.add(s + c);
            out.addAll(next);
            level = next;
        }
        return out;
    }
}
