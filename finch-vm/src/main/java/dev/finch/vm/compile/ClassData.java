package dev.finch.vm.compile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;

/**
 * The constants a generated class loads with {@code ldc} of a dynamic constant over its class data: origins,
 * method handles of persisted words, invokers of closures, parsed JSON literals. Entries filled after the class is
 * defined (late entries) are resolved lazily, on first execution, which always comes later.
 */
final class ClassData {
    private static final Handle CLASS_DATA_AT = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/MethodHandles", "classDataAt",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)Ljava/lang/Object;", false);

    final List<Object> values = new ArrayList<>();
    private final Map<Object, Integer> index = new HashMap<>();

    /** The index of {@code value}, added once (by equality). */
    int intern(Object value) {
        return index.computeIfAbsent(value, v -> { values.add(v); return values.size() - 1; });
    }

    /** A fresh slot to be filled after the class is defined. */
    int reserve() {
        values.add(null);
        return values.size() - 1;
    }

    void fill(int slot, Object value) { values.set(slot, value); }

    static ConstantDynamic constant(int slot, String desc) {
        return new ConstantDynamic("_", desc, CLASS_DATA_AT, slot);
    }
}
