package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CompiledWord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Compiles one verified word to one static method. Every stack position lives in a JVM local chosen by
 * (depth, kind), so branches merge without shuffling and a suspension spills exactly the typed locals the verifier
 * describes. A word that may suspend gets a resume point per suspending call: after the call it checks
 * {@code ctx.suspending}, spills its row and locals into a {@link dev.finch.vm.value.Frame} and returns; on resume,
 * a {@code tableswitch} at entry restores them and re-enters the call, whose callee restores itself the same way.
 */
final class MethodCompiler {
    enum Role { MAIN, WORD, CLOSURE }

    static final String RT = "dev/finch/vm/runtime/Rt";
    static final String CTX = "dev/finch/vm/runtime/Ctx";
    static final String FRAME = org.objectweb.asm.Type.getInternalName(dev.finch.vm.value.Frame.class);
    static final String ORIGIN_DESC = "Ldev/finch/ir/diag/Origin;";

    final ModuleCompiler owner;
    final CheckedWord word;
    private final String methodName;
    final Role role;
    MethodVisitor mv;

    private int nextLocal;
    private final Map<Integer, Integer> slots = new HashMap<>();
    private final Map<String, Integer> named = new TreeMap<>();
    private final Map<String, Kind> namedKinds = new TreeMap<>();
    static final int CTX_LOCAL = 0;
    private int depthLocal = 1;
    private int capsLocal = -1;
    private int scratchLocal;
    /**
     * In a method with loops, the fuel lives in this local (a register for the JIT) and is written back to the
     * context around calls and returns; -1 when the method has no loop and charges the context directly.
     */
    private int fuelLocal = -1;
    private final List<ResumePoint> resumePoints = new ArrayList<>();

    /** A suspending call site: the label that re-enters it and the row to restore. */
    record ResumePoint(Label call, List<Type> row) { }

    /** How a word's method meets its limits. */
    enum Body {
        /** Checks depth and charges its step to the context at entry. */
        CHECKED,
        /** A bounded word's body (see {@link Bounded}): no depth or fuel check at entry, its caller charged the call. */
        UNCHECKED,
        /**
         * Checks depth and charges its step to the fuel it is passed, which it keeps in a local and returns
         * ({@link ModuleCompiler#threaded}); its result goes through the context.
         */
        THREADED
    }

    private final Body body;

    MethodCompiler(ModuleCompiler owner, CheckedWord word, String methodName, Role role) {
        this(owner, word, methodName, role, Body.CHECKED);
    }

    MethodCompiler(ModuleCompiler owner, CheckedWord word, String methodName, Role role, Body body) {
        this(owner, word, methodName, role, body, null);
    }

    /**
     * A compiler of one method; {@code selfCall}, when not null, is the method this one's direct calls of its own
     * word go to (the other copy of a twinned threaded word, {@link ModuleCompiler#twinned}).
     */
    MethodCompiler(ModuleCompiler owner, CheckedWord word, String methodName, Role role, Body body, String selfCall) {
        this.owner = owner;
        this.word = word;
        this.methodName = methodName;
        this.role = role;
        this.body = body;
        this.selfCall = selfCall;
    }

    /** The method a direct call of this word's own name goes to, or null for the word's usual body. */
    private final String selfCall;

    /** The threaded body method a call of module word {@code callee} from this method invokes. */
    String threadedTarget(String callee) {
        return selfCall != null && callee.equals(word.name()) ? selfCall : owner.threadedBody(callee);
    }

