package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The emitter table: one entry per vocabulary word (a test checks that every word of {@link Vocabulary} has one).
 * Stack shuffles are slot moves; int/float arithmetic and comparisons are inline or tiny static helpers the JIT
 * inlines; everything else calls a {@link dev.finch.vm.runtime.Rt} method.
 */
public final class Builtins {
    @FunctionalInterface
    interface Emitter { void emit(MethodCompiler mc, CallNode n, Checked.Target.Builtin b); }

    private static final Map<String, Emitter> TABLE = new HashMap<>();

    static {
        // Stack shuffles: pure slot moves. Each maps output i to input index.
        Shuffles.OUTPUTS.forEach(Builtins::shuffle);

        arith("+", "add", DADD);
        arith("-", "sub", DSUB);
        arith("*", "mul", DMUL);
        arith("/", "div", DDIV);
        arith("mod", "mod", DREM);
        TABLE.put("negate", (mc, n, b) -> {
            int base = n.before().size() - 1;
            if (b.overload() == 0) {
                NodeEmitter.load(mc, n.before(), base, Kind.J);
                mc.origin(n.origin());
                mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "negate", "(J" + MethodCompiler.ORIGIN_DESC + ")J", false);
                NodeEmitter.store(mc, Kind.J, n.after(), base);
            } else {
                NodeEmitter.load(mc, n.before(), base, Kind.D);
                mc.mv.visitInsn(DNEG);
                NodeEmitter.store(mc, Kind.D, n.after(), base);
            }
        });
        TABLE.put("int-to-float", (mc, n, b) -> {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.J);
            mc.mv.visitInsn(L2D);
            NodeEmitter.store(mc, Kind.D, n.after(), base);
        });

        TABLE.put("=", (mc, n, b) -> equality(mc, n, false));
        TABLE.put("<>", (mc, n, b) -> equality(mc, n, true));
        compare("<", IFLT);
        compare(">", IFGT);
        compare("<=", IFLE);
        compare(">=", IFGE);

        TABLE.put("and", (mc, n, b) -> binaryInt(mc, n, IAND));
        TABLE.put("or", (mc, n, b) -> binaryInt(mc, n, IOR));
        TABLE.put("not", (mc, n, b) -> {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.Z);
            mc.mv.visitInsn(ICONST_1);
            mc.mv.visitInsn(IXOR);
            NodeEmitter.store(mc, Kind.Z, n.after(), base);
        });

        Helpers.TABLE.forEach((word, h) -> TABLE.put(word, (mc, n, b) -> helper(mc, n, b, h)));

        TABLE.put("yield", (mc, n, b) -> {
            int base = n.before().size() - 1;
            mc.pendingReturn = null;
            mc.suspendingCall(n.before(), () -> {
                mc.mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
                NodeEmitter.load(mc, n.before(), base, Kind.A);
                mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "yield", "(L" + MethodCompiler.CTX + ";Ljava/lang/Object;)V", false);
            });
        });
        TABLE.put("execute", Builtins::execute);
        // Type-directed words: the call site's instantiated input type travels as a constant.
        TABLE.put("show", (mc, n, b) -> typed(mc, n, "show", "(Ljava/lang/Object;Ldev/finch/ir/type/Type;" + MethodCompiler.ORIGIN_DESC + ")Ljava/lang/String;"));
        TABLE.put("expect-ok", (mc, n, b) -> typed(mc, n, "expectOk", "(Ljava/lang/Object;Ldev/finch/ir/type/Type;" + MethodCompiler.ORIGIN_DESC + ")Ljava/lang/Object;"));
        TABLE.put("variant", (mc, n, b) -> {
            Type.VariantT vt = (Type.VariantT) ((Immediate.TypeArg) n.instr().immediates().get(0)).type();
            String tag = ((Immediate.NameArg) n.instr().immediates().get(1)).name();
            boolean payload = vt.tags().get(tag).isPresent();
            int base = n.before().size() - (payload ? 1 : 0);
            mc.mv.visitLdcInsn(tag);
            if (payload) NodeEmitter.load(mc, n.before(), base, Kind.A);
            else mc.mv.visitFieldInsn(GETSTATIC, "dev/finch/vm/value/Unit", "INSTANCE", "Ldev/finch/vm/value/Unit;");
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "variant", "(Ljava/lang/String;Ljava/lang/Object;)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        });
        TABLE.put("variant-get", (mc, n, b) -> {
            String tag = ((Immediate.NameArg) n.instr().immediates().get(0)).name();
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            mc.mv.visitLdcInsn(tag);
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "variantGet", "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        });
        TABLE.put("empty-list", (mc, n, b) -> {
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "emptyList", "()Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), n.before().size());
        });
        TABLE.put("record-get", (mc, n, b) -> {
            int base = n.before().size() - 1;
            Type.RecordT rt = (Type.RecordT) n.before().get(base);
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            mc.pushInt(fieldIndex(rt, n));
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "recordGet", "(Ljava/lang/Object;I)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        });
        TABLE.put("record-set", (mc, n, b) -> {
            int base = n.before().size() - 2;
            Type.RecordT rt = (Type.RecordT) n.before().get(base);
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            NodeEmitter.load(mc, n.before(), base + 1, Kind.A);
            mc.pushInt(fieldIndex(rt, n));
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "recordSet", "(Ljava/lang/Object;Ljava/lang/Object;I)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        });
    }

    private Builtins() { }

    /** The vocabulary words that have no emitter (must be empty; checked by a test). */
    public static Set<String> missingEmitters() {
        Set<String> missing = new java.util.TreeSet<>(Vocabulary.names());
        missing.removeAll(TABLE.keySet());
        return missing;
    }

    static void emit(MethodCompiler mc, CallNode n, Checked.Target.Builtin b) {
        Emitter e = TABLE.get(b.name());
        if (e == null) throw new IllegalStateException("no emitter for vocabulary word " + b.name());
        e.emit(mc, n, b);
    }

    private static int fieldIndex(Type.RecordT rt, CallNode n) {
        String field = ((Immediate.NameArg) n.instr().immediates().get(0)).name();
        return List.copyOf(rt.fields().keySet()).indexOf(field);
    }

    private static void shuffle(String name, int[] outputsFromInputs) {
        WordSpec spec = Vocabulary.word(name).orElseThrow();
        int k = spec.overloads().get(0).ins().size();
        TABLE.put(name, (mc, n, b) -> {
            int base = n.before().size() - k;
            MethodVisitor mv = mc.mv;
            // Load the inputs needed, then store outputs from the top down.
            for (int src : outputsFromInputs) {
                Kind kk = Kind.of(n.before().get(base + src));
                mv.visitVarInsn(kk.load, mc.slot(base + src, kk));
            }
            for (int i = outputsFromInputs.length - 1; i >= 0; i--) {
                Kind kk = Kind.of(n.before().get(base + outputsFromInputs[i]));
                NodeEmitter.store(mc, kk, n.after(), base + i);
            }
        });
    }

    private static void arith(String name, String intHelper, int floatOp) {
        TABLE.put(name, (mc, n, b) -> {
            int base = n.before().size() - 2;
            if (b.overload() == 0) {
                NodeEmitter.load(mc, n.before(), base, Kind.J);
                NodeEmitter.load(mc, n.before(), base + 1, Kind.J);
                mc.origin(n.origin());
                mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, intHelper, "(JJ" + MethodCompiler.ORIGIN_DESC + ")J", false);
                NodeEmitter.store(mc, Kind.J, n.after(), base);
            } else {
                NodeEmitter.load(mc, n.before(), base, Kind.D);
                NodeEmitter.load(mc, n.before(), base + 1, Kind.D);
                mc.mv.visitInsn(floatOp);
                NodeEmitter.store(mc, Kind.D, n.after(), base);
            }
        });
    }

    private static void binaryInt(MethodCompiler mc, CallNode n, int op) {
        int base = n.before().size() - 2;
        NodeEmitter.load(mc, n.before(), base, Kind.Z);
        NodeEmitter.load(mc, n.before(), base + 1, Kind.Z);
        mc.mv.visitInsn(op);
        NodeEmitter.store(mc, Kind.Z, n.after(), base);
    }

    /** Leaves 1 or 0 on the operand stack according to {@code jumpIfTrue} applied to the int on top. */
    private static void boolFrom(MethodVisitor mv, int jumpIfTrue) {
        Label yes = new Label();
        Label end = new Label();
        mv.visitJumpInsn(jumpIfTrue, yes);
        mv.visitInsn(ICONST_0);
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(yes);
        mv.visitInsn(ICONST_1);
        mv.visitLabel(end);
    }

    private static void equality(MethodCompiler mc, CallNode n, boolean negate) {
        int base = n.before().size() - 2;
        Type t = n.before().get(base);
        Kind k = Kind.of(t);
        MethodVisitor mv = mc.mv;
        NodeEmitter.load(mc, n.before(), base, k);
        NodeEmitter.load(mc, n.before(), base + 1, k);
        switch (k) {
            case J -> { mv.visitInsn(LCMP); boolFrom(mv, negate ? IFNE : IFEQ); }
            case D -> { mv.visitInsn(DCMPL); boolFrom(mv, negate ? IFNE : IFEQ); }
            case Z -> { mv.visitInsn(IXOR); boolFrom(mv, negate ? IFNE : IFEQ); }
            case A -> {
                mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "eq", "(Ljava/lang/Object;Ljava/lang/Object;)Z", false);
                if (negate) { mv.visitInsn(ICONST_1); mv.visitInsn(IXOR); }
            }
        }
        NodeEmitter.store(mc, Kind.Z, n.after(), base);
    }

    private static void compare(String name, int jump) {
        TABLE.put(name, (mc, n, b) -> {
            int base = n.before().size() - 2;
            MethodVisitor mv = mc.mv;
            switch (b.overload()) {
                case 0 -> {
                    NodeEmitter.load(mc, n.before(), base, Kind.J);
                    NodeEmitter.load(mc, n.before(), base + 1, Kind.J);
                    mv.visitInsn(LCMP);
                }
                case 1 -> {
                    NodeEmitter.load(mc, n.before(), base, Kind.D);
                    NodeEmitter.load(mc, n.before(), base + 1, Kind.D);
                    // NaN compares false for every ordering: DCMPG for < and <=, DCMPL for > and >=.
                    mv.visitInsn(jump == IFLT || jump == IFLE ? DCMPG : DCMPL);
                }
                default -> {
                    NodeEmitter.load(mc, n.before(), base, Kind.A);
                    mv.visitTypeInsn(CHECKCAST, "java/lang/String");
                    NodeEmitter.load(mc, n.before(), base + 1, Kind.A);
                    mv.visitTypeInsn(CHECKCAST, "java/lang/String");
                    mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "compareStrings", "(Ljava/lang/String;Ljava/lang/String;)I", false);
                }
            }
            boolFrom(mv, jump);
            NodeEmitter.store(mc, Kind.Z, n.after(), base);
        });
    }

    /** Calls a runtime helper whose JVM signature follows the word's declared overload ({@link Helpers}). */
    private static void helper(MethodCompiler mc, CallNode n, Checked.Target.Builtin b, Helpers.Helper h) {
        Type.Fn decl = Vocabulary.word(b.name()).orElseThrow().overloads().get(b.overload());
        int k = decl.ins().size();
        int base = n.before().size() - k;
        MethodVisitor mv = mc.mv;
        String desc = Helpers.descriptor(decl, h);
        Runnable invoke = () -> {
            if (h.ctx()) mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            for (int i = 0; i < k; i++) {
                Type declared = decl.ins().get(i);
                NodeEmitter.load(mc, n.before(), base + i, Kind.of(declared));
                if (Kind.helperDesc(declared).equals("Ljava/lang/String;")) mv.visitTypeInsn(CHECKCAST, "java/lang/String");
            }
            if (h.origin()) mc.origin(n.origin());
            mv.visitMethodInsn(INVOKESTATIC, h.owner(), h.method(), desc, false);
        };
        Kind ret = decl.outs().isEmpty() ? null : Kind.of(decl.outs().get(0));
        if (n.suspends()) {
            mc.pendingReturn = ret;
            mc.suspendingCall(n.before(), invoke);
        } else {
            invoke.run();
        }
        if (ret != null) NodeEmitter.store(mc, ret, n.after(), base);
    }

    /** A one-input word whose runtime method also receives the input's static type. */
    private static void typed(MethodCompiler mc, CallNode n, String method, String desc) {
        int base = n.before().size() - 1;
        NodeEmitter.load(mc, n.before(), base, Kind.A);
        mc.classConstant(n.before().get(base), "Ldev/finch/ir/type/Type;");
        mc.origin(n.origin());
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, method, desc, false);
        NodeEmitter.store(mc, Kind.A, n.after(), base);
    }

    private static void execute(MethodCompiler mc, CallNode n, Checked.Target.Builtin b) {
        Type.Fn f = n.instantiated();
        // instantiated: ins… fn -> outs…; the fn itself is the last input.
        int k = f.ins().size() - 1;
        int fnPos = n.before().size() - 1;
        int base = fnPos - k;
        MethodVisitor mv = mc.mv;
        Runnable invoke = () -> {
            mc.fuelOut();
            mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            mc.nextDepth();
            NodeEmitter.load(mc, n.before(), fnPos, Kind.A);
            mc.pushInt(k);
            mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
            for (int i = 0; i < k; i++) {
                mv.visitInsn(DUP);
                mc.pushInt(i);
                NodeEmitter.load(mc, n.before(), base + i, Kind.A);
                mv.visitInsn(AASTORE);
            }
            mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/runtime/Calls", "execute",
                    "(L" + MethodCompiler.CTX + ";ILjava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", false);
        };
        if (n.suspends()) {
            mc.pendingReturn = Kind.A;
            mc.suspendingCall(n.before(), invoke);
        } else {
            invoke.run();
        }
        mc.fuelIn();
        int outs = f.outs().size();
        if (outs == 1) {
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        } else {
            mv.visitInsn(POP);
            for (int i = 0; i < outs; i++) {
                mc.loadRegister(i, Kind.A);
                NodeEmitter.store(mc, Kind.A, n.after(), base + i);
            }
        }
    }
}
