package dev.finch.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Finch value as a Java program holds it: immutable, typed, and independent of the VM's own representation. What
 * an embedder passes in ({@code Session.call}, a deferred host's answer) and reads back ({@code Outcome.values()}).
 *
 * <p>One variant per kind of Finch type, named as Finch spells it — {@link Int}, {@link Float}, {@link Bool},
 * {@link Str} ({@code string}), {@link Bytes}, {@link Unit}, {@link Symbol}, {@link List}, {@link Map},
 * {@link Record}, {@link Variant}, {@link Option}, {@link Result}, {@link Json} — and {@link Opaque} for the values a
 * Java program can only hand back (paths, closures, streams, tasks, money, durations). Every value knows its
 * {@link #type()}; {@link #display()} is the outcome's D4 rendering, and equality is Finch's ({@code nan} equals
 * {@code nan}, {@code -0.0} equals {@code 0.0}).
 *
 * <pre>{@code
 * Value point = Value.record(java.util.Map.of("x", Value.of(3), "y", Value.of(4)));
 * Value names = Value.of(java.util.List.of("ada", "grace"));        // list<string>
 * Value none  = Value.none("int");                                   // option<int>
 * long x      = point.get("x").asLong();
 * record Point(long x, long y) { }
 * Point p     = point.as(Point.class);                               // fields by name
 * }</pre>
 * Construction checks what Finch guarantees of its values: a list's elements, a map's keys and values, an option's
 * or a result's payload all have the stated type, which has no type variable; json is what {@code json-parse}
 * accepts. A violation is an {@link IllegalArgumentException} naming it.
 */
public sealed interface Value {
    /** The value's Finch type. */
    Type type();

    /** The D4 display: {@code 42}, {@code "text"}, {@code (some 1)}, {@code [1 2]}, {@code { x: 3 y: 4 }}. */
    default String display() { return ValueConversion.display(this); }

    // ------------------------------------------------------------------------------------------------ variants

    /** An {@code int}: a signed 64-bit integer. */
    record Int(long value) implements Value {
        @Override public Type type() { return Type.Prim.INT; }
        @Override public String toString() { return display(); }
    }

    /** A {@code float}: an IEEE double; equality is Finch's total order ({@code -0.0 = 0.0}, {@code nan = nan}). */
    record Float(double value) implements Value {
        @Override public Type type() { return Type.Prim.FLOAT; }
        @Override public boolean equals(Object o) { return o instanceof Float f && dev.finch.vm.value.Values.floatEquals(value, f.value); }
        @Override public int hashCode() { return Double.hashCode(value == 0.0 ? 0.0 : value); }
        @Override public String toString() { return display(); }
    }

    /** A {@code bool}. */
    record Bool(boolean value) implements Value {
        @Override public Type type() { return Type.Prim.BOOL; }
        @Override public String toString() { return display(); }
    }

    /** A {@code string}. */
    record Str(String value) implements Value {
        public Str { Objects.requireNonNull(value, "value"); }
        @Override public Type type() { return Type.Prim.STRING; }
        @Override public String toString() { return display(); }
    }

    /** A {@code bytes} value; the array is copied in and out, so the value stays immutable. */
    final class Bytes implements Value {
        private final byte[] data;

        private Bytes(byte[] data) { this.data = data; }

        /** A copy of the bytes. */
        public byte[] value() { return data.clone(); }

        public int length() { return data.length; }

        @Override public Type type() { return Type.Prim.BYTES; }
        @Override public boolean equals(Object o) { return o instanceof Bytes b && java.util.Arrays.equals(data, b.data); }
        @Override public int hashCode() { return java.util.Arrays.hashCode(data); }
        @Override public String toString() { return display(); }

        byte[] unsafeArray() { return data; }
    }

    /** The {@code unit} value {@code ()}. */
    enum Unit implements Value {
        UNIT;
        @Override public Type type() { return Type.Prim.UNIT; }
        @Override public String toString() { return "()"; }
    }

    /** A {@code symbol} {@code 'name}: an identifier, never a string. */
    record Symbol(String name) implements Value {
        public Symbol {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty()) throw new IllegalArgumentException("a symbol has a name");
        }
        @Override public Type type() { return Type.Prim.SYMBOL; }
        @Override public String toString() { return display(); }
    }

    /** A {@code list<element>}. */
    record List(Type element, java.util.List<Value> items) implements Value {
        public List {
            ValueConversion.ground(element);
            items = java.util.List.copyOf(items);
            for (Value v : items) ValueConversion.expect(element, v, "a list element");
        }
        @Override public Type type() { return new Type.ListT(element); }
        @Override public String toString() { return display(); }
    }

    /** A {@code map<key,value>}; its entries keep their insertion order, as Finch's maps do. */
    record Map(Type key, Type value, java.util.Map<Value, Value> entries) implements Value {
        public Map {
            ValueConversion.ground(key);
            ValueConversion.ground(value);
            LinkedHashMap<Value, Value> copy = new LinkedHashMap<>();
            for (java.util.Map.Entry<Value, Value> e : entries.entrySet()) {
                copy.put(ValueConversion.expect(key, e.getKey(), "a map key"), ValueConversion.expect(value, e.getValue(), "a map value"));
            }
            entries = Collections.unmodifiableMap(copy);
        }
        @Override public Type type() { return new Type.MapT(key, value); }
        @Override public String toString() { return display(); }
    }

    /** A {@code record{…}}: named fields, kept in the canonical (sorted) order. */
    record Record(java.util.Map<String, Value> fields) implements Value {
        public Record {
            TreeMap<String, Value> copy = new TreeMap<>();
            for (java.util.Map.Entry<String, Value> e : fields.entrySet()) {
                if (e.getKey() == null || e.getKey().isEmpty()) throw new IllegalArgumentException("a record field has a name");
                copy.put(e.getKey(), Objects.requireNonNull(e.getValue(), "field " + e.getKey()));
            }
            fields = Collections.unmodifiableSortedMap(copy);
        }
        @Override public Type type() {
            java.util.Map<String, Type> t = new LinkedHashMap<>();
            fields.forEach((n, v) -> t.put(n, v.type()));
            return new Type.RecordT(t);
        }
        @Override public String toString() { return display(); }
    }

    /** A value of a closed {@code variant{…}} type: one of its tags, with the payload that tag declares. */
    record Variant(Type.VariantT variant, String tag, Optional<Value> payload) implements Value {
        public Variant {
            ValueConversion.ground(variant);
            Objects.requireNonNull(payload, "payload");
            Optional<Type> declared = variant.tags().get(tag);
            if (declared == null) throw new IllegalArgumentException("tag " + tag + " is not one of " + variant);
            if (declared.isPresent() != payload.isPresent()) {
                throw new IllegalArgumentException("tag " + tag + (declared.isPresent() ? " carries a " + declared.get() : " carries no payload"));
            }
            declared.ifPresent(t -> ValueConversion.expect(t, payload.get(), "the payload of " + tag));
        }
        @Override public Type type() { return variant; }
        @Override public String toString() { return display(); }
    }

    /** An {@code option<element>}: some value or none. */
    record Option(Type element, Optional<Value> value) implements Value {
        public Option {
            ValueConversion.ground(element);
            Objects.requireNonNull(value, "value");
            value.ifPresent(v -> ValueConversion.expect(element, v, "an option's payload"));
        }
        @Override public Type type() { return new Type.OptionT(element); }
        @Override public String toString() { return display(); }
    }

    /** A {@code result<ok,err>}: {@code (ok v)} or {@code (err e)}. */
    record Result(Type ok, Type err, boolean isOk, Value payload) implements Value {
        public Result {
            ValueConversion.ground(ok);
            ValueConversion.ground(err);
            ValueConversion.expect(isOk ? ok : err, payload, isOk ? "an ok payload" : "an err payload");
        }
        @Override public Type type() { return new Type.ResultT(ok, err); }
        @Override public String toString() { return display(); }
    }

    /** A {@code json} value: what {@code json-parse} accepts, held as its compact text. */
    record Json(String text) implements Value {
        public Json { text = ValueConversion.canonicalJson(text); }

        /** The document as a fresh Jackson tree. */
        public JsonNode node() { return ValueConversion.jsonNode(text); }

        @Override public Type type() { return Type.Prim.JSON; }
        @Override public String toString() { return text; }
    }

    /**
     * A value Java can hold and hand back to the session that made it but not take apart: a path, a closure, a stream
     * or task handle, money, a duration, a tool capability. Its display is the outcome's.
     */
    final class Opaque implements Value {
        private final Type type;
        private final Object internal;

        Opaque(Type type, Object internal) {
            this.type = type;
            this.internal = internal;
        }

        @Override public Type type() { return type; }
        @Override public boolean equals(Object o) { return o instanceof Opaque x && type.equals(x.type) && dev.finch.vm.value.Values.equal(internal, x.internal); }
        @Override public int hashCode() { return 31 * type.hashCode() + dev.finch.vm.value.Values.hash(internal); }
        @Override public String toString() { return display(); }

        Object internal() { return internal; }
    }

    // ------------------------------------------------------------------------------------------------ factories

    /** An {@code int}. */
    static Value of(long v) { return new Int(v); }

    /** A {@code float}. */
    static Value of(double v) { return new Float(v); }

    /** A {@code bool}. */
    static Value of(boolean v) { return new Bool(v); }

    /** A {@code string}. */
    static Value of(String v) { return new Str(v); }

    /** A {@code bytes} value (a copy of {@code v}). */
    static Value of(byte[] v) { return new Bytes(v.clone()); }

    /**
     * The Finch value of a Java value: {@code Long}/{@code Integer}/{@code Short}/{@code Byte} → int,
     * {@code Double}/{@code java.lang.Float} → float, {@code Boolean} → bool, {@code String} → string, {@code byte[]} →
     * bytes, a non-empty {@code java.util.List} → list, a non-empty {@code java.util.Map} → map, a present
     * {@code Optional} → option, a Java record → a record of its components, a {@link JsonNode} → json, and a
     * {@link Value} as itself. Element types are taken from the elements, which must agree; an empty list or map, or
     * an empty Optional, has no element type to take — spell it with {@link #list(String, java.util.List)},
     * {@link #map(String, String, java.util.Map)} or {@link #none(String)}.
     *
     * @throws IllegalArgumentException for null, a Java type with no Finch counterpart, or disagreeing elements
     */
    static Value of(Object javaValue) { return ValueConversion.fromJava(javaValue); }

    /** The unit value. */
    static Value unit() { return Unit.UNIT; }

    /** A symbol {@code 'name}. */
    static Value symbol(String name) { return new Symbol(name); }

    /** A json value parsed strictly from {@code text}, as {@code json-parse} would. */
    static Value json(String text) { return new Json(text); }

    /** A list of {@code items}, each of type {@code element} (the compact spelling, e.g. {@code "int"}). */
    static Value list(String element, java.util.List<Value> items) { return new List(TypeSyntax.parse(element), items); }

    /**
     * An empty list whose elements are of the Finch type of Java {@code element} ({@code Long}/{@code long} int,
     * {@code Double}/{@code double} float, {@code Boolean}/{@code boolean} bool, {@code String} string, {@code byte[]}
     * bytes, {@link JsonNode} json): no type syntax needed. For other element types, {@link #list(String, java.util.List)}.
     *
     * @throws IllegalArgumentException for any other class
     */
    static Value emptyList(Class<?> element) { return new List(ValueConversion.typeOf(element), java.util.List.of()); }

    /** An empty map with keys and values of the Finch types of Java {@code key} and {@code value} (as {@link #emptyList}). */
    static Value emptyMap(Class<?> key, Class<?> value) {
        return new Map(ValueConversion.typeOf(key), ValueConversion.typeOf(value), java.util.Map.of());
    }

    /** A non-empty list; its element type is the first item's. */
    static Value list(Value first, Value... rest) {
        java.util.List<Value> items = new ArrayList<>();
        items.add(first);
        items.addAll(java.util.Arrays.asList(rest));
        return new List(first.type(), items);
    }

    /** A map with the given key and value types (compact spellings), in the entries' iteration order. */
    static Value map(String key, String value, java.util.Map<Value, Value> entries) {
        return new Map(TypeSyntax.parse(key), TypeSyntax.parse(value), entries);
    }

    /** A record of {@code fields}. */
    static Value record(java.util.Map<String, Value> fields) { return new Record(fields); }

    /** {@code (some v)}. */
    static Value some(Value v) { return new Option(v.type(), Optional.of(v)); }

    /** {@code (none)} of {@code option<element>}. */
    static Value none(String element) { return new Option(TypeSyntax.parse(element), Optional.empty()); }

    /** {@code (ok v)} of {@code result<v's type, err>}. */
    static Value ok(Value v, String err) { return new Result(v.type(), TypeSyntax.parse(err), true, v); }

    /** {@code (err e)} of {@code result<ok, e's type>}. */
    static Value err(String ok, Value e) { return new Result(TypeSyntax.parse(ok), e.type(), false, e); }

    /** The tag {@code tag} of the variant type spelled {@code variant} (e.g. {@code "variant{circle(int)|dot}"}). */
    static Value variant(String variant, String tag, Optional<Value> payload) {
        Type t = TypeSyntax.parse(variant);
        if (!(t instanceof Type.VariantT v)) throw new IllegalArgumentException(variant + " is not a variant type");
        return new Variant(v, tag, payload);
    }

    // ------------------------------------------------------------------------------------------------ reading

    /** This int. @throws IllegalStateException when this is not an int */
    default long asLong() { return ValueConversion.cast(this, Int.class).value(); }

    /** This float. @throws IllegalStateException when this is not a float */
    default double asDouble() { return ValueConversion.cast(this, Float.class).value(); }

    /** This bool. @throws IllegalStateException when this is not a bool */
    default boolean asBoolean() { return ValueConversion.cast(this, Bool.class).value(); }

    /** This string. @throws IllegalStateException when this is not a string */
    default String asString() { return ValueConversion.cast(this, Str.class).value(); }

    /** A copy of these bytes. @throws IllegalStateException when this is not bytes */
    default byte[] asBytes() { return ValueConversion.cast(this, Bytes.class).value(); }

    /** This list's items. @throws IllegalStateException when this is not a list */
    default java.util.List<Value> asList() { return ValueConversion.cast(this, List.class).items(); }

    /** This map's entries in order. @throws IllegalStateException when this is not a map */
    default java.util.Map<Value, Value> asMap() { return ValueConversion.cast(this, Map.class).entries(); }

    /** This option's payload. @throws IllegalStateException when this is not an option */
    default Optional<Value> asOptional() { return ValueConversion.cast(this, Option.class).value(); }

    /**
     * The field {@code name} of this record, or the value under the key {@code name} of this map with string keys.
     *
     * @throws IllegalStateException when this is neither, or has no such field or key
     */
    default Value get(String name) {
        return find(name).orElseThrow(() -> new IllegalStateException((this instanceof Map ? "the map " : "the record ") + display()
                + " has no " + (this instanceof Map ? "key \"" + name + "\"" : "field " + name)));
    }

    /**
     * The field {@code name} of this record, or the value under the key {@code name} of this map with string keys; empty
     * when there is none.
     *
     * @throws IllegalStateException when this is neither a record nor a map with string keys
     */
    default Optional<Value> find(String name) {
        if (this instanceof Map m && m.key().equals(Type.STRING)) return Optional.ofNullable(m.entries().get(of(name)));
        return Optional.ofNullable(ValueConversion.cast(this, Record.class).fields().get(name));
    }

    /**
     * This value as a Java {@code target}: {@code long}/{@code Long}, {@code int}/{@code Integer} (in range),
     * {@code double}/{@code Double}, {@code boolean}/{@code Boolean}, {@code String}, {@code byte[]},
     * {@link JsonNode}, {@code java.util.List} / {@code Map} / {@code Optional} (elements as {@link #toJava()} gives
     * them), a Java record (its components from the record's fields of the same name, a component {@code taskId} also
     * from a field {@code task-id}), or {@code Value} and its variants.
     *
     * @throws IllegalStateException when this value does not convert to {@code target}
     */
    default <T> T as(Class<T> target) { return ValueConversion.toJava(this, target); }

    /**
     * This value in the Java form a generic consumer expects: {@code Long}, {@code Double}, {@code Boolean},
     * {@code String}, {@code byte[]}, {@code java.util.List<Object>}, {@code java.util.Map<Object,Object>},
     * {@code java.util.Map<String,Object>} for a record, {@code Optional<Object>}, {@link JsonNode}; unit, symbols,
     * variants, results and opaque values as themselves.
     */
    default Object toJava() { return ValueConversion.natural(this); }
}
