package dev.finch.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.vm.value.JsonValues;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Show;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link ShowReader}: show's inverse is strict where {@code validate} is — exact fields, a tag naming a constructor,
 * a payload only where the tag has one, finite numbers, non-empty symbols — and refuses types with no written form.
 */
class ShowReaderTest {
    private static JsonNode json(String text) { return (JsonNode) ((ResultValue) JsonValues.parse(text, Meter.NONE)).value(); }

    private static Optional<Object> read(String type, String text) { return ShowReader.read(TypeSyntax.parse(type), json(text), Meter.NONE); }

    private static String roundTrip(String type, String text) {
        Type t = TypeSyntax.parse(type);
        return Show.show(t, ShowReader.read(t, json(text), Meter.NONE).orElseThrow(), Meter.NONE);
    }

    @Test void readsWhatShowWritesForEachKindOfType() {
        assertThat(roundTrip("float", "2")).isEqualTo("2");
        assertThat(roundTrip("int", "7")).isEqualTo("7");
        assertThat(roundTrip("list<string>", "[\"a\",\"b\"]")).isEqualTo("[\"a\",\"b\"]");
        assertThat(roundTrip("record{a:float,b:bool}", "{\"b\":true,\"a\":1.5}")).isEqualTo("{\"a\":1.5,\"b\":true}");
        assertThat(roundTrip("variant{None|Some(record{value:symbol})}", "{\"tag\":\"Some\",\"value\":\"x\"}")).isEqualTo("{\"tag\":\"Some\",\"value\":\"x\"}");
        assertThat(roundTrip("variant{None|Some(record{value:symbol})}", "{\"tag\":\"None\"}")).isEqualTo("{\"tag\":\"None\"}");
        assertThat(roundTrip("option<int>", "{\"tag\":\"some\",\"value\":3}")).isEqualTo("{\"tag\":\"some\",\"value\":3}");
        assertThat(roundTrip("result<int,string>", "{\"tag\":\"err\",\"value\":\"no\"}")).isEqualTo("{\"tag\":\"err\",\"value\":\"no\"}");
        assertThat(roundTrip("map<string,int>", "{\"b\":2,\"a\":1}")).isEqualTo("{\"a\":1,\"b\":2}");
        assertThat(roundTrip("map<int,bool>", "[[1,true],[2,false]]")).isEqualTo("[[1,true],[2,false]]");
        assertThat(roundTrip("unit", "null")).isEqualTo("null");
        assertThat(roundTrip("json", "{\"z\":[1,{}]}")).isEqualTo("{\"z\":[1,{}]}");
        assertThat(roundTrip("rec<T,variant{Leaf|Node(record{kids:list<T>})}>", "{\"tag\":\"Node\",\"kids\":[{\"tag\":\"Leaf\"}]}"))
                .isEqualTo("{\"kids\":[{\"tag\":\"Leaf\"}],\"tag\":\"Node\"}");
    }

    @Test void anythingElseIsNotAValueOfTheType() {
        assertThat(read("record{a:float}", "{\"a\":1,\"b\":2}")).as("an extra field").isEmpty();
        assertThat(read("record{a:float}", "{}")).as("a missing field").isEmpty();
        assertThat(read("record{a:float}", "{\"a\":\"1\"}")).as("text for a number").isEmpty();
        assertThat(read("variant{A|B(record{x:int})}", "{\"tag\":\"C\"}")).as("no such tag").isEmpty();
        assertThat(read("variant{A|B(record{x:int})}", "{\"tag\":\"A\",\"x\":1}")).as("a payload on a nullary tag").isEmpty();
        assertThat(read("variant{A|B(record{x:int})}", "{\"x\":1}")).as("no tag").isEmpty();
        assertThat(read("variant{A|B(record{x:int})}", "{\"tag\":1}")).as("a tag that is not text").isEmpty();
        assertThat(read("symbol", "\"\"")).as("an empty symbol").isEmpty();
        assertThat(read("int", "1.5")).as("a fraction for an int").isEmpty();
        assertThat(read("int", "1e30")).as("an int beyond a long").isEmpty();
        assertThat(read("float", "1e400")).as("a number beyond a float").isEmpty();
        assertThat(read("list<float>", "[1,\"2\"]")).isEmpty();
        assertThat(read("map<int,bool>", "[[1,true],[1,false]]")).as("a key twice").isEmpty();
        assertThat(read("unit", "0")).isEmpty();
        assertThat(read("string", "null")).isEmpty();
    }

    @Test void aTypeWithoutAWrittenFormIsRefused() {
        assertThatThrownBy(() -> read("int -> int", "1")).isInstanceOf(Show.Refused.class).hasMessageContaining("function");
        assertThatThrownBy(() -> read("a", "1")).isInstanceOf(Show.Refused.class).hasMessageContaining("not fixed");
        assertThatThrownBy(() -> read("money", "\"$1\"")).isInstanceOf(Show.Refused.class);
        assertThatThrownBy(() -> read("bytes", "\"x\"")).isInstanceOf(Show.Refused.class);
    }

    @Test void readingIsCharged() {
        Counting meter = new Counting();
        StringBuilder big = new StringBuilder("[");
        for (int i = 0; i < 100_000; i++) big.append(i == 0 ? "" : ",").append(i);
        ShowReader.read(TypeSyntax.parse("list<float>"), json(big.append(']').toString()), meter);
        assertThat(meter.steps).isPositive();
    }

    /** A meter that counts the steps charged, with no bound. */
    private static final class Counting implements Meter {
        long steps;

        @Override public void charge(long s) { steps += s; }

        @Override public long maxBytes() { return Long.MAX_VALUE; }

        @Override public RuntimeException overLimit(String message) { return new IllegalStateException("over: " + message); }
    }
}
