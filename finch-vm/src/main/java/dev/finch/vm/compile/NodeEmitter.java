package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CompiledWord;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/** Emits bytecode for one verified node; one method per node kind. */
final class NodeEmitter {
    private NodeEmitter() { }

    static void emit(MethodCompiler mc, Node n) {
        boolean handled = switch (n.kind()) {
            case PUSH -> { push(mc, (Checked.PushNode) n); yield true; }
            case CALL -> { call(mc, (CallNode) n); yield true; }
            case IF -> { ifNode(mc, (Checked.IfNode) n); yield true; }
            case IF_SOME -> { ifSome(mc, (Checked.IfSomeNode) n); yield true; }
            case IF_OK -> { ifOk(mc, (Checked.IfOkNode) n); yield true; }
            case LOOP -> { loop(mc, (Checked.LoopNode) n); yield true; }
            case UNTIL -> { until(mc, (Checked.UntilNode) n); yield true; }
            case CASE -> { caseNode(mc, (Checked.CaseNode) n); yield true; }
            case LIST -> { list(mc, (Checked.ListNode) n); yield true; }
            case MAP -> { map(mc, (Checked.MapNode) n); yield true; }
            case RECORD -> { record(mc, (Checked.RecordNode) n); yield true; }
            case QUOTE -> { quote(mc, (Checked.QuoteNode) n); yield true; }
            case CLOSURE -> { closure(mc, (Checked.ClosureNode) n); yield true; }
            case LOCAL_STORE -> { localStore(mc, (Checked.LocalStoreNode) n); yield true; }
            case LOCAL_LOAD -> { localLoad(mc, (Checked.LocalLoadNode) n); yield true; }
            case PROPAGATE -> { propagate(mc, (Checked.PropagateNode) n); yield true; }
            case CONSTANT -> { constant(mc, (Checked.ConstantNode) n); yield true; }
        };
    }

    /** Stores the value on the operand stack (of kind {@code from}) at {@code position} of {@code row}. */
    static void store(MethodCompiler mc, Kind from, List<Type> row, int position) {
        Kind to = Kind.of(row.get(position));
        mc.convert(from, to);
        mc.mv.visitVarInsn(to.store, mc.slot(position, to));
    }

    /** Loads position {@code p} of {@code row} converted to kind {@code to}. */
    static void load(MethodCompiler mc, List<Type> row, int p, Kind to) {
        Kind from = Kind.of(row.get(p));
        mc.mv.visitVarInsn(from.load, mc.slot(p, from));
        mc.convert(from, to);
    }

    private static void push(MethodCompiler mc, Checked.PushNode n) {
        mc.literal(n.instr().literal());
        Kind k = Kind.of(n.type());
        mc.mv.visitVarInsn(k.store, mc.slot(n.before().size(), k));
    }