    /**
     * The public entry of a threaded word (its handle): passes the context's fuel to the body {@code body} and
     * writes back what it returns, then returns the result the body left in the context.
     */
    void compileThreadedEntry(ClassWriter cw, String body) {
        String desc = ModuleCompiler.descriptor(word.signature(), false);
        mv = cw.visitMethod(ACC_STATIC | ACC_PRIVATE | ACC_SYNTHETIC, methodName, desc, null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitVarInsn(ILOAD, depthLocal);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitFieldInsn(GETFIELD, CTX, "fuel", "J");
        int p = 2;
        for (Type t : word.signature().ins()) {
            Kind k = Kind.of(t);
            mv.visitVarInsn(k.load, p);
            p += k.size;
        }
        mv.visitMethodInsn(INVOKESTATIC, ModuleCompiler.CLASS_NAME, body, ModuleCompiler.threadedDescriptor(word.signature()), false);
        mv.visitFieldInsn(PUTFIELD, CTX, "fuel", "J");
        List<Type> outs = word.signature().outs();
        if (outs.size() == 1) {
            Kind k = Kind.of(outs.get(0));
            loadResult(k);
            if (k == Kind.A) {
                // The context does not keep the value alive.
                mv.visitVarInsn(ALOAD, CTX_LOCAL);
                mv.visitInsn(ACONST_NULL);
                mv.visitFieldInsn(PUTFIELD, CTX, "resultA", "Ljava/lang/Object;");
            }
            mv.visitInsn(k.ret);
        } else {
            mv.visitInsn(RETURN);
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** Stores the value {@code load} leaves (of kind k) as the single result of a threaded word. */
    void storeResult(Runnable load, Kind k) {
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        load.run();
        switch (k) {
            case J -> mv.visitFieldInsn(PUTFIELD, CTX, "resultJ", "J");
            case Z -> { mv.visitInsn(I2L); mv.visitFieldInsn(PUTFIELD, CTX, "resultJ", "J"); }
            case D -> mv.visitFieldInsn(PUTFIELD, CTX, "resultD", "D");
            case A -> mv.visitFieldInsn(PUTFIELD, CTX, "resultA", "Ljava/lang/Object;");
        }
    }

    /** Loads the single result of a threaded word, as kind k. */
    void loadResult(Kind k) {
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        switch (k) {
            case J -> mv.visitFieldInsn(GETFIELD, CTX, "resultJ", "J");
            case Z -> { mv.visitFieldInsn(GETFIELD, CTX, "resultJ", "J"); mv.visitInsn(L2I); }
            case D -> mv.visitFieldInsn(GETFIELD, CTX, "resultD", "D");
            case A -> mv.visitFieldInsn(GETFIELD, CTX, "resultA", "Ljava/lang/Object;");
        }
    }

    /** Whether {@code b} calls a module word compiled with threaded fuel (its caller then keeps its fuel in a local). */
    private boolean callsThreaded(CheckedBlock b) {
        for (Node n : b.nodes()) {
            if (n.kind() == dev.finch.ir.instr.Instr.Kind.CALL) {
                Checked.CallNode c = (Checked.CallNode) n;
                if (c.target().kind() == Checked.Target.Kind.WORD && threadedCallee(c.target().name())) return true;
            }
            for (CheckedBlock inner : Checked.children(n)) if (callsThreaded(inner)) return true;
        }
        return false;
    }

    /** Whether a call of {@code name} from here is a direct call of a threaded body. */
    boolean threadedCallee(String name) {
        return owner.moduleWords.containsKey(name) && !owner.isInterpreted(name) && owner.threaded(name);
    }

    /**
     * The public entry of a bounded word (its handle, what other submissions, the interpreter and the host call):
     * the depth and fuel checks every word makes at entry, then the check-free body {@code body}.
     */
    void compileEntry(ClassWriter cw, String body) {
        String desc = ModuleCompiler.descriptor(word.signature(), false);
        mv = cw.visitMethod(ACC_STATIC | ACC_PRIVATE | ACC_SYNTHETIC, methodName, desc, null, null);
        mv.visitCode();
        depthCheck();
        fuelCheck();
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitVarInsn(ILOAD, depthLocal);
        int p = 2;
        for (Type t : word.signature().ins()) {
            Kind k = Kind.of(t);
            mv.visitVarInsn(k.load, p);
            p += k.size;
        }
        mv.visitMethodInsn(INVOKESTATIC, ModuleCompiler.CLASS_NAME, body, desc, false);
        List<Type> outs = word.signature().outs();
        mv.visitInsn(outs.size() == 1 ? Kind.of(outs.get(0)).ret : RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    void compile(ClassWriter cw) {
        String desc = role == Role.MAIN ? "(L" + CTX + ";)V"
                : body == Body.THREADED ? ModuleCompiler.threadedDescriptor(word.signature())
                : ModuleCompiler.descriptor(word.signature(), role == Role.CLOSURE);
        mv = cw.visitMethod(ACC_STATIC | ACC_PRIVATE | ACC_SYNTHETIC, methodName, desc, null, null);
        mv.visitCode();
        // Parameter locals.
        int paramStart;
        if (role == Role.MAIN) {
            nextLocal = 1;
            depthLocal = nextLocal++;
            paramStart = nextLocal;
        } else {
            nextLocal = 2;
            if (body == Body.THREADED) {
                // The fuel parameter is the fuel local.
                fuelLocal = nextLocal;
                nextLocal += 2;
            }
            if (role == Role.CLOSURE) capsLocal = nextLocal++;
            paramStart = nextLocal;
            for (Type t : word.signature().ins()) nextLocal += Kind.of(t).size;
        }
        scratchLocal = nextLocal++;
        if (fuelLocal < 0 && (ModuleCompiler.Loops.has(word.body()) || callsThreaded(word.body()))) {
            fuelLocal = nextLocal;
            nextLocal += 2;
        }
        // Plan: every (position, kind) used anywhere, and the named locals; the arithmetic a branch proves in range.
        plan(word.body());
        Ranges.find(word.body(), owner.library(), plainAdditions);
        for (int i = 0; i < word.signature().ins().size(); i++) slot(i, Kind.of(word.signature().ins().get(i)));
        word.locals().forEach((n, t) -> {
            Kind k = Kind.of(t);
            named.put(n, allocate(k));
            namedKinds.put(n, k);
        });
        // Initialize every local so that every path (including resume) sees definite values.
        if (role == Role.MAIN) { mv.visitInsn(ICONST_0); mv.visitVarInsn(ISTORE, depthLocal); }
        for (var e : slots.entrySet()) zero(Kind.values()[e.getKey() & 3], e.getValue());
        for (var e : named.entrySet()) zero(namedKinds.get(e.getKey()), e.getValue());
        mv.visitInsn(ACONST_NULL);
        mv.visitVarInsn(ASTORE, scratchLocal);
        if (fuelLocal >= 0 && body != Body.THREADED) { mv.visitInsn(LCONST_0); mv.visitVarInsn(LSTORE, fuelLocal); }

        Label dispatch = new Label();
        if (word.suspends()) {
            mv.visitVarInsn(ALOAD, CTX_LOCAL);
            mv.visitFieldInsn(GETFIELD, CTX, "resuming", "Z");
            mv.visitJumpInsn(IFNE, dispatch);
        }
        if (role != Role.MAIN) {
            switch (body) {
                case CHECKED -> { depthCheck(); fuelCheck(); }
                case THREADED -> { depthCheck(); backEdgeFuel(); }
                case UNCHECKED -> { }
            }
            int p = paramStart;
            for (int i = 0; i < word.signature().ins().size(); i++) {
                Kind k = Kind.of(word.signature().ins().get(i));
                mv.visitVarInsn(k.load, p);
                mv.visitVarInsn(k.store, slot(i, k));
                p += k.size;
            }
        } else {
            List<Type> ins = word.signature().ins();
            for (int i = 0; i < ins.size(); i++) {
                mv.visitVarInsn(ALOAD, CTX_LOCAL);
                mv.visitFieldInsn(GETFIELD, CTX, "stackIn", "[Ljava/lang/Object;");
                pushInt(i);
                mv.visitInsn(AALOAD);
                unbox(Kind.of(ins.get(i)));
                mv.visitVarInsn(Kind.of(ins.get(i)).store, slot(i, Kind.of(ins.get(i))));
            }
        }
        if (role == Role.CLOSURE) {
            for (int i = 0; i < word.captures().size(); i++) {
                String name = word.captures().get(i);
                mv.visitVarInsn(ALOAD, capsLocal);
                pushInt(i);
                mv.visitInsn(AALOAD);
                unbox(namedKinds.get(name));
                mv.visitVarInsn(namedKinds.get(name).store, named.get(name));
            }
        }
        if (body != Body.THREADED) fuelIn();
        block(word.body());
        epilogue(word.body().out());
        if (word.suspends()) emitDispatch(dispatch);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    // ---- planning and locals ----

    private void plan(CheckedBlock b) {
        row(b.in());
        row(b.out());
        for (Node n : b.nodes()) {
            row(n.before());
            row(n.after());
            for (CheckedBlock inner : Checked.children(n)) plan(inner);
        }
    }

    private void row(List<Type> r) { for (int i = 0; i < r.size(); i++) slot(i, Kind.of(r.get(i))); }

    int slot(int position, Kind k) {
        return slots.computeIfAbsent(position * 4 + k.ordinal(), x -> allocate(k));
    }

    int slotAt(List<Type> row, int position) { return slot(position, Kind.of(row.get(position))); }

    private int allocate(Kind k) {
        int l = nextLocal;
        nextLocal += k.size;
        return l;
    }

    int namedLocal(String name) { return named.get(name); }

    Kind namedKind(String name) { return namedKinds.get(name); }

    private void zero(Kind k, int local) {
        switch (k) {
            case J -> mv.visitInsn(LCONST_0);
            case D -> mv.visitInsn(DCONST_0);
            case Z -> mv.visitInsn(ICONST_0);
            case A -> mv.visitInsn(ACONST_NULL);
        }
        mv.visitVarInsn(k.store, local);
    }

    // ---- checks ----

    void fuelCheck() {
        Label ok = new Label();
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitInsn(DUP);
        mv.visitFieldInsn(GETFIELD, CTX, "fuel", "J");
        mv.visitInsn(LCONST_1);
        mv.visitInsn(LSUB);
        mv.visitInsn(DUP2_X1);
        mv.visitFieldInsn(PUTFIELD, CTX, "fuel", "J");
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGE, ok);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "refuel", "()V", false);
        mv.visitLabel(ok);
    }

    /** At a loop's back-edge: one step from the fuel local (or the context when the method keeps none). */
    void backEdgeFuel() {
        if (fuelLocal < 0) { fuelCheck(); return; }
        Label ok = new Label();
        mv.visitVarInsn(LLOAD, fuelLocal);
        mv.visitInsn(LCONST_1);
        mv.visitInsn(LSUB);
        mv.visitInsn(DUP2);
        mv.visitVarInsn(LSTORE, fuelLocal);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGE, ok);
        fuelOut();
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "refuel", "()V", false);
        fuelIn();
        mv.visitLabel(ok);
    }

    /** Charges the one step of a call of a bounded word, to the fuel local when there is one (not in a paid strip). */
    void chargeCall() { if (!prepaid) backEdgeFuel(); }

    /**
     * Set while emitting the body of a loop strip whose steps were paid at its start ({@link Strip}): its leaf
     * calls charge nothing.
     */
    boolean prepaid;

    /**
     * Additions and subtractions proven not to overflow (a counted loop's increment, {@link Strip}; a constant
     * added or subtracted in a branch that bounds the value, {@link Ranges}): they compile to {@code ladd}/{@code lsub}.
     */
    private final java.util.Set<Node> plainAdditions = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    void plainAdditions(java.util.Collection<Node> nodes) { plainAdditions.addAll(nodes); }

    boolean plainAddition(Node n) { return plainAdditions.contains(n); }

    /** The fuel local, or -1 when the method charges the context directly. */
    int fuelLocal() { return fuelLocal; }

    /** A fresh local of kind {@code k} for generated bookkeeping (a strip's limit and start). */
    int temp(Kind k) { return allocate(k); }

    /** Writes the fuel local back to the context (before a call or a return). */
    void fuelOut() {
        if (fuelLocal < 0) return;
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitVarInsn(LLOAD, fuelLocal);
        mv.visitFieldInsn(PUTFIELD, CTX, "fuel", "J");
    }

    /** Reads the context's fuel into the local (at entry, after a call, on resume). */
    void fuelIn() {
        if (fuelLocal < 0) return;
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitFieldInsn(GETFIELD, CTX, "fuel", "J");
        mv.visitVarInsn(LSTORE, fuelLocal);
    }

    private void depthCheck() {
        Label ok = new Label();
        mv.visitVarInsn(ILOAD, depthLocal);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitFieldInsn(GETFIELD, CTX, "maxDepth", "I");
        mv.visitJumpInsn(IF_ICMPLE, ok);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        string(word.name());
        origin(word.origin());
        mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/runtime/Traps", "tooDeep", "(L" + CTX + ";Ljava/lang/String;" + ORIGIN_DESC + ")Ljava/lang/RuntimeException;", false);
        mv.visitInsn(ATHROW);
        mv.visitLabel(ok);
    }

    /**
     * Returns {@code value} (a reference, loaded by {@code load}) from the word early — a propagated err: as the
     * result of a threaded word with its fuel, else with the fuel local written back.
     */
    void returnReference(Runnable load) {
        if (body == Body.THREADED) {
            storeResult(load, Kind.A);
            mv.visitVarInsn(LLOAD, fuelLocal);
            mv.visitInsn(LRETURN);
            return;
        }
        fuelOut();
        load.run();
        mv.visitInsn(ARETURN);
    }

    /** Loads {@code depth + 1} for a call. */
    void nextDepth() {
        mv.visitVarInsn(ILOAD, depthLocal);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IADD);
    }

    // ---- blocks ----

    void block(CheckedBlock b) { for (Node n : b.nodes()) NodeEmitter.emit(this, n); }

    private void epilogue(List<Type> out) {
        if (body == Body.THREADED) {
            List<Type> sigOuts = word.signature().outs();
            for (int i = 0; i < sigOuts.size(); i++) {
                Kind from = Kind.of(out.get(i));
                Kind to = Kind.of(sigOuts.get(i));
                int position = i;
                Runnable load = () -> { mv.visitVarInsn(from.load, slot(position, from)); convert(from, to); };
                if (sigOuts.size() == 1) storeResult(load, to);
                else storeRegister(i, load, to);
            }
            mv.visitVarInsn(LLOAD, fuelLocal);
            mv.visitInsn(LRETURN);
            return;
        }
        fuelOut();
        if (role == Role.MAIN) {
            pushInt(out.size());
            mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
            for (int i = 0; i < out.size(); i++) {
                mv.visitInsn(DUP);
                pushInt(i);
                Kind k = Kind.of(out.get(i));
                mv.visitVarInsn(k.load, slot(i, k));
                box(k);
                mv.visitInsn(AASTORE);
            }
            mv.visitVarInsn(ASTORE, scratchLocal);
            mv.visitVarInsn(ALOAD, CTX_LOCAL);
            mv.visitVarInsn(ALOAD, scratchLocal);
            mv.visitFieldInsn(PUTFIELD, CTX, "stackOut", "[Ljava/lang/Object;");
            mv.visitInsn(RETURN);
            return;
        }
        List<Type> sigOuts = word.signature().outs();
        if (sigOuts.size() == 1) {
            Kind from = Kind.of(out.get(0));
            mv.visitVarInsn(from.load, slot(0, from));
            convert(from, Kind.of(sigOuts.get(0)));
            mv.visitInsn(Kind.of(sigOuts.get(0)).ret);
            return;
        }
        for (int i = 0; i < sigOuts.size(); i++) {
            Kind from = Kind.of(out.get(i));
            Kind to = Kind.of(sigOuts.get(i));
            int position = i;
            storeRegister(i, () -> { mv.visitVarInsn(from.load, slot(position, from)); convert(from, to); }, to);
        }
        mv.visitInsn(RETURN);
    }

    /** Stores the value produced by {@code load} (of kind k) into result register i. */
    void storeRegister(int i, Runnable load, Kind k) {
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        switch (k) {
            case J, Z -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "rl", "()[J", false);
            case D -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "rd", "()[D", false);
            case A -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "ro", "()[Ljava/lang/Object;", false);
        }
        pushInt(i);
        load.run();
        switch (k) {
            case J -> mv.visitInsn(LASTORE);
            case Z -> { mv.visitInsn(I2L); mv.visitInsn(LASTORE); }
            case D -> mv.visitInsn(DASTORE);
            case A -> mv.visitInsn(AASTORE);
        }
    }

    /** Loads result register i as kind k. */
    void loadRegister(int i, Kind k) {
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        switch (k) {
            case J, Z -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "rl", "()[J", false);
            case D -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "rd", "()[D", false);
            case A -> mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "ro", "()[Ljava/lang/Object;", false);
        }
        pushInt(i);
        switch (k) {
            case J -> mv.visitInsn(LALOAD);
            case Z -> { mv.visitInsn(LALOAD); mv.visitInsn(L2I); }
            case D -> mv.visitInsn(DALOAD);
            case A -> mv.visitInsn(AALOAD);
        }
    }

    // ---- suspension ----

    /**
     * Emits a call that may suspend: {@code emitCall} loads arguments and invokes; afterwards, if the callee
     * suspended, this frame spills {@code row} and its locals and returns.
     */
    void suspendingCall(List<Type> row, Runnable emitCall) {
        Label call = new Label();
        int point = resumePoints.size();
        resumePoints.add(new ResumePoint(call, row));
        mv.visitLabel(call);
        emitCall.run();
        Label go = new Label();
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitFieldInsn(GETFIELD, CTX, "suspending", "Z");
        mv.visitJumpInsn(IFEQ, go);
        // Drop whatever the callee returned (a placeholder) before spilling.
        popReturned();
        spill(point, row);
        returnPlaceholder();
        mv.visitLabel(go);
        pendingReturn = null;
    }

    /** The JVM kind the current suspending call leaves on the operand stack (null for none). */
    Kind pendingReturn;

    private void popReturned() {
        if (pendingReturn == null) return;
        mv.visitInsn(pendingReturn.size == 2 ? POP2 : POP);
    }

    private void spill(int point, List<Type> row) {
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitTypeInsn(NEW, FRAME);
        mv.visitInsn(DUP);
        string(word.name());
        pushInt(point);
        pushInt(row.size() + named.size());
        mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
        int i = 0;
        for (int p = 0; p < row.size(); p++, i++) {
            mv.visitInsn(DUP);
            pushInt(i);
            Kind k = Kind.of(row.get(p));
            mv.visitVarInsn(k.load, slot(p, k));
            box(k);
            mv.visitInsn(AASTORE);
        }
        for (var e : named.entrySet()) {
            mv.visitInsn(DUP);
            pushInt(i++);
            Kind k = namedKinds.get(e.getKey());
            mv.visitVarInsn(k.load, e.getValue());
            box(k);
            mv.visitInsn(AASTORE);
        }
        java.util.List<Type> types = new java.util.ArrayList<>(row);
        for (String n : named.keySet()) types.add(word.locals().get(n));
        classConstant(java.util.List.copyOf(types), "Ljava/util/List;");
        mv.visitMethodInsn(INVOKESPECIAL, FRAME, "<init>", "(Ljava/lang/String;I[Ljava/lang/Object;Ljava/util/List;)V", false);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "pushFrame", "(L" + FRAME + ";)V", false);
    }

    private void returnPlaceholder() {
        if (role == Role.MAIN) { mv.visitInsn(RETURN); return; }
        List<Type> outs = word.signature().outs();
        if (outs.size() != 1) { mv.visitInsn(RETURN); return; }
        Kind k = Kind.of(outs.get(0));
        switch (k) {
            case J -> mv.visitInsn(LCONST_0);
            case D -> mv.visitInsn(DCONST_0);
            case Z -> mv.visitInsn(ICONST_0);
            case A -> mv.visitInsn(ACONST_NULL);
        }
        mv.visitInsn(k.ret);
    }

    private void emitDispatch(Label dispatch) {
        mv.visitLabel(dispatch);
        mv.visitVarInsn(ALOAD, CTX_LOCAL);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "popFrame", "()L" + FRAME + ";", false);
        mv.visitVarInsn(ASTORE, scratchLocal);
        fuelIn();
        Label[] restores = new Label[resumePoints.size()];
        for (int i = 0; i < restores.length; i++) restores[i] = new Label();
        Label bad = new Label();
        mv.visitVarInsn(ALOAD, scratchLocal);
        mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "point", "()I", false);
        if (restores.length > 0) mv.visitTableSwitchInsn(0, restores.length - 1, bad, restores);
        else mv.visitInsn(POP);
        for (int r = 0; r < restores.length; r++) {
            mv.visitLabel(restores[r]);
            ResumePoint rp = resumePoints.get(r);
            int i = 0;
            for (int p = 0; p < rp.row().size(); p++, i++) {
                Kind k = Kind.of(rp.row().get(p));
                mv.visitVarInsn(ALOAD, scratchLocal);
                mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "values", "()[Ljava/lang/Object;", false);
                pushInt(i);
                mv.visitInsn(AALOAD);
                unbox(k);
                mv.visitVarInsn(k.store, slot(p, k));
            }
            for (var e : named.entrySet()) {
                Kind k = namedKinds.get(e.getKey());
                mv.visitVarInsn(ALOAD, scratchLocal);
                mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "values", "()[Ljava/lang/Object;", false);
                pushInt(i++);
                mv.visitInsn(AALOAD);
                unbox(k);
                mv.visitVarInsn(k.store, e.getValue());
            }
            mv.visitJumpInsn(GOTO, rp.call());
        }
        mv.visitLabel(bad);
        mv.visitVarInsn(ALOAD, scratchLocal);
        mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/runtime/Traps", "badFrame", "(L" + FRAME + ";)Ljava/lang/RuntimeException;", false);
        mv.visitInsn(ATHROW);
    }

    // ---- value helpers ----

    void pushInt(int v) {
        if (v >= -1 && v <= 5) mv.visitInsn(ICONST_0 + v);
        else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) mv.visitIntInsn(BIPUSH, v);
        else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) mv.visitIntInsn(SIPUSH, v);
        else mv.visitLdcInsn(v);
    }

    void box(Kind k) {
        switch (k) {
            case J -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Long", "valueOf", "(J)Ljava/lang/Long;", false);
            case D -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "valueOf", "(D)Ljava/lang/Double;", false);
            case Z -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Boolean", "valueOf", "(Z)Ljava/lang/Boolean;", false);
            case A -> { }
        }
    }

    void unbox(Kind k) {
        if (k == Kind.A) return;
        mv.visitTypeInsn(CHECKCAST, k.box);
        mv.visitMethodInsn(INVOKEVIRTUAL, k.box, k.unboxMethod, "()" + k.desc, false);
    }

    /** Converts the value on top of the operand stack from kind {@code from} to {@code to}. */
    void convert(Kind from, Kind to) {
        if (from == to) return;
        if (to == Kind.A) box(from);
        else if (from == Kind.A) unbox(to);
        else throw new IllegalStateException("no conversion " + from + " -> " + to);
    }

    void origin(Origin o) { constantField(owner.data.intern(o), ORIGIN_DESC); }

    void classConstant(Object value, String desc) { constantField(owner.data.intern(value), desc); }

    /**
     * Pushes a string: a constant-pool entry when it fits one (at most 65,535 bytes of modified UTF-8, so at most
     * 21,845 chars is always safe), else a class-data constant — a long word name or string literal must compile too.
     */
    void string(String s) {
        if (s.length() <= 21_845) mv.visitLdcInsn(s);
        else classConstant(s, "Ljava/lang/String;");
    }

    void lateConstant(int slot, String desc) { constantField(slot, desc); }

    /** Loads the static final field of a class-data entry, cast to {@code desc}. */
    private void constantField(int slot, String desc) {
        mv.visitFieldInsn(GETSTATIC, ModuleCompiler.CLASS_NAME, ClassData.field(slot), "Ljava/lang/Object;");
        if (!desc.equals("Ljava/lang/Object;")) mv.visitTypeInsn(CHECKCAST, org.objectweb.asm.Type.getType(desc).getInternalName());
    }

    /** Loads a class-data entry that holds a {@link ModuleCompiler.TypedHandleKey} and leaves its handle. */
    void lateConstant(int slot, String desc, String handleClass) {
        constantField(slot, desc);
        mv.visitTypeInsn(CHECKCAST, "dev/finch/vm/compile/ModuleCompiler$TypedHandleKey");
        mv.visitMethodInsn(INVOKEVIRTUAL, "dev/finch/vm/compile/ModuleCompiler$TypedHandleKey", "handle", "()Ljava/lang/invoke/MethodHandle;", false);
    }

    void literal(Literal lit) {
        boolean handled = switch (lit.kind()) {
            case INT -> { mv.visitLdcInsn(((Literal.IntLit) lit).value()); yield true; }
            case FLOAT -> { mv.visitLdcInsn(((Literal.FloatLit) lit).value()); yield true; }
            case BOOL -> { mv.visitInsn(((Literal.BoolLit) lit).value() ? ICONST_1 : ICONST_0); yield true; }
            case STRING -> { string(((Literal.StringLit) lit).value()); yield true; }
            case UNIT -> { mv.visitFieldInsn(GETSTATIC, "dev/finch/vm/value/Unit", "INSTANCE", "Ldev/finch/vm/value/Unit;"); yield true; }
            case SYMBOL -> { classConstant(new dev.finch.vm.value.Symbol(((Literal.SymbolLit) lit).name()), "Ljava/lang/Object;"); yield true; }
            case JSON -> { classConstant(dev.finch.vm.runtime.Rt.parseJsonLiteral(((Literal.JsonLit) lit).text()), "Ljava/lang/Object;"); yield true; }
        };
    }

    CompiledWord persisted(String name) { return owner.persisted(name); }

    CheckedWord moduleWord(String name) { return owner.moduleWords.get(name); }

    String methodNameOf(String word) { return owner.methodNames.get(word); }

}
