package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.Askable;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.Show;
import dev.finch.lib.ShowReader;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The law of the language reference: {@code validate (show v) τ = v} for every askable type τ and value v : τ,
 * over generated types (Text with and without bounds, Num, Bool, Sym, lists, records, datatypes, nested) and
 * generated values of them, and recursive datatypes and records. Equality is µNorman's: numbers compare as numbers, so 0 and -0 (both shown as 0) agree.
 */
class ShowValidateProperties {
    /** A type and one of its values. */
    record Typed(Askable type, Object value) { }

    @Property(tries = 300)
    void validateReadsBackWhatShowWrites(@ForAll("typedValues") Typed tv) {
        String shown = Show.show(tv.type().irType(), tv.value());
        Validate.Validated back = Validate.validate(shown, tv.type());
        assertThat(back.ok()).as("validate %s as %s: %s", shown, tv.type(), back.reason()).isTrue();
        assertThat(same(back.value().get(), tv.value())).as("validate (show v) = v for %s as %s", shown, tv.type()).isTrue();
        // show is canonical: the value read back shows identically.
        assertThat(Show.show(tv.type().irType(), back.value().get())).isEqualTo(shown);
    }

    @Property(tries = 200)
    void aValueOfAnotherTypeIsInvalidNotAnException(@ForAll("typedValues") Typed a, @ForAll("types") Askable other) {
        String shown = Show.show(a.type().irType(), a.value());
        Validate.Validated v = Validate.validate(shown, other);
        // Either it happens to fit, and then it shows back identically, or it is refused with a reason.
        if (v.ok()) assertThat(Show.show(other.irType(), v.value().get())).isEqualTo(shown);
        else assertThat(v.reason()).isNotBlank();
    }

    @Property(tries = 200)
    void theLawHoldsForRecursiveTypes(@ForAll("recursiveValues") Typed tv) { validateReadsBackWhatShowWrites(tv); }

    /** Show's inverse by IR type (what µNorman's memory get reads with): it reads back what show writes, for every askable type. */
    @Property(tries = 300)
    void showReaderReadsBackWhatShowWrites(@ForAll("typedValues") Typed tv) {
        String shown = Show.show(tv.type().irType(), tv.value());
        java.util.Optional<Object> back = ShowReader.read(tv.type().irType(), json(shown), Meter.NONE);
        assertThat(back).as("read %s as %s", shown, tv.type().irType()).isPresent();
        assertThat(same(back.get(), tv.value())).as("read (show v) = v for %s", shown).isTrue();
        assertThat(Show.show(tv.type().irType(), back.get())).isEqualTo(shown);
    }

    @Property(tries = 200)
    void showReaderReadsBackRecursiveTypes(@ForAll("recursiveValues") Typed tv) { showReaderReadsBackWhatShowWrites(tv); }

    /**
     * On a type without size bounds, show's inverse accepts exactly what {@code validate} accepts, and reads the same
     * value: one JSON form, read strictly by both (validate adds only the bounds an IR type does not carry).
     */
    @Property(tries = 300)
    void showReaderAgreesWithValidateWhereThereAreNoBounds(@ForAll("typedValues") Typed a, @ForAll("types") Askable other) {
        Askable unbounded = unbounded(other);
        String shown = Show.show(a.type().irType(), a.value());
        Validate.Validated v = Validate.validate(shown, unbounded);
        java.util.Optional<Object> r = ShowReader.read(unbounded.irType(), json(shown), Meter.NONE);
        assertThat(r.isPresent()).as("%s as %s: validate says %s", shown, unbounded, v.ok() ? "ok" : v.reason()).isEqualTo(v.ok());
        if (v.ok()) assertThat(same(r.get(), v.value().get())).isTrue();
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String text) {
        return (com.fasterxml.jackson.databind.JsonNode) ((dev.finch.vm.value.ResultValue) dev.finch.vm.value.JsonValues.parse(text, Meter.NONE)).value();
    }

