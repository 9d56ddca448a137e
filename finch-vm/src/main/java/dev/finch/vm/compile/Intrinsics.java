package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Overload;
import dev.finch.vm.declare.Intrinsic;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The compiled-code emitters of the true intrinsics ({@link Intrinsic}): operations that compile to a few JVM
 * instructions on unboxed slots instead of a call. The declared method stays the reference implementation, which the
 * interpreter runs.
 */
final class Intrinsics {
    private Intrinsics() { }

    /*
     * One switch rather than a body per constant: a constant with a body is a class of its own, and the index of
     * Finch's words names these constants, so each would be loaded with the library in every fresh JVM.
     */

    /** Emits the call {@code n} of an overload with intrinsic {@code id}. */
    static void emit(Intrinsic id, MethodCompiler mc, CallNode n) {
        switch (id) {
            case NONE -> throw new IllegalStateException("NONE is not emitted");
            case SHUFFLE -> shuffle(mc, n);
            case FLOAT_ADD -> binary(mc, n, Kind.D, DADD);
            case FLOAT_SUB -> binary(mc, n, Kind.D, DSUB);
            case FLOAT_MUL -> binary(mc, n, Kind.D, DMUL);
            case FLOAT_DIV -> binary(mc, n, Kind.D, DDIV);
            case FLOAT_REM -> binary(mc, n, Kind.D, DREM);
            case FLOAT_NEGATE -> unary(mc, n, Kind.D, Kind.D, DNEG);
            case INT_TO_FLOAT -> unary(mc, n, Kind.J, Kind.D, L2D);
            case BOOL_AND -> binary(mc, n, Kind.Z, IAND);
            case BOOL_OR -> binary(mc, n, Kind.Z, IOR);
            case BOOL_NOT -> unary(mc, n, Kind.Z, Kind.Z, ICONST_1, IXOR);
            case INT_LESS -> compareInts(mc, n, IFLT);
            case INT_GREATER -> compareInts(mc, n, IFGT);
            case INT_LESS_EQUAL -> compareInts(mc, n, IFLE);
            case INT_GREATER_EQUAL -> compareInts(mc, n, IFGE);
            case EQUAL -> equality(mc, n, false);
            case NOT_EQUAL -> equality(mc, n, true);
        }
    }

    /** {@link Intrinsic#SHUFFLE}: the slot moves of the overload's permutation. */
    private static void shuffle(MethodCompiler mc, CallNode n) {
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

    /** The top value, of kind {@code in}, replaced by what {@code ops} make of it, of kind {@code out}. */
    private static void unary(MethodCompiler mc, CallNode n, Kind in, Kind out, int... ops) {
        int base = n.before().size() - 1;
        NodeEmitter.load(mc, n.before(), base, in);
        for (int op : ops) mc.mv.visitInsn(op);
        NodeEmitter.store(mc, out, n.after(), base);
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