    private static void call(MethodCompiler mc, CallNode n) {
        Checked.Target t = n.target();
        boolean handled = switch (t.kind()) {
            case BUILTIN -> {
                if (mc.plainAddition(n)) plainAdd(mc, n);
                else Builtins.emit(mc, n, (Checked.Target.Builtin) t);
                yield true;
            }
            case WORD -> { wordCall(mc, n, t.name()); yield true; }
            case CONSTANT_REF -> {
                mc.mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
                mc.string(t.name());
                mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "constant", "(L" + MethodCompiler.CTX + ";Ljava/lang/String;)Ljava/lang/Object;", false);
                store(mc, Kind.A, n.after(), n.before().size());
                yield true;
            }
        };
    }

    private static void wordCall(MethodCompiler mc, CallNode n, String name) {
        CheckedWord local = mc.moduleWord(name);
        CompiledWord persisted = local == null ? mc.persisted(name) : null;
        Type.Fn sig = local != null ? local.signature() : persisted.signature();
        boolean suspends = n.suspends();
        int k = sig.ins().size();
        int base = n.before().size() - k;
        MethodVisitor mv = mc.mv;
        boolean viaHandle = persisted != null || mc.owner.viaHandle(name);
        Bounded.Fact bounded = local != null && !viaHandle ? mc.owner.bounded(name) : null;
        if (bounded != null) {
            boundedCall(mc, n, sig, base, name, bounded);
            return;
        }
        if (local != null && !viaHandle && mc.threadedCallee(name)) {
            threadedCall(mc, n, sig, base, name);
            return;
        }
        Runnable invoke = () -> {
            mc.fuelOut();
            if (persisted != null) mc.classConstant(persisted.handle(), "Ljava/lang/invoke/MethodHandle;");
            else if (viaHandle) mc.lateConstant(mc.owner.handleSlot(name), "Ljava/lang/Object;", "java/lang/invoke/MethodHandle");
            mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
            mc.nextDepth();
            for (int i = 0; i < k; i++) load(mc, n.before(), base + i, Kind.of(sig.ins().get(i)));
            String desc = ModuleCompiler.descriptor(sig, false);
            if (viaHandle) mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", desc, false);
            else mv.visitMethodInsn(INVOKESTATIC, ModuleCompiler.CLASS_NAME, mc.methodNameOf(name), desc, false);
        };
        Kind ret = sig.outs().size() == 1 ? Kind.of(sig.outs().get(0)) : null;
        if (suspends) {
            mc.pendingReturn = ret;
            mc.suspendingCall(n.before(), invoke);
        } else {
            invoke.run();
        }
        mc.fuelIn();
        if (ret != null) store(mc, ret, n.after(), base);
        else for (int i = 0; i < sig.outs().size(); i++) {
            Kind ck = Kind.of(sig.outs().get(i));
            mc.loadRegister(i, ck);
            store(mc, ck, n.after(), base + i);
        }
    }

    /**
     * A call of a module word that can neither loop nor recurse: this caller charges its step (in its fuel local
     * when it has one) and calls the check-free body; a leaf callee never touches the context's fuel, so the local
     * need not be written back around it.
     */
    private static void boundedCall(MethodCompiler mc, CallNode n, Type.Fn sig, int base, String name, Bounded.Fact fact) {
        MethodVisitor mv = mc.mv;
        mc.chargeCall();
        if (!fact.leaf()) mc.fuelOut();
        mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
        mc.nextDepth();
        for (int i = 0; i < sig.ins().size(); i++) load(mc, n.before(), base + i, Kind.of(sig.ins().get(i)));
        mv.visitMethodInsn(INVOKESTATIC, ModuleCompiler.CLASS_NAME, mc.owner.boundedBody(name), ModuleCompiler.descriptor(sig, false), false);
        if (!fact.leaf()) mc.fuelIn();
        Kind ret = sig.outs().size() == 1 ? Kind.of(sig.outs().get(0)) : null;
        if (ret != null) store(mc, ret, n.after(), base);
        else for (int i = 0; i < sig.outs().size(); i++) {
            Kind ck = Kind.of(sig.outs().get(i));
            mc.loadRegister(i, ck);
            store(mc, ck, n.after(), base + i);
        }
    }

    /**
     * A call of a module word with threaded fuel: the fuel local goes in and what is left comes back in it (never
     * through the context), and the result comes from the context.
     */
    private static void threadedCall(MethodCompiler mc, CallNode n, Type.Fn sig, int base, String name) {
        MethodVisitor mv = mc.mv;
        mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
        mc.nextDepth();
        mv.visitVarInsn(LLOAD, mc.fuelLocal());
        for (int i = 0; i < sig.ins().size(); i++) load(mc, n.before(), base + i, Kind.of(sig.ins().get(i)));
        mv.visitMethodInsn(INVOKESTATIC, ModuleCompiler.CLASS_NAME, mc.threadedTarget(name), ModuleCompiler.threadedDescriptor(sig), false);
        mv.visitVarInsn(LSTORE, mc.fuelLocal());
        if (sig.outs().size() == 1) {
            Kind k = Kind.of(sig.outs().get(0));
            mc.loadResult(k);
            store(mc, k, n.after(), base);
            if (k == Kind.A) {
                // The context does not keep the value alive.
                mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
                mv.visitInsn(ACONST_NULL);
                mv.visitFieldInsn(PUTFIELD, MethodCompiler.CTX, "resultA", "Ljava/lang/Object;");
            }
        } else {
            for (int i = 0; i < sig.outs().size(); i++) {
                Kind ck = Kind.of(sig.outs().get(i));
                mc.loadRegister(i, ck);
                store(mc, ck, n.after(), base + i);
            }
        }
    }

    private static void ifNode(MethodCompiler mc, Checked.IfNode n) {
        Label otherwise = new Label();
        Label end = new Label();
        load(mc, n.before(), n.before().size() - 1, Kind.Z);
        mc.mv.visitJumpInsn(IFEQ, otherwise);
        mc.block(n.then());
        mc.mv.visitJumpInsn(GOTO, end);
        mc.mv.visitLabel(otherwise);
        mc.block(n.otherwise());
        mc.mv.visitLabel(end);
    }

    private static void ifSome(MethodCompiler mc, Checked.IfSomeNode n) {
        int p = n.before().size() - 1;
        Label none = new Label();
        Label end = new Label();
        load(mc, n.before(), p, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "isSome", "(Ljava/lang/Object;)Z", false);
        mc.mv.visitJumpInsn(IFEQ, none);
        load(mc, n.before(), p, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "optionValue", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        Kind pk = Kind.of(n.payload());
        mc.convert(Kind.A, pk);
        mc.mv.visitVarInsn(pk.store, mc.slot(p, pk));
        mc.block(n.some());
        mc.mv.visitJumpInsn(GOTO, end);
        mc.mv.visitLabel(none);
        mc.block(n.none());
        mc.mv.visitLabel(end);
    }

    private static void ifOk(MethodCompiler mc, Checked.IfOkNode n) {
        int p = n.before().size() - 1;
        Label err = new Label();
        Label end = new Label();
        load(mc, n.before(), p, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "isOk", "(Ljava/lang/Object;)Z", false);
        mc.mv.visitJumpInsn(IFEQ, err);
        payloadInto(mc, n.before(), p, n.okType());
        mc.block(n.ok());
        mc.mv.visitJumpInsn(GOTO, end);
        mc.mv.visitLabel(err);
        payloadInto(mc, n.before(), p, n.errType());
        mc.block(n.err());
        mc.mv.visitLabel(end);
    }

    private static void payloadInto(MethodCompiler mc, List<Type> row, int p, Type payload) {
        load(mc, row, p, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "resultValue", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        Kind pk = Kind.of(payload);
        mc.convert(Kind.A, pk);
        mc.mv.visitVarInsn(pk.store, mc.slot(p, pk));
    }

    /**
     * An int addition or subtraction proven not to overflow ({@code i + 1} under {@code i < bound}, {@link Strip};
     * a constant under a branch's bound, {@link Ranges}): a plain {@code ladd} or {@code lsub}.
     */
    private static void plainAdd(MethodCompiler mc, CallNode n) {
        int base = n.before().size() - 2;
        String id = mc.owner.library().impl(((Checked.Target.Builtin) n.target()).overload()).overload().id();
        load(mc, n.before(), base, Kind.J);
        load(mc, n.before(), base + 1, Kind.J);
        mc.mv.visitInsn(switch (id) {
            case Strip.ADD_INT -> LADD;
            case Ranges.SUB_INT -> LSUB;
            default -> throw new IllegalStateException("not a plain addition: " + id);
        });
        store(mc, Kind.J, n.after(), base);
    }

    private static void loop(MethodCompiler mc, Checked.LoopNode n) {
        Label head = new Label();
        Label exit = new Label();
        Strip.Plan plan = mc.fuelLocal() >= 0 ? Strip.plan(mc, n) : null;
        if (plan != null) mc.plainAdditions(plan.increments());
        mc.mv.visitLabel(head);
        if (plan != null) strip(mc, n, plan);
        mc.backEdgeFuel();
        mc.block(n.test());
        List<Type> out = n.test().out();
        load(mc, out, out.size() - 1, Kind.Z);
        mc.mv.visitJumpInsn(IFEQ, exit);
        mc.block(n.body());
        mc.mv.visitJumpInsn(GOTO, head);
        mc.mv.visitLabel(exit);
    }

    /**
     * The strip of a counted loop ({@link Strip}), emitted at its head before the per-iteration code: when the fuel
     * pays for at least one whole iteration and {@code i < bound}, it pays for {@code min(bound - i, fuel / steps)}
     * iterations at once and runs them as the body alone (the test is known true) under an int counter — the shape
     * the JIT unrolls — then falls through to the ordinary head, which charges, tests and runs the next iteration
     * (refuelling when it must) and comes back.
     */
    private static void strip(MethodCompiler mc, Checked.LoopNode n, Strip.Plan plan) {
        MethodVisitor mv = mc.mv;
        int fuel = mc.fuelLocal();
        int i = plan.induction() instanceof Strip.In p ? mc.slot(p.p(), Kind.J) : mc.namedLocal(((Strip.Var) plan.induction()).name());
        int limit = mc.temp(Kind.J);
        int count = mc.temp(Kind.Z);
        int k = mc.temp(Kind.Z);
        Label ordinary = new Label();
        Label fits = new Label();
        Label inner = new Label();
        Label done = new Label();
        // limit := fuel / steps, the whole iterations the fuel pays for (a slice is far below 2^31 steps).
        mv.visitVarInsn(LLOAD, fuel);
        if (plan.steps() > 1) {
            mv.visitLdcInsn((long) plan.steps());
            mv.visitInsn(LDIV);
        }
        mv.visitVarInsn(LSTORE, limit);
        mv.visitVarInsn(LLOAD, limit);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFLE, ordinary);
        mv.visitVarInsn(LLOAD, limit);
        mv.visitLdcInsn((long) Integer.MAX_VALUE);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGT, ordinary);
        mv.visitVarInsn(LLOAD, i);
        bound(mc, plan.bound());
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGE, ordinary);
        // bound - i, in [1, 2^64 - 1] as an unsigned number: the strip ends at the bound when the fuel reaches it.
        bound(mc, plan.bound());
        mv.visitVarInsn(LLOAD, i);
        mv.visitInsn(LSUB);
        mv.visitInsn(DUP2);
        mv.visitVarInsn(LLOAD, limit);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Long", "compareUnsigned", "(JJ)I", false);
        mv.visitJumpInsn(IFLT, fits);
        mv.visitInsn(POP2);
        mv.visitVarInsn(LLOAD, limit);
        mv.visitLabel(fits);
        mv.visitInsn(DUP2);
        mv.visitVarInsn(LSTORE, limit);
        mv.visitInsn(L2I);
        mv.visitVarInsn(ISTORE, count);
        // fuel -= steps * limit: the strip's iterations, paid before they run.
        mv.visitVarInsn(LLOAD, fuel);
        mv.visitVarInsn(LLOAD, limit);
        if (plan.steps() > 1) {
            mv.visitLdcInsn((long) plan.steps());
            mv.visitInsn(LMUL);
        }
        mv.visitInsn(LSUB);
        mv.visitVarInsn(LSTORE, fuel);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, k);
        mv.visitLabel(inner);
        mv.visitVarInsn(ILOAD, k);
        mv.visitVarInsn(ILOAD, count);
        mv.visitJumpInsn(IF_ICMPGE, done);
        boolean was = mc.prepaid;
        mc.prepaid = true;
        mc.block(n.body());
        mc.prepaid = was;
        mv.visitIincInsn(k, 1);
        mv.visitJumpInsn(GOTO, inner);
        mv.visitLabel(done);
        mv.visitLabel(ordinary);
    }

    private static void bound(MethodCompiler mc, Strip.Sym b) {
        if (b instanceof Strip.Const c) mc.mv.visitLdcInsn(c.value());
        else if (b instanceof Strip.Local l) mc.mv.visitVarInsn(LLOAD, mc.namedLocal(l.name()));
        else if (b instanceof Strip.In q) mc.mv.visitVarInsn(LLOAD, mc.slot(q.p(), Kind.J));
        else throw new IllegalStateException("not a strip bound: " + b);
    }

    private static void until(MethodCompiler mc, Checked.UntilNode n) {
        Label head = new Label();
        mc.mv.visitLabel(head);
        mc.backEdgeFuel();
        mc.block(n.body());
        List<Type> out = n.body().out();
        load(mc, out, out.size() - 1, Kind.Z);
        mc.mv.visitJumpInsn(IFEQ, head);
    }

    private static void caseNode(MethodCompiler mc, Checked.CaseNode n) {
        int p = n.before().size() - 1;
        Label end = new Label();
        for (Checked.CheckedArm arm : n.arms()) {
            Label next = new Label();
            load(mc, n.before(), p, Kind.J);
            mc.mv.visitLdcInsn(arm.value());
            mc.mv.visitInsn(LCMP);
            mc.mv.visitJumpInsn(IFNE, next);
            mc.block(arm.body());
            mc.mv.visitJumpInsn(GOTO, end);
            mc.mv.visitLabel(next);
        }
        n.otherwise().ifPresent(mc::block);
        mc.mv.visitLabel(end);
    }

    /** Boxes {@code count} values of {@code row} starting at {@code base} into a new Object[] on the operand stack. */
    static void boxRange(MethodCompiler mc, List<Type> row, int base, int count) {
        mc.pushInt(count);
        mc.mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
        for (int i = 0; i < count; i++) {
            mc.mv.visitInsn(DUP);
            mc.pushInt(i);
            load(mc, row, base + i, Kind.A);
            mc.mv.visitInsn(AASTORE);
        }
    }

    private static void list(MethodCompiler mc, Checked.ListNode n) {
        mc.block(n.elements());
        int base = n.before().size();
        boxRange(mc, n.elements().out(), base, n.count());
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "listOf", "([Ljava/lang/Object;)Ljava/lang/Object;", false);
        store(mc, Kind.A, n.after(), base);
    }

    private static void map(MethodCompiler mc, Checked.MapNode n) {
        mc.block(n.entries());
        int base = n.before().size();
        boxRange(mc, n.entries().out(), base, 2 * n.count());
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "mapOf", "([Ljava/lang/Object;)Ljava/lang/Object;", false);
        store(mc, Kind.A, n.after(), base);
    }

    private static void record(MethodCompiler mc, Checked.RecordNode n) {
        int base = n.before().size();
        List<Instr.RecordLit.Field> fields = n.instr().fields();
        for (Checked.CheckedBlock b : n.values()) mc.block(b);
        List<Type> row = n.values().isEmpty() ? n.before() : n.values().get(n.values().size() - 1).out();
        List<String> sorted = List.copyOf(n.type().fields().keySet());
        mc.pushInt(fields.size());
        mc.mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
        for (int i = 0; i < fields.size(); i++) {
            mc.mv.visitInsn(DUP);
            mc.pushInt(sorted.indexOf(fields.get(i).name()));
            load(mc, row, base + i, Kind.A);
            mc.mv.visitInsn(AASTORE);
        }
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "record", "([Ljava/lang/Object;)Ljava/lang/Object;", false);
        store(mc, Kind.A, n.after(), base);
    }

    private static void quote(MethodCompiler mc, Checked.QuoteNode n) {
        Checked.Target t = n.target();
        boolean handled = switch (t.kind()) {
            case WORD -> {
                CheckedWord target = mc.moduleWord(t.name());
                if (target != null) {
                    int slot = mc.owner.addQuote(forwarder(target, n), n);
                    mc.lateConstant(slot, "Ljava/lang/invoke/MethodHandle;");
                    newToken(mc, target.signature(), t.name(), n);
                } else {
                    CompiledWord p = mc.persisted(t.name());
                    mc.classConstant(Invokers.uniform(p.handle(), p.signature(), false), "Ljava/lang/invoke/MethodHandle;");
                    newToken(mc, p.signature(), t.name(), n);
                }
                yield true;
            }
            case BUILTIN -> {
                CheckedWord adapter = adapter((Checked.Target.Builtin) t, n);
                int slot = mc.owner.addQuote(adapter, n);
                mc.lateConstant(slot, "Ljava/lang/invoke/MethodHandle;");
                newToken(mc, adapter.signature(), t.name(), n);
                yield true;
            }
            case CONSTANT_REF -> throw new IllegalStateException("a constant has no execution token (the verifier refuses ['] " + t.name() + ")");
        };
    }

    /** A word whose body is one call of {@code target}: the adapter that an execution token invokes. */
    private static CheckedWord forwarder(CheckedWord target, Checked.QuoteNode n) {
        Type.Fn sig = target.signature();
        CallNode call = new CallNode(new Instr.Call(target.name(), n.origin()), new Checked.Target.Word(target.name()), sig,
                target.suspends(), sig.ins(), sig.outs());
        return new CheckedWord("['] " + target.name(), sig, Map.of(), List.of(),
                new Checked.CheckedBlock(List.of(call), sig.ins(), sig.outs()), target.suspends(), n.origin());
    }

    private static CheckedWord adapter(Checked.Target.Builtin b, Checked.QuoteNode n) {
        Type.Fn sig = n.type();
        boolean suspends = dev.finch.ir.vocab.WordSpec.maySuspend(sig);
        CallNode call = new CallNode(new Instr.Call(b.name(), n.origin()), b, sig, suspends, sig.ins(), sig.outs());
        return new CheckedWord("['] " + b.name(), sig, Map.of(), List.of(),
                new Checked.CheckedBlock(List.of(call), sig.ins(), sig.outs()), suspends, n.origin());
    }

    private static void newClosure(MethodCompiler mc, int invokerSlot, Type.Fn sig, String name, List<Type> after, int pos, Runnable captures) {
        newClosure(mc, invokerSlot, sig, name, after, pos, captures, null);
    }

    private static void newClosure(MethodCompiler mc, int invokerSlot, Type.Fn sig, String name, List<Type> after, int pos, Runnable captures,
                                   CheckedWord body) {
        mc.lateConstant(invokerSlot, "Ljava/lang/invoke/MethodHandle;");
        newClosureFromLoadedInvoker(mc, sig, name, after, pos, captures, body);
    }

    /** With the invoker on the operand stack, builds the execution token quotation {@code n} makes and stores it. */
    private static void newToken(MethodCompiler mc, Type.Fn sig, String name, Checked.QuoteNode n) {
        MethodVisitor mv = mc.mv;
        int pos = n.before().size();
        mv.visitVarInsn(ASTORE, mc.slot(pos, Kind.A));
        mv.visitTypeInsn(NEW, "dev/finch/vm/value/Closure");
        mv.visitInsn(DUP);
        mv.visitVarInsn(ALOAD, mc.slot(pos, Kind.A));
        mv.visitTypeInsn(CHECKCAST, "java/lang/invoke/MethodHandle");
        mc.classConstant(sig, "Ldev/finch/ir/type/Type$Fn;");
        mc.string(name);
        mc.classConstant(n, "Ldev/finch/ir/checked/Checked$QuoteNode;");
        mv.visitMethodInsn(INVOKESPECIAL, "dev/finch/vm/value/Closure", "<init>",
                "(Ljava/lang/invoke/MethodHandle;Ldev/finch/ir/type/Type$Fn;Ljava/lang/String;Ldev/finch/ir/checked/Checked$QuoteNode;)V", false);
        store(mc, Kind.A, n.after(), pos);
    }

    /** With the invoker on the operand stack, builds a Closure value and stores it at {@code pos}. */
    private static void newClosureFromLoadedInvoker(MethodCompiler mc, Type.Fn sig, String name, List<Type> after, int pos, Runnable captures) {
        newClosureFromLoadedInvoker(mc, sig, name, after, pos, captures, null);
    }

    private static void newClosureFromLoadedInvoker(MethodCompiler mc, Type.Fn sig, String name, List<Type> after, int pos, Runnable captures,
                                                    CheckedWord body) {
        MethodVisitor mv = mc.mv;
        mv.visitVarInsn(ASTORE, mc.slot(pos, Kind.A));
        mv.visitTypeInsn(NEW, "dev/finch/vm/value/Closure");
        mv.visitInsn(DUP);
        mv.visitVarInsn(ALOAD, mc.slot(pos, Kind.A));
        mv.visitTypeInsn(CHECKCAST, "java/lang/invoke/MethodHandle");
        if (captures == null) mv.visitInsn(ACONST_NULL);
        else captures.run();
        mc.classConstant(sig, "Ldev/finch/ir/type/Type$Fn;");
        mc.string(name);
        if (body == null) {
            mv.visitMethodInsn(INVOKESPECIAL, "dev/finch/vm/value/Closure", "<init>",
                    "(Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;Ldev/finch/ir/type/Type$Fn;Ljava/lang/String;)V", false);
        } else {
            mc.classConstant(body, "Ldev/finch/ir/checked/Checked$CheckedWord;");
            mv.visitMethodInsn(INVOKESPECIAL, "dev/finch/vm/value/Closure", "<init>",
                    "(Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;Ldev/finch/ir/type/Type$Fn;Ljava/lang/String;Ldev/finch/ir/checked/Checked$CheckedWord;)V", false);
        }
        store(mc, Kind.A, after, pos);
    }

    private static void closure(MethodCompiler mc, Checked.ClosureNode n) {
        CheckedWord body = n.body();
        int slot = mc.owner.addExtra("c", body, true);
        newClosure(mc, slot, body.signature(), "closure@" + n.origin(), n.after(), n.before().size(), () -> {
            mc.pushInt(body.captures().size());
            mc.mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
            for (int i = 0; i < body.captures().size(); i++) {
                String name = body.captures().get(i);
                mc.mv.visitInsn(DUP);
                mc.pushInt(i);
                Kind k = mc.namedKind(name);
                mc.mv.visitVarInsn(k.load, mc.namedLocal(name));
                mc.box(k);
                mc.mv.visitInsn(AASTORE);
            }
        }, body);
    }

    private static void localStore(MethodCompiler mc, Checked.LocalStoreNode n) {
        String name = n.instr().name();
        Kind to = mc.namedKind(name);
        load(mc, n.before(), n.before().size() - 1, to);
        mc.mv.visitVarInsn(to.store, mc.namedLocal(name));
    }

    private static void localLoad(MethodCompiler mc, Checked.LocalLoadNode n) {
        String name = n.instr().name();
        Kind from = mc.namedKind(name);
        mc.mv.visitVarInsn(from.load, mc.namedLocal(name));
        store(mc, from, n.after(), n.before().size());
    }

    private static void propagate(MethodCompiler mc, Checked.PropagateNode n) {
        int p = n.before().size() - 1;
        Label ok = new Label();
        load(mc, n.before(), p, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "isOk", "(Ljava/lang/Object;)Z", false);
        mc.mv.visitJumpInsn(IFNE, ok);
        // The cold error edge: return the err itself (a result<R,E> whose err payload is the one inspected).
        mc.returnReference(() -> load(mc, n.before(), p, Kind.A));
        mc.mv.visitLabel(ok);
        payloadInto(mc, n.before(), p, n.inspected().ok());
    }

    private static void constant(MethodCompiler mc, Checked.ConstantNode n) {
        mc.mv.visitVarInsn(ALOAD, MethodCompiler.CTX_LOCAL);
        mc.string(n.instr().name());
        load(mc, n.before(), n.before().size() - 1, Kind.A);
        mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "defineConstant", "(L" + MethodCompiler.CTX + ";Ljava/lang/String;Ljava/lang/Object;)V", false);
    }
}