    /** {@code t} without its Text and List bounds. */
    private static Askable unbounded(Askable t) {
        if (t instanceof Askable.Text) return Askable.text();
        if (t instanceof Askable.ListOf l) return Askable.listOf(unbounded(l.element()));
        if (t instanceof Askable.Record r) {
            Map<String, Askable> f = new java.util.LinkedHashMap<>();
            r.fields().forEach((k, v) -> f.put(k, unbounded(v)));
            return new Askable.Record(r.name(), f);
        }
        if (t instanceof Askable.Datatype d) {
            Map<String, Map<String, Askable>> cs = new java.util.LinkedHashMap<>();
            d.constructors().forEach((c, fs) -> {
                Map<String, Askable> f = new java.util.LinkedHashMap<>();
                fs.forEach((k, v) -> f.put(k, unbounded(v)));
                cs.put(c, f);
            });
            return new Askable.Datatype(d.name(), cs);
        }
        return t;
    }

    @Provide Arbitrary<Typed> typedValues() { return types(2).flatMap(t -> values(t).map(v -> new Typed(t, v))); }

    /** Recursive datatypes and records (a tree with a list of subtrees, a plan with a list of steps), alone or in a list. */
    @Provide Arbitrary<Typed> recursiveValues() {
        Arbitrary<Askable> inner = types(1);
        Arbitrary<Askable> tree = Combinators.combine(inner, inner).as((a, b) -> {
            Map<String, Map<String, Askable>> cs = new java.util.LinkedHashMap<>();
            cs.put("Leaf", Map.of("v", a));
            cs.put("Node", Map.of("kids", Askable.listOf(new Askable.Ref("T")), "w", b));
            return (Askable) new Askable.Datatype("T", cs);
        });
        Arbitrary<Askable> plan = inner.map(a -> (Askable) new Askable.Record("P", Map.of("goal", a, "steps", Askable.listOf(new Askable.Ref("P")))));
        return Arbitraries.oneOf(tree, plan, tree.map(Askable::listOf)).flatMap(t -> values(t, Map.of(), 3).map(v -> new Typed(t, v)));
    }

    @Provide Arbitrary<Askable> types() { return types(2); }

