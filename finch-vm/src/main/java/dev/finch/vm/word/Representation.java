package dev.finch.vm.word;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.Closure;
import dev.finch.vm.value.Duration;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.Money;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.PathValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.StreamValue;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.util.Map;

/**
 * The Java class that holds a value of each Finch type at run time: {@code long}, {@code double}, {@code boolean}
 * and {@link String} for the scalars, the {@code dev.finch.vm.value} classes for the rest, {@link Object} where the
 * type does not fix one (a type variable, a host handle). The one table that word implementations are checked
 * against.
 */
public final class Representation {
    private Representation() { }

    /** The class of a value of {@code type}. */
    public static Class<?> of(Type type) {
        return switch (type.kind()) {
            case PRIM -> switch ((Type.Prim) type) {
                case INT -> long.class;
                case FLOAT -> double.class;
                case BOOL -> boolean.class;
                case STRING -> String.class;
                case BYTES -> Bytes.class;
                case UNIT -> Unit.class;
                case SYMBOL -> Symbol.class;
                case JSON -> JsonNode.class;
            };
            case PATH -> PathValue.class;
            case OPTION -> OptionValue.class;
            case RESULT -> ResultValue.class;
            case LIST -> ListValue.class;
            case MAP -> Map.class;
            case RECORD -> RecordValue.class;
            case VARIANT -> VariantValue.class;
            case STREAM -> StreamValue.class;
            case FN -> Closure.class;
            case NAMED -> ((Type.Named) type).isRecursive() ? of(((Type.Named) type).unfold()) : switch (((Type.Named) type).name()) {
                case "money" -> Money.class;
                case "duration" -> Duration.class;
                default -> named(((Type.Named) type).name());
            };
            case TASK, FIBER, RESOURCE, VAR -> Object.class;
        };
    }

    /**
     * A named type a word library defines, and the class that holds its values (µNorman's {@code capability}, say): an
     * extension ({@link Extensions}), so the words that take one are checked against it.
     */
    public record Named(String type, Class<?> held) { }

    private static Class<?> named(String name) {
        for (Named n : Extensions.all(Named.class)) if (n.type().equals(name)) return n.held();
        return Object.class;
    }

    /** Whether a method parameter of class {@code param} can receive a value of {@code type}. */
    static boolean accepts(Class<?> param, Type type) {
        if (param == dev.finch.vm.Value.class) return true; // a host's word: converted at the call (PublicValues)
        Class<?> rep = of(type);
        if (rep.isPrimitive() || param.isPrimitive()) return rep == param;
        return param.isAssignableFrom(rep);
    }

    /** Whether a method returning {@code ret} can produce a value of {@code type} (Object is trusted). */
    static boolean produces(Class<?> ret, Type type) {
        if (ret == dev.finch.vm.Value.class) return true; // a host's word: converted and checked at the call (PublicValues)
        Class<?> rep = of(type);
        if (rep.isPrimitive() || ret.isPrimitive()) return rep == ret;
        return ret == Object.class || rep.isAssignableFrom(ret);
    }
}
