package dev.finch.vm.compile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;

/**
 * The constants of a generated class: origins, method handles of persisted words, invokers of closures, parsed
 * JSON literals. Each becomes a {@code static final} field set in the class initializer from the class data, so
 * the JIT treats it as a constant (a method-handle field inlines like a direct call). Dynamic constants ({@code
 * ldc} of condy) are avoided: HotSpot refuses to compile a method whose condy on a cold path was never resolved.
 * Entries filled after the class is defined (late entries) are in place before it is initialized.
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

    /** The field holding entry {@code slot}. */
    static String field(int slot) { return "k" + slot; }

    /** Declares one {@code static final Object} field per entry and the initializer that sets them. */
    void emitFields(org.objectweb.asm.ClassWriter cw, String className) {
        for (int i = 0; i < values.size(); i++) {
            cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, field(i), "Ljava/lang/Object;", null, null).visitEnd();
        }
        var mv = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        mv.visitCode();
        for (int i = 0; i < values.size(); i++) {
            mv.visitLdcInsn(constant(i, "Ljava/lang/Object;"));
            mv.visitFieldInsn(Opcodes.PUTSTATIC, className, field(i), "Ljava/lang/Object;");
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }
}
