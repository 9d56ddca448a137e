package dev.finch.vm.compile;

import dev.finch.ir.type.Type;
import org.objectweb.asm.Opcodes;

/**
 * How a Finch type is held in JVM code: int unboxed as {@code long}, float as {@code double}, bool as {@code int},
 * everything else (and type variables) as a reference.
 */
enum Kind {
    J("J", Opcodes.LLOAD, Opcodes.LSTORE, Opcodes.LRETURN, 2, "java/lang/Long", "longValue"),
    D("D", Opcodes.DLOAD, Opcodes.DSTORE, Opcodes.DRETURN, 2, "java/lang/Double", "doubleValue"),
    Z("Z", Opcodes.ILOAD, Opcodes.ISTORE, Opcodes.IRETURN, 1, "java/lang/Boolean", "booleanValue"),
    A("Ljava/lang/Object;", Opcodes.ALOAD, Opcodes.ASTORE, Opcodes.ARETURN, 1, null, null);

    final String desc;
    final int load;
    final int store;
    final int ret;
    final int size;
    final String box;
    final String unboxMethod;

    Kind(String desc, int load, int store, int ret, int size, String box, String unboxMethod) {
        this.desc = desc;
        this.load = load;
        this.store = store;
        this.ret = ret;
        this.size = size;
        this.box = box;
        this.unboxMethod = unboxMethod;
    }

    static Kind of(Type t) {
        if (t == Type.INT) return J;
        if (t == Type.FLOAT) return D;
        if (t == Type.BOOL) return Z;
        return A;
    }

    /** The JVM parameter type used by runtime helpers: strings are typed, other references are Object. */
    static String helperDesc(Type t) {
        if (t == Type.STRING) return "Ljava/lang/String;";
        return of(t).desc;
    }
}