    private static Arbitrary<Askable> types(int depth) {
        Arbitrary<Askable> leaf = Arbitraries.oneOf(
                Arbitraries.just(Askable.text()),
                Arbitraries.longs().between(0, 40).map(n -> new Askable.Text(OptionalLong.of(n))),
                Arbitraries.just(new Askable.Num()),
                Arbitraries.just(new Askable.Bool()),
                Arbitraries.just(new Askable.Sym()));
        if (depth == 0) return leaf;
        Arbitrary<Askable> inner = Arbitraries.lazy(() -> types(depth - 1));
        Arbitrary<Map<String, Askable>> fields = Arbitraries.maps(names(), inner).ofMaxSize(3);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, leaf),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, Arbitraries.integers().between(-1, 5))
                        .as((e, n) -> (Askable) new Askable.ListOf(e, n < 0 ? OptionalLong.empty() : OptionalLong.of(n)))),
                net.jqwik.api.Tuple.of(2, fields.map(f -> (Askable) new Askable.Record("R", f))),
                net.jqwik.api.Tuple.of(2, Arbitraries.maps(constructors(), fields).ofMinSize(1).ofMaxSize(3)
                        .map(cs -> (Askable) new Askable.Datatype("D", cs))));
    }

    private static Arbitrary<String> names() {
        // Any field name but the reserved tag, including ones that sort around it.
        return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5).filter(s -> !s.equals("tag"));
    }

    private static Arbitrary<String> constructors() { return Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(4); }

    private static Arbitrary<Object> values(Askable t) { return values(t, Map.of(), 0); }

    /** Values of {@code t} inside the declarations {@code enclosing}; a recursive type nests at most {@code fuel} levels. */
    private static Arbitrary<Object> values(Askable t, Map<String, Askable> enclosing, int fuel) {
        if (t instanceof Askable.Ref r) return values(enclosing.get(r.name()), enclosing, fuel - 1);
        if (t instanceof Askable.Record || t instanceof Askable.Datatype) {
            Map<String, Askable> inner = new java.util.HashMap<>(enclosing);
            inner.put(t instanceof Askable.Record r ? r.name() : ((Askable.Datatype) t).name(), t);
            enclosing = inner;
        }
        Map<String, Askable> env = enclosing;
        if (t instanceof Askable.Text x) {
            Arbitrary<String> s = Arbitraries.strings().withCharRange('\u0000', '\uD7FF').ofMaxLength(12);
            if (x.maxBytes().isPresent()) s = s.map(v -> within(v, x.maxBytes().getAsLong()));
            return s.map(v -> v);
        }
        if (t instanceof Askable.Num) {
            return Arbitraries.oneOf(Arbitraries.doubles().map(d -> (Object) d),
                    Arbitraries.integers().map(i -> (Object) (double) i),
                    Arbitraries.of(0.0, -0.0, 0.1, 1e-7, 1e15, 123456789012345.0, Double.MIN_VALUE, Double.MAX_VALUE, -2.5e300).map(d -> (Object) d));
        }
        if (t instanceof Askable.Bool) return Arbitraries.of(true, false).map(b -> b);
        if (t instanceof Askable.Sym) return Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6).map(Symbol::new);
        if (t instanceof Askable.ListOf l) {
            int max = l.maxItems().isPresent() ? (int) l.maxItems().getAsLong() : 4;
            if (l.element() instanceof Askable.Ref && fuel <= 0) return Arbitraries.just(ListValue.empty());
            return values(l.element(), env, fuel).list().ofMaxSize(max).map(ListValue::from);
        }
        if (t instanceof Askable.Record r) return record(r.fields(), env, fuel);
        Askable.Datatype d = (Askable.Datatype) t;
        return Arbitraries.of(new ArrayList<>(d.constructors().keySet())).flatMap(c -> {
            Map<String, Askable> f = d.constructors().get(c);
            return f.isEmpty() ? Arbitraries.just(new VariantValue(c, Unit.INSTANCE)) : record(f, env, fuel).map(p -> new VariantValue(c, p));
        });
    }

    /** The longest prefix of {@code s} of at most {@code bytes} bytes of UTF-8 (a bounded Text value). */
    private static String within(String s, long bytes) {
        int end = 0;
        long used = 0;
        while (end < s.length()) {
            long n = String.valueOf(s.charAt(end)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (used + n > bytes) break;
            used += n;
            end++;
        }
        return s.substring(0, end);
    }

    /** A record value: its fields in sorted order (the types keep them sorted). */
    private static Arbitrary<Object> record(Map<String, Askable> fields, Map<String, Askable> enclosing, int fuel) {
        if (fields.isEmpty()) return Arbitraries.just(new RecordValue(new Object[0]));
        List<Arbitrary<Object>> parts = new ArrayList<>();
        for (Askable f : fields.values()) parts.add(values(f, enclosing, fuel));
        return Combinators.combine(parts).as(vs -> new RecordValue(vs.toArray()));
    }

    /** µNorman equality: structural, numbers by value. */
    static boolean same(Object a, Object b) {
        if (a instanceof Double x && b instanceof Double y) return x.doubleValue() == y.doubleValue();
        if (a instanceof RecordValue x && b instanceof RecordValue y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i))) return false;
            return true;
        }
        if (a instanceof ListValue x && b instanceof ListValue y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i))) return false;
            return true;
        }
        if (a instanceof VariantValue x && b instanceof VariantValue y) return x.tag().equals(y.tag()) && same(x.payload(), y.payload());
        return java.util.Objects.equals(a, b);
    }
}
