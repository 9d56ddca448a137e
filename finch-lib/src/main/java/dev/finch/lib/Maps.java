package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.MapValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Sizes;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed maps: immutable, insertion-ordered ({@link MapValue}), keyed by Finch's equality ({@link Values#equal};
 * a key goes in through {@link Values#key}). A word that builds a map or a list checks its logical size against
 * the run's memory limit before building it (E-LIMIT-005): a map entry costs 200 bytes besides its key and value.
 */
public final class Maps {
    private Maps() { }

    @Word(name = "map-get", aka = {"hash-ref", "hash-table-ref", "assoc", "gethash", "get"}, category = Category.MAP, doc = "The value under a key, or none.")
    @Overload(sig = "map<k,v> k -> option<v>")
    public static Object mapGet(Map<Object, Object> m, Object key) {
        Object k = Values.key(key);
        Object v = m.get(k);
        return v == null && !m.containsKey(k) ? OptionValue.NONE : OptionValue.some(v);
    }

    @Word(name = "map-set", aka = {"hash-set!", "hash-table-set!", "put", "assoc!"}, category = Category.MAP,
            doc = "A new map with the key set (an existing key keeps its position); E-LIMIT-005 when the map would pass the memory limit.")
    @Overload(sig = "map<k,v> k v -> map<k,v>")
    public static Object mapSet(Ctx ctx, Map<Object, Object> m, Object key, Object value, Origin o) {
        MapValue map = MapValue.from(m);
        reserve(ctx, map.bytesWith(key, value), "map-set", o);
        return map.plus(key, value);
    }

    @Word(name = "map-entries", category = Category.MAP, doc = "The entries in insertion order (the empty list for an empty map).")
    @Overload(sig = "map<k,v> -> list<record{key:k,value:v}>")
    public static Object mapEntries(Ctx ctx, Map<Object, Object> m, Origin o) {
        // Each entry becomes a record of two fields in a list slot, smaller than the entry: the list is smaller than the map.
        long entries = Sizes.of(m);
        if (entries != Long.MAX_VALUE) entries -= m.size() * (Sizes.ENTRY - (2 * Sizes.SLOT + Sizes.VALUE + Sizes.SLOT));
        Lists.reserveBytes(ctx, entries, "map-entries", o);
        Lists.charge(ctx, m.size());
        List<Object> out = new ArrayList<>(m.size());
        // Record fields in canonical (sorted) order: key, value.
        for (Map.Entry<Object, Object> e : m.entrySet()) out.add(new RecordValue(new Object[] {e.getKey(), e.getValue()}));
        return ListValue.from(out);
    }

    @Word(name = "map-has", category = Category.MAP, doc = "True when the map has the key (Finch's equality: -0.0 and 0.0 are one key).")
    @Overload(sig = "map<k,v> k -> bool")
    public static boolean mapHas(Map<Object, Object> m, Object key) {
        return m.containsKey(Values.key(key));
    }

    @Word(name = "map-remove", category = Category.MAP,
            doc = "A new map without the key (the others keep their order); the map unchanged when the key is absent.")
    @Overload(sig = "map<k,v> k -> map<k,v>")
    public static Object mapRemove(Map<Object, Object> m, Object key) {
        return MapValue.from(m).minus(key);
    }

    @Word(name = "map-keys", category = Category.MAP, doc = "The keys in insertion order (the empty list for an empty map).")
    @Overload(sig = "map<k,v> -> list<k>")
    public static Object mapKeys(Ctx ctx, Map<Object, Object> m, Origin o) {
        Lists.reserve(ctx, m.size(), "map-keys", o);
        Lists.charge(ctx, m.size());
        return ListValue.from(m.keySet());
    }

    @Word(name = "map-values", category = Category.MAP, doc = "The values in their keys' insertion order (the empty list for an empty map).")
    @Overload(sig = "map<k,v> -> list<v>")
    public static Object mapValues(Ctx ctx, Map<Object, Object> m, Origin o) {
        Lists.reserve(ctx, m.size(), "map-values", o);
        Lists.charge(ctx, m.size());
        return ListValue.from(m.values());
    }

    @Word(name = "map-size", category = Category.MAP, doc = "The number of keys.")
    @Overload(sig = "map<k,v> -> int")
    public static long mapSize(Map<Object, Object> m) { return m.size(); }

    /** Refuses a map of logical size {@code bytes} over the run's memory limit, before it is built (E-LIMIT-005). */
    static void reserve(Ctx ctx, long bytes, String word, Origin o) {
        if (bytes > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a map of " + bytes
                    + " bytes (200 an entry besides its key and value; a shared value counted once per use), over the memory limit of "
                    + ctx.maxMemoryBytes() + " bytes");
        }
    }
}
