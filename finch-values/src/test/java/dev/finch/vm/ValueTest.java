package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ValueTest {
    record Point(long x, long y) { }

    record Task(String taskId, List<String> tags, Optional<Long> limit) { }

    @Test void scalarsFromJavaAndBack() {
        assertThat(Value.of(42).asLong()).isEqualTo(42);
        assertThat(Value.of(1.5).asDouble()).isEqualTo(1.5);
        assertThat(Value.of(true).asBoolean()).isTrue();
        assertThat(Value.of("hé").asString()).isEqualTo("hé");
        assertThat(Value.of(new byte[] {1, 2}).asBytes()).containsExactly(1, 2);
        assertThat(Value.of((Object) 7).type()).isEqualTo(Type.Prim.INT);
        assertThat(Value.of((Object) 7.0f).type()).isEqualTo(Type.Prim.FLOAT);
        assertThat(Value.unit().display()).isEqualTo("()");
        assertThat(Value.symbol("ok").display()).isEqualTo("'ok");
        assertThat(Value.of("a\"b").display()).isEqualTo("\"a\\\"b\"");
    }

    @Test void bytesStayImmutable() {
        byte[] data = {1, 2, 3};
        Value v = Value.of(data);
        data[0] = 9;
        v.asBytes()[1] = 9;
        assertThat(v.asBytes()).containsExactly(1, 2, 3);
    }

    @Test void collectionsTakeTheirElementTypes() {
        Value names = Value.of(List.of("ada", "grace"));
        assertThat(names.type().toString()).isEqualTo("list<string>");
        assertThat(names.display()).isEqualTo("[\"ada\" \"grace\"]");
        Value m = Value.of(Map.of("k", 1L));
        assertThat(m.type().toString()).isEqualTo("map<string,int>");
        assertThat(Value.of(Optional.of(3)).display()).isEqualTo("(some 3)");
        assertThat(Value.none("int").type().toString()).isEqualTo("option<int>");
        assertThat(Value.list("int", List.of()).display()).isEqualTo("[]");
        assertThat(Value.ok(Value.of(1), "string").type().toString()).isEqualTo("result<int,string>");
        assertThat(Value.err("int", Value.of("no")).display()).isEqualTo("(err \"no\")");
    }

    @Test void mistakesAreNamed() {
        assertThatThrownBy(() -> Value.of(List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Value.list");
        assertThatThrownBy(() -> Value.of(List.of(1, "x"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("list element must be a int");
        assertThatThrownBy(() -> Value.of(new Object())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Finch counterpart");
        assertThatThrownBy(() -> Value.of((Object) null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.json("{\"a\":1,\"a\":2}")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid JSON");
        assertThatThrownBy(() -> Value.none("a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type variable");
        assertThatThrownBy(() -> Value.variant("variant{dot|circle(int)}", "dot", Optional.of(Value.of(1)))).hasMessageContaining("carries no payload");
        assertThatThrownBy(() -> Value.of("x").asLong()).isInstanceOf(IllegalStateException.class).hasMessageContaining("expected an int but the value is \"x\" : string");
        assertThatThrownBy(() -> Value.of(1L << 40).as(int.class)).isInstanceOf(IllegalStateException.class).hasMessageContaining("does not fit");
    }

    @Test void javaRecordsBothWays() {
        Value p = Value.of(new Point(3, 4));
        assertThat(p.type().toString()).isEqualTo("record{x:int,y:int}");
        assertThat(p.display()).isEqualTo("{ x: 3 y: 4 }");
        assertThat(p.get("y").asLong()).isEqualTo(4);
        assertThat(p.as(Point.class)).isEqualTo(new Point(3, 4));
        Value t = Value.record(Map.of("task-id", Value.of("t1"), "tags", Value.of(List.of("a")), "limit", Value.none("int")));
        assertThat(t.as(Task.class)).isEqualTo(new Task("t1", List.of("a"), Optional.empty()));
        assertThatThrownBy(() -> Value.record(Map.of("x", Value.of(1))).as(Point.class)).hasMessageContaining("no field for component y");
    }

    @Test void jsonIsCanonicalText() {
        Value j = Value.json(" { \"a\" : [1, 2.5] } ");
        assertThat(j.display()).isEqualTo("{\"a\":[1,2.5]}");
        assertThat(j.as(com.fasterxml.jackson.databind.JsonNode.class).get("a").size()).isEqualTo(2);
        assertThat(j).isEqualTo(Value.json("{\"a\":[1,2.5]}"));
    }

    @Test void floatEqualityIsFinchs() {
        assertThat(Value.of(-0.0)).isEqualTo(Value.of(0.0)).hasSameHashCodeAs(Value.of(0.0));
        assertThat(Value.of(Double.NaN)).isEqualTo(Value.of(Double.NaN));
    }

    @Test void naturalJava() {
        Value v = Value.record(Map.of("xs", Value.of(List.of(1, 2)), "name", Value.of("n")));
        assertThat(v.toJava()).isEqualTo(Map.of("name", "n", "xs", List.of(1L, 2L)));
        assertThat(Value.of(List.of(1, 2)).as(List.class)).isEqualTo(List.of(1L, 2L));
    }

    /** Law: a value goes into the VM's representation and comes back equal, with the same type and display. */
    @Property(tries = 300)
    void roundTripsThroughTheVm(@ForAll long seed) {
        Random r = new Random(seed);
        Type t = type(r, 3);
        Value v = value(r, t, 3);
        TypedValue vm = TypedValue.of(v);
        assertThat(dev.finch.vm.value.Values.conforms(t, vm.value())).isTrue();
        Value back = vm.toValue();
        assertThat(back).isEqualTo(v);
        assertThat(back.type()).isEqualTo(t);
        assertThat(back.display()).isEqualTo(vm.display());
        assertThat(TypeSyntax.parse(t.toString())).isEqualTo(t);
    }

    private static Type type(Random r, int depth) {
        int pick = r.nextInt(depth <= 0 ? 7 : 13);
        return switch (pick) {
            case 0 -> Type.Prim.INT;
            case 1 -> Type.Prim.FLOAT;
            case 2 -> Type.Prim.BOOL;
            case 3 -> Type.Prim.STRING;
            case 4 -> Type.Prim.BYTES;
            case 5 -> Type.Prim.SYMBOL;
            case 6 -> Type.Prim.UNIT;
            case 7 -> new Type.ListT(type(r, depth - 1));
            case 8 -> new Type.MapT(Type.Prim.STRING, type(r, depth - 1));
            case 9 -> new Type.OptionT(type(r, depth - 1));
            case 10 -> new Type.ResultT(type(r, depth - 1), Type.Prim.STRING);
            case 11 -> {
                Map<String, Type> fields = new LinkedHashMap<>();
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) fields.put("f" + i, type(r, depth - 1));
                yield new Type.RecordT(fields);
            }
            default -> {
                Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                tags.put("none", Optional.empty());
                tags.put("some", Optional.of(type(r, depth - 1)));
                yield new Type.VariantT(tags);
            }
        };
    }

    private static Value value(Random r, Type t, int depth) {
        return switch (t.kind()) {
            case PRIM -> switch ((Type.Prim) t) {
                case INT -> Value.of(r.nextLong());
                case FLOAT -> Value.of(r.nextInt(10) == 0 ? Double.NaN : r.nextGaussian() * 1e6);
                case BOOL -> Value.of(r.nextBoolean());
                case STRING -> Value.of("s" + r.nextInt(1000) + (r.nextBoolean() ? "é\n" : ""));
                case BYTES -> { byte[] b = new byte[r.nextInt(5)]; r.nextBytes(b); yield Value.of(b); }
                case SYMBOL -> Value.symbol("sym" + r.nextInt(9));
                case UNIT -> Value.unit();
                case JSON -> Value.json("[1]");
            };
            case LIST -> {
                Type e = ((Type.ListT) t).element();
                List<Value> items = new ArrayList<>();
                for (int i = 0, n = r.nextInt(4); i < n; i++) items.add(value(r, e, depth - 1));
                yield new Value.List(e, items);
            }
            case MAP -> {
                Type.MapT m = (Type.MapT) t;
                Map<Value, Value> entries = new LinkedHashMap<>();
                for (int i = 0, n = r.nextInt(4); i < n; i++) entries.put(Value.of("k" + i), value(r, m.value(), depth - 1));
                yield new Value.Map(m.key(), m.value(), entries);
            }
            case OPTION -> {
                Type e = ((Type.OptionT) t).value();
                yield new Value.Option(e, r.nextBoolean() ? Optional.of(value(r, e, depth - 1)) : Optional.empty());
            }
            case RESULT -> {
                Type.ResultT rt = (Type.ResultT) t;
                boolean ok = r.nextBoolean();
                yield new Value.Result(rt.ok(), rt.err(), ok, value(r, ok ? rt.ok() : rt.err(), depth - 1));
            }
            case RECORD -> {
                Map<String, Value> fields = new LinkedHashMap<>();
                ((Type.RecordT) t).fields().forEach((n, ft) -> fields.put(n, value(r, ft, depth - 1)));
                yield new Value.Record(fields);
            }
            case VARIANT -> {
                Type.VariantT vt = (Type.VariantT) t;
                boolean some = r.nextBoolean();
                yield new Value.Variant(vt, some ? "some" : "none",
                        some ? Optional.of(value(r, vt.tags().get("some").orElseThrow(), depth - 1)) : Optional.empty());
            }
            default -> throw new AssertionError(t);
        };
    }
}
