package dev.finch.vm.word;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.RequirementTemplate;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.declare.Intrinsic;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One member that declares a word or an overload, as {@link Library} assembles words from: the values of its
 * {@link Word} and {@link Overload} (either may be absent), the signature and template already parsed, and where its
 * implementation is. Read from the annotations by reflection for a host's classes, and from a {@link WordIndex} — the
 * same values, written by finch-word-index's annotation processor while a word library compiles — for Finch's own.
 *
 * @param site the implementing member
 * @param word the member's {@link Word}, or null
 * @param overload the member's {@link Overload}, or null
 */
public record Declaration(Site site, WordValues word, OverloadValues overload) {

    /** Where an overload's implementation is. */
    public sealed interface Site {
        /** The member's name, for ordering and messages. */
        String name();

        /** {@code Class.member}, for messages. */
        String where();
    }

    /** A method read by reflection. */
    public record Reflected(Method method) implements Site {
        @Override public String name() { return method.getName(); }
        @Override public String where() { return method.getDeclaringClass().getSimpleName() + "." + method.getName(); }
    }

    /** A field read by reflection ({@link SpecialWord} constants). */
    public record ReflectedField(Field field) implements Site {
        @Override public String name() { return field.getName(); }
        @Override public String where() { return field.getDeclaringClass().getSimpleName() + "." + field.getName(); }
    }

    /**
     * A static method named in the index: its class's binary name, its name, the JVM descriptor of each parameter and
     * of its result (one string each, so that a shaded jar's relocation of a library's types reaches them), and what
     * its parameters take besides the signature's inputs (the rule {@link Library} applies to a {@link Method}), and
     * its number among its index's calls ({@link WordIndex#call}), the generated calls the interpreter makes, and that index.
     */
    public record IndexedMethod(String owner, String name, List<String> parameters, String result, boolean ctx, boolean depth, boolean site, boolean origin,
                         int call, WordIndex index) implements Site {
        @Override public String where() { return simpleName(owner) + "." + name; }

        /** The method's JVM descriptor. */
        public String descriptor() { return "(" + String.join("", parameters) + ")" + result; }
    }

    /**
     * A {@link SpecialWord} constant named in the index, by name: the constant (and the classes of
     * all seven) is loaded when a call of one of those words is first compiled or run, not with the library.
     */
    public record IndexedConstant(String owner, String name) implements Site {
        @Override public String where() { return simpleName(owner) + "." + name; }
    }

    /** The values of a {@link Word}. */
    public record WordValues(String name, WordSpec.Category category, String doc, boolean foldsLeft, boolean pauses, Typing typing, List<String> aka) {
        public WordValues { aka = List.copyOf(aka); }

        public static WordValues of(Word w) { return new WordValues(w.name(), w.category(), w.doc(), w.foldsLeft(), w.pauses(), w.typing(), List.of(w.aka())); }
    }

    /** The values of an {@link Overload}, its signature and requirement template parsed. */
    public record OverloadValues(Type.Fn sig, String id, String word, int order, Optional<RequirementTemplate> requires, boolean refines, Intrinsic intrinsic) { }

    private static String simpleName(String binaryName) {
        return binaryName.substring(Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$')) + 1);
    }

    // The index's helpers: what the parser makes of a record, a variant and a set of effects.

    /** Record fields from name, type pairs. */
    public static Map<String, Type> fields(Object... pairs) {
        Map<String, Type> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], (Type) pairs[i + 1]);
        return m;
    }

    /** Variant tags, in order, from name, optional payload pairs. */
    @SuppressWarnings("unchecked")
    public static Map<String, Optional<Type>> tags(Object... pairs) {
        Map<String, Optional<Type>> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], (Optional<Type>) pairs[i + 1]);
        return m;
    }

    /** A signature's effects. */
    public static SortedSet<Capability> effects(Capability... caps) {
        SortedSet<Capability> s = new TreeSet<>();
        for (Capability c : caps) s.add(c);
        return s;
    }
}
