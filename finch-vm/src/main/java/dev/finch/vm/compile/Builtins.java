package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.type.Type;
import dev.finch.vm.word.Impl;
import dev.finch.vm.declare.Intrinsic;
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
        if (impl.special() != null) ((Specials) impl.special()).emit(mc, n);
        else if (impl.intrinsic() != Intrinsic.NONE) Intrinsics.emit(impl.intrinsic(), mc, n);
        else if (impl.host()) hostCall(mc, n, impl);
        else call(mc, n, impl);
    }

    /**
     * {@code invokestatic} of the declared method, following its declared parameters: its class, name and descriptor
     * as the library names them (for Finch's own words, the index; no class is reflected on).
     */
    private static void call(MethodCompiler mc, CallNode n, Impl impl) {
        Type.Fn decl = impl.overload().signature();
        int k = decl.ins().size();
        int base = n.before().size() - k;
        DirectCall invoke = new DirectCall(mc, n, impl, base);
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

    /*
     * The emitted calls are small named classes, not lambdas: a definition's first compile in a fresh JVM (finch run
     * hello.fth) would link each lambda, about 0.7 ms apiece.
     */

    /** What emitting one call needs: the method being compiled, the call, its implementation and its inputs' base depth. */
    private abstract static class CallEmitter implements Runnable {
        final MethodCompiler mc;
        final CallNode n;
        final Impl impl;
        final int base;

        CallEmitter(MethodCompiler mc, CallNode n, Impl impl, int base) {
            this.mc = mc;
            this.n = n;
            this.impl = impl;
            this.base = base;
        }
    }

    /** Emits the direct call: the context and depth when taken, the inputs cast to the parameters, the site and origin. */
    private static final class DirectCall extends CallEmitter {
        DirectCall(MethodCompiler mc, CallNode n, Impl impl, int base) { super(mc, n, impl, base); }

        @Override
        public void run() {
            Type.Fn decl = impl.overload().signature();
            String descriptor = impl.methodDescriptor();
            org.objectweb.asm.Type[] params = org.objectweb.asm.Type.getArgumentTypes(descriptor);
            int first = (impl.takesContext() ? 1 : 0) + (impl.takesDepth() ? 1 : 0);
            MethodVisitor mv = mc.mv;
            if (impl.takesContext()) {
                mc.fuelOut();
                mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            }
            if (impl.takesDepth()) mc.nextDepth();
            for (int i = 0; i < decl.ins().size(); i++) {
                NodeEmitter.load(mc, n.before(), base + i, Kind.of(decl.ins().get(i)));
                org.objectweb.asm.Type p = params[first + i];
                boolean reference = p.getSort() == org.objectweb.asm.Type.OBJECT || p.getSort() == org.objectweb.asm.Type.ARRAY;
                if (reference && !p.getInternalName().equals("java/lang/Object")) mv.visitTypeInsn(CHECKCAST, p.getInternalName());
            }
            if (impl.takesSite()) mc.classConstant(n.instantiated(), "Ldev/finch/ir/type/Type$Fn;");
            if (impl.takesOrigin()) mc.origin(n.origin());
            mv.visitMethodInsn(INVOKESTATIC, impl.methodOwner().replace('.', '/'), impl.methodName(), descriptor, false);
        }
    }

    /** A host-installed word: boxed inputs to {@code HostCalls.call}, which passes its boundary and guards its code. */
    private static void hostCall(MethodCompiler mc, CallNode n, Impl impl) {
        Type.Fn decl = impl.overload().signature();
        int k = decl.ins().size();
        int base = n.before().size() - k;
        MethodVisitor mv = mc.mv;
        HostCall invoke = new HostCall(mc, n, impl, base);
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

    /** Emits {@code HostCalls.call(ctx, depth + 1, impl, site, origin, boxed inputs)}. */
    private static final class HostCall extends CallEmitter {
        HostCall(MethodCompiler mc, CallNode n, Impl impl, int base) { super(mc, n, impl, base); }

        @Override
        public void run() {
            MethodVisitor mv = mc.mv;
            mc.fuelOut();
            mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            mc.nextDepth();
            mc.classConstant(impl, "Ldev/finch/vm/word/Impl;");
            mc.classConstant(n.instantiated(), "Ldev/finch/ir/type/Type$Fn;");
            mc.origin(n.origin());
            NodeEmitter.boxRange(mc, n.before(), base, impl.overload().signature().ins().size());
            mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/word/HostCalls", "call", "(L" + MethodCompiler.CTX
                    + ";ILdev/finch/vm/word/Impl;Ldev/finch/ir/type/Type$Fn;" + MethodCompiler.ORIGIN_DESC + "[Ljava/lang/Object;)Ljava/lang/Object;", false);
        }
    }
}
