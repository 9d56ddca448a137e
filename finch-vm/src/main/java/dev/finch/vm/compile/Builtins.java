package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.type.Type;
import dev.finch.vm.word.Impl;
import java.lang.reflect.Method;
import org.objectweb.asm.MethodVisitor;

/**
 * Compiles a verified call of a vocabulary word from its implementation in the run's library, found by the
 * overload id the verifier recorded: a {@link Specials} word emits itself, an {@link Intrinsic} emits inline, a
 * host-installed word goes through {@code HostCalls} (its host boundary and its failures), and every other word is
 * a direct {@code invokestatic} of its declared method, with the inputs in the slots the signature gives them.
 */
final class Builtins {
    private Builtins() { }

    static void emit(MethodCompiler mc, CallNode n, Checked.Target.Builtin b) {
        Impl impl = mc.owner.library().impl(b.overload());
        if (impl.special() != null) impl.special().emit(mc, n);
        else if (impl.intrinsic() != Intrinsic.NONE) impl.intrinsic().emit(mc, n);
        else if (impl.host()) hostCall(mc, n, impl);
        else call(mc, n, impl);
    }

    /** {@code invokestatic} of the declared method, following its declared parameters. */
    private static void call(MethodCompiler mc, CallNode n, Impl impl) {
        Type.Fn decl = impl.overload().signature();
        Method m = impl.method();
        Class<?>[] params = m.getParameterTypes();
        int first = (impl.takesContext() ? 1 : 0) + (impl.takesDepth() ? 1 : 0);
        int k = decl.ins().size();
        int base = n.before().size() - k;
        MethodVisitor mv = mc.mv;
        Runnable invoke = () -> {
            if (impl.takesContext()) {
                mc.fuelOut();
                mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            }
            if (impl.takesDepth()) mc.nextDepth();
            for (int i = 0; i < k; i++) {
                NodeEmitter.load(mc, n.before(), base + i, Kind.of(decl.ins().get(i)));
                Class<?> p = params[first + i];
                if (!p.isPrimitive() && p != Object.class) mv.visitTypeInsn(CHECKCAST, org.objectweb.asm.Type.getInternalName(p));
            }
            if (impl.takesSite()) mc.classConstant(n.instantiated(), "Ldev/finch/ir/type/Type$Fn;");
            if (impl.takesOrigin()) mc.origin(n.origin());
            mv.visitMethodInsn(INVOKESTATIC, org.objectweb.asm.Type.getInternalName(m.getDeclaringClass()), m.getName(),
                    org.objectweb.asm.Type.getMethodDescriptor(m), false);
        };
        Kind ret = decl.outs().isEmpty() ? null : Kind.of(decl.outs().get(0));
        if (n.suspends()) {
            mc.pendingReturn = ret;
            mc.suspendingCall(n.before(), invoke);
        } else {
            invoke.run();
        }
        if (impl.takesContext()) mc.fuelIn();
        if (ret != null) NodeEmitter.store(mc, ret, n.after(), base);
    }

    /** A host-installed word: boxed inputs to {@code HostCalls.call}, which passes its boundary and guards its code. */
    private static void hostCall(MethodCompiler mc, CallNode n, Impl impl) {
        Type.Fn decl = impl.overload().signature();
        int k = decl.ins().size();
        int base = n.before().size() - k;
        MethodVisitor mv = mc.mv;
        Runnable invoke = () -> {
            mc.fuelOut();
            mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            mc.nextDepth();
            mc.classConstant(impl, "Ldev/finch/vm/word/Impl;");
            mc.classConstant(n.instantiated(), "Ldev/finch/ir/type/Type$Fn;");
            mc.origin(n.origin());
            NodeEmitter.boxRange(mc, n.before(), base, k);
            mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/word/HostCalls", "call", "(L" + MethodCompiler.CTX
                    + ";ILdev/finch/vm/word/Impl;Ldev/finch/ir/type/Type$Fn;" + MethodCompiler.ORIGIN_DESC + "[Ljava/lang/Object;)Ljava/lang/Object;", false);
        };
        if (n.suspends()) {
            mc.pendingReturn = Kind.A;
            mc.suspendingCall(n.before(), invoke);
        } else {
            invoke.run();
        }
        mc.fuelIn();
        if (decl.outs().isEmpty()) mv.visitInsn(POP);
        else NodeEmitter.store(mc, Kind.A, n.after(), base);
    }
}
