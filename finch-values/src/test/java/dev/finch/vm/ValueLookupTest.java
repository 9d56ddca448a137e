package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 42: a map with string keys answers {@code get(String)}; empty collections from Java need no type syntax. */
class ValueLookupTest {
    @Test void aMapWithStringKeysAnswersGetByString() {
        Map<Value, Value> ages = new LinkedHashMap<>();
        ages.put(Value.of("ada"), Value.of(36));
        Value m = Value.map("string", "int", ages);
        assertThat(m.get("ada")).isEqualTo(Value.of(36));
        assertThat(m.find("bob")).isEmpty();
        assertThatThrownBy(() -> m.get("bob")).isInstanceOf(IllegalStateException.class).hasMessageContaining("no key \"bob\"");
        Value r = Value.record(Map.of("name", Value.of("Ada")));
        assertThat(r.get("name")).isEqualTo(Value.of("Ada"));
        assertThat(r.find("age")).isEmpty();
        Value intKeys = Value.map("int", "int", Map.of(Value.of(1), Value.of(2)));
        assertThatThrownBy(() -> intKeys.get("1")).isInstanceOf(IllegalStateException.class);
    }

    @Test void emptyCollectionsFromJavaClasses() {
        assertThat(Value.emptyList(Long.class).type().toString()).isEqualTo("list<int>");
        assertThat(Value.emptyList(String.class).asList()).isEmpty();
        assertThat(Value.emptyList(com.fasterxml.jackson.databind.JsonNode.class).type().toString()).isEqualTo("list<json>");
        assertThat(Value.emptyMap(String.class, Double.class).type().toString()).isEqualTo("map<string,float>");
        assertThat(Value.emptyList(Long.class)).isEqualTo(Value.list("int", List.of()));
        assertThatThrownBy(() -> Value.emptyList(Thread.class)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Thread");
    }
}
