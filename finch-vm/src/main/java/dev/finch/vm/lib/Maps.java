package dev.finch.vm.lib;

import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Typed maps: immutable, insertion-ordered ({@link OrderedPMap}), keyed by Finch's equality ({@link Values#equal};
 * a key goes in through {@link Values#key}).
 */
public final class Maps {
    private Maps() { }

    @Word(name = "map-get", category = Category.MAP, doc = "The value under a key, or none.")
    @Overload(sig = "map<k,v> k -> option<v>")
    public static Object mapGet(Map<Object, Object> m, Object key) {
        Object k = Values.key(key);
        Object v = m.get(k);
        return v == null && !m.containsKey(k) ? OptionValue.NONE : OptionValue.some(v);
    }

    @Word(name = "map-set", category = Category.MAP, doc = "A new map with the key set (an existing key keeps its position).")
    @Overload(sig = "map<k,v> k v -> map<k,v>")
    @SuppressWarnings("unchecked")
    public static Object mapSet(Map<Object, Object> m, Object key, Object value) {
        return ((OrderedPMap<Object, Object>) m).plus(Values.key(key), value);
    }

    @Word(name = "map-entries", category = Category.MAP, doc = "The entries in insertion order.")
    @Overload(sig = "map<k,v> -> list<record{key:k,value:v}>")
    public static Object mapEntries(Map<Object, Object> m) {
        List<Object> out = new ArrayList<>(m.size());
        // Record fields in canonical (sorted) order: key, value.
        for (Map.Entry<Object, Object> e : m.entrySet()) out.add(new RecordValue(new Object[] {e.getKey(), e.getValue()}));
        return ListValue.from(out);
    }
}
