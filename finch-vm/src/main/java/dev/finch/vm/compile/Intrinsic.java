package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Overload;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The compiled-code emitters of true intrinsics: operations that compile to a few JVM instructions on unboxed slots
 * instead of a call. An overload names its intrinsic in its declaration ({@code @Overload(intrinsic = …)}); the
 * declared method stays its reference implementation, which the interpreter runs, and a property test runs both
 * tiers on generated inputs and requires them to agree. Every other word compiles to a direct call of its method.
 */
public enum Intrinsic {
    /** Not an intrinsic: compiled code calls the method. */
    NONE {
        @Override void emit(MethodCompiler mc, CallNode n) { throw new IllegalStateException("NONE is not emitted"); }

        @Override public String refuses(Overload o) { return null; }
    },
    /** A stack shuffle: slot moves derived from the signature's permutation ({@code a b -> b a}). */
    SHUFFLE {
        @Override void emit(MethodCompiler mc, CallNode n) {
            Overload o = mc.owner.library().impl(((dev.finch.ir.checked.Checked.Target.Builtin) n.target()).overload()).overload();
            int[] outputs = o.permutation().orElseThrow();
            int k = o.signature().ins().size();
            int base = n.before().size() - k;
            MethodVisitor mv = mc.mv;
            for (int src : outputs) {
                Kind kk = Kind.of(n.before().get(base + src));
                mv.visitVarInsn(kk.load, mc.slot(base + src, kk));
            }
            for (int i = outputs.length - 1; i >= 0; i--) {
                Kind kk = Kind.of(n.before().get(base + outputs[i]));
                NodeEmitter.store(mc, kk, n.after(), base + i);
            }
        }

        @Override public String refuses(Overload o) {
            return o.permutation().isPresent() ? null : "needs a signature that only permutes its inputs, like `a b -> b a`";
        }
    },
    FLOAT_ADD { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.D, DADD); } },
    FLOAT_SUB { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.D, DSUB); } },
    FLOAT_MUL { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.D, DMUL); } },
    FLOAT_DIV { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.D, DDIV); } },
    FLOAT_REM { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.D, DREM); } },
    FLOAT_NEGATE {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.D);
            mc.mv.visitInsn(DNEG);
            NodeEmitter.store(mc, Kind.D, n.after(), base);
        }
    },
    INT_TO_FLOAT {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.J);
            mc.mv.visitInsn(L2D);
            NodeEmitter.store(mc, Kind.D, n.after(), base);
        }
    },
    BOOL_AND { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.Z, IAND); } },
    BOOL_OR { @Override void emit(MethodCompiler mc, CallNode n) { binary(mc, n, Kind.Z, IOR); } },
    BOOL_NOT {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.Z);
            mc.mv.visitInsn(ICONST_1);
            mc.mv.visitInsn(IXOR);
            NodeEmitter.store(mc, Kind.Z, n.after(), base);
        }
    },
    INT_LESS { @Override void emit(MethodCompiler mc, CallNode n) { compareInts(mc, n, IFLT); } },
    INT_GREATER { @Override void emit(MethodCompiler mc, CallNode n) { compareInts(mc, n, IFGT); } },
    INT_LESS_EQUAL { @Override void emit(MethodCompiler mc, CallNode n) { compareInts(mc, n, IFLE); } },
    INT_GREATER_EQUAL { @Override void emit(MethodCompiler mc, CallNode n) { compareInts(mc, n, IFGE); } },
    /**
     * Equality ({@link dev.finch.vm.value.Values#equal}, the one definition) on the call site's type: ints and
     * bools compare in place, floats through {@link dev.finch.vm.value.Values#floatEquals}, everything else through
     * {@code Values.equal}, charged to the run's context.
     */
    EQUAL { @Override void emit(MethodCompiler mc, CallNode n) { equality(mc, n, false); } },
    /** The negation of {@link #EQUAL}. */
    NOT_EQUAL { @Override void emit(MethodCompiler mc, CallNode n) { equality(mc, n, true); } };

    /** Emits the call {@code n} of an overload with this intrinsic. */
    abstract void emit(MethodCompiler mc, CallNode n);

    /**
     * Why this intrinsic cannot emit overload {@code o}, or null when it can. The default accepts the fixed-type
     * intrinsics only on the signature they were written for.
     */
    public String refuses(Overload o) {
        String expected = switch (this) {
            case FLOAT_ADD, FLOAT_SUB, FLOAT_MUL, FLOAT_DIV, FLOAT_REM -> "float float -> float";
            case FLOAT_NEGATE -> "float -> float";
            case INT_TO_FLOAT -> "int -> float";
            case BOOL_AND, BOOL_OR -> "bool bool -> bool";
            case BOOL_NOT -> "bool -> bool";
            case INT_LESS, INT_GREATER, INT_LESS_EQUAL, INT_GREATER_EQUAL -> "int int -> bool";
            case EQUAL, NOT_EQUAL -> "a a -> bool";
            case NONE, SHUFFLE -> null;
        };
        return expected == null || o.signature().toString().equals(expected) ? null : "emits `" + expected + "`, not `" + o.signature() + "`";
    }

    private static void binary(MethodCompiler mc, CallNode n, Kind k, int op) {
        int base = n.before().size() - 2;
        NodeEmitter.load(mc, n.before(), base, k);
        NodeEmitter.load(mc, n.before(), base + 1, k);
        mc.mv.visitInsn(op);
        NodeEmitter.store(mc, k, n.after(), base);
    }

    private static void compareInts(MethodCompiler mc, CallNode n, int jump) {
        int base = n.before().size() - 2;
        NodeEmitter.load(mc, n.before(), base, Kind.J);
        NodeEmitter.load(mc, n.before(), base + 1, Kind.J);
        mc.mv.visitInsn(LCMP);
        boolFrom(mc.mv, jump);
        NodeEmitter.store(mc, Kind.Z, n.after(), base);
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
            case Z -> { mv.visitInsn(IXOR); boolFrom(mv, negate ? IFNE : IFEQ); }
            case D -> {
                mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/value/Values", "floatEquals", "(DD)Z", false);
                if (negate) { mv.visitInsn(ICONST_1); mv.visitInsn(IXOR); }
            }
            case A -> {
                // Charged to the run: the context is the meter.
                mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
                mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/value/Values", "equal",
                        "(Ljava/lang/Object;Ljava/lang/Object;Ldev/finch/vm/value/Meter;)Z", false);
                if (negate) { mv.visitInsn(ICONST_1); mv.visitInsn(IXOR); }
            }
        }
        NodeEmitter.store(mc, Kind.Z, n.after(), base);
    }

    /** Leaves 1 or 0 on the operand stack according to {@code jumpIfTrue} applied to the int on top. */
    static void boolFrom(MethodVisitor mv, int jumpIfTrue) {
        Label yes = new Label();
        Label end = new Label();
        mv.visitJumpInsn(jumpIfTrue, yes);
        mv.visitInsn(ICONST_0);
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(yes);
        mv.visitInsn(ICONST_1);
        mv.visitLabel(end);
    }
}
