package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.vm.word.HostCalls;
import dev.finch.vm.word.Impl;
import dev.finch.vm.word.Library;
import dev.finch.vm.runtime.Calls;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.Frame;
import dev.finch.vm.runtime.Rt;
import dev.finch.vm.runtime.Traps;
import dev.finch.vm.value.Closure;
import dev.finch.vm.value.Unit;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The interpreter tier: runs one verified word over a boxed value stack, from its {@link Linear} form. Used for
 * cold one-shot code (a top-level program without loops, where generating a class would cost more than running)
 * and for functions too large for one JVM method. It follows the compiled tier's conventions exactly — the same
 * runtime helpers, the same frames for suspension, the same result registers — so the tiers call each other
 * freely and a differential test runs every program through both.
 */
final class Interpreter implements ModuleCompiler.Main {
    /** How an interpreted word reaches the words it calls. */
    interface Link {
        /** A compiled or interpreted callee by name. */
        Callee callee(String name);

        /** The library whose words the module calls. */
        Library library();
    }

    /** A callee: interpreted directly, or a compiled method through its uniform invoker. */
    record Callee(Interpreter interpreted, MethodHandle uniform, Type.Fn sig) { }

    /** The pc after an op that suspended the frame (past every op, so the loop ends; the frame is then on the context). */
    private static final int SUSPENDED = Integer.MAX_VALUE;

    /**
     * {@link #invokeUniform} as a handle, made when an interpreted definition or closure is first called through one: a
     * fresh JVM's first top-level program, run by the interpreter directly, spins no handle class for it.
     */
    private static final class Uniform {
        static final MethodHandle UNIFORM;

        static {
            try {
                UNIFORM = MethodHandles.lookup().findVirtual(Interpreter.class, "invokeUniform",
                        MethodType.methodType(Object.class, Ctx.class, int.class, Object[].class, Object[].class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    final CheckedWord word;
    private final Linear.Op[] code;
    private final Map<String, Integer> localIndex = new TreeMap<>();
    private final Link link;
    private final int stackSize;

    Interpreter(CheckedWord word, Link link) {
        this.word = word;
        this.code = Linear.flatten(word.body());
        this.link = link;
        int i = 0;
        for (String n : new TreeMap<>(word.locals()).keySet()) localIndex.put(n, i++);
        int max = word.signature().ins().size() + word.body().out().size();
        for (Linear.Op op : code) max = Math.max(max, Math.max(op.node.before().size(), op.node.after().size()));
        this.stackSize = max + 1;
    }


    /** The uniform invoker {@code (Ctx, int, Object[] captures, Object[] args) Object} of this word. */
    MethodHandle uniform() { return Uniform.UNIFORM.bindTo(this); }

    /** A handle with the compiled calling convention of this word's signature (no captures). */
    MethodHandle typed() {
        MethodHandle mh = MethodHandles.insertArguments(uniform(), 2, (Object) null);
        int n = word.signature().ins().size();
        mh = mh.asCollector(Object[].class, n);
        return mh.asType(ModuleCompiler.methodType(word.signature(), false));
    }

    /** Runs as the top-level program: the stack comes from and goes to the context. */
    @Override public void run(Ctx ctx) {
        Object[] out = call(ctx, 0, null, ctx.stackIn);
        if (out != null) ctx.stackOut = out;
    }

    /** The compiled convention: one output returned boxed; several written to the typed registers. */
    Object invokeUniform(Ctx ctx, int depth, Object[] captures, Object[] args) {
        Object[] out = call(ctx, depth, captures, args);
        if (out == null) return null;
        List<Type> outs = word.signature().outs();
        if (outs.size() == 1) return out[0];
        for (int i = 0; i < outs.size(); i++) {
            Type t = outs.get(i);
            if (t == Type.INT) ctx.rl()[i] = (Long) out[i];
            else if (t == Type.BOOL) ctx.rl()[i] = ((Boolean) out[i]) ? 1 : 0;
            else if (t == Type.FLOAT) ctx.rd()[i] = (Double) out[i];
            else ctx.ro()[i] = out[i];
        }
        return null;
    }

    /** Runs the word; returns its outputs, or null when it suspended (its frame is then on the context). */
    Object[] call(Ctx ctx, int depth, Object[] captures, Object[] args) {
        Object[] stack = new Object[stackSize];
        Object[] locals = new Object[localIndex.size()];
        int sp;
        int pc;
        if (ctx.resuming) {
            Frame f = ctx.popFrame();
            Object[] v = f.values();
            sp = v.length - locals.length;
            System.arraycopy(v, 0, stack, 0, sp);
            System.arraycopy(v, sp, locals, 0, locals.length);
            pc = f.point();
        } else {
            if (depth > ctx.maxDepth) throw Traps.tooDeep(ctx, word.name(), word.origin());
            if (--ctx.fuel < 0) ctx.refuel();
            sp = args.length;
            System.arraycopy(args, 0, stack, 0, sp);
            if (captures != null) {
                for (int i = 0; i < word.captures().size(); i++) locals[localIndex.get(word.captures().get(i))] = captures[i];
            }
            pc = 0;
        }
        while (pc < code.length) {
            Linear.Op op = code[pc];
            // Each op yields the next pc: pc + 1, a jump target, code.length to return the stack, or SUSPENDED.
            pc = switch (op.code) {
                case PUSH -> { stack[sp++] = literal((Checked.PushNode) op.node); yield pc + 1; }
                case CALL -> {
                    sp = call(ctx, depth, (CallNode) op.node, stack, sp);
                    if (ctx.suspending) { suspend(ctx, pc, stack, op.node.before().size(), locals); yield SUSPENDED; }
                    yield pc + 1;
                }
                case JUMP -> op.target;
                case JUMP_IF_FALSE -> (Boolean) stack[--sp] ? pc + 1 : op.target;
                case IF_SOME_ELSE -> {
                    Object o = stack[--sp];
                    if (!Rt.isSome(o)) yield op.target;
                    stack[sp++] = Rt.optionValue(o);
                    yield pc + 1;
                }
                case IF_OK_ELSE -> {
                    Object r = stack[sp - 1];
                    stack[sp - 1] = Rt.resultValue(r);
                    yield Rt.isOk(r) ? pc + 1 : op.target;
                }
                case FUEL -> { if (--ctx.fuel < 0) ctx.refuel(); yield pc + 1; }
                case CASE_ARM -> {
                    if ((Long) stack[sp - 1] != op.value) yield op.target;
                    sp--;
                    yield pc + 1;
                }
                case POP -> { sp--; yield pc + 1; }
                case MAKE_LIST -> {
                    int n = (int) op.value;
                    Object[] items = new Object[n];
                    System.arraycopy(stack, sp - n, items, 0, n);
                    sp -= n;
                    stack[sp++] = Rt.listOf(items);
                    yield pc + 1;
                }
                case MAKE_MAP -> {
                    int n = 2 * (int) op.value;
                    Object[] kv = new Object[n];
                    System.arraycopy(stack, sp - n, kv, 0, n);
                    sp -= n;
                    stack[sp++] = Rt.mapOf(kv);
                    yield pc + 1;
                }
                case MAKE_RECORD -> {
                    int[] perm = (int[]) op.extra;
                    Object[] values = new Object[perm.length];
                    for (int i = 0; i < perm.length; i++) values[perm[i]] = stack[sp - perm.length + i];
                    sp -= perm.length;
                    stack[sp++] = Rt.record(values);
                    yield pc + 1;
                }
                case QUOTE -> { stack[sp++] = quote((Checked.QuoteNode) op.node, link); yield pc + 1; }
                case CLOSURE -> { stack[sp++] = closure((Checked.ClosureNode) op.node, locals); yield pc + 1; }
                case STORE -> { locals[localIndex.get(((Checked.LocalStoreNode) op.node).instr().name())] = stack[--sp]; yield pc + 1; }
                case LOAD -> { stack[sp++] = locals[localIndex.get(((Checked.LocalLoadNode) op.node).instr().name())]; yield pc + 1; }
                case PROPAGATE -> {
                    Object r = stack[sp - 1];
                    if (Rt.isOk(r)) { stack[sp - 1] = Rt.resultValue(r); yield pc + 1; }
                    // An err returns at once: the function's only output is the err itself.
                    stack[0] = r;
                    sp = 1;
                    yield code.length;
                }
                case DEFINE_CONST -> { Rt.defineConstant(ctx, ((Checked.ConstantNode) op.node).instr().name(), stack[--sp]); yield pc + 1; }
            };
        }
        if (pc == SUSPENDED) return null;
        Object[] out = new Object[sp];
        System.arraycopy(stack, 0, out, 0, sp);
        return out;
    }

    private void suspend(Ctx ctx, int pc, Object[] stack, int rowSize, Object[] locals) {
        Object[] values = new Object[rowSize + locals.length];
        System.arraycopy(stack, 0, values, 0, rowSize);
        System.arraycopy(locals, 0, values, rowSize, locals.length);
        List<Type> types = new java.util.ArrayList<>(code[pc].node.before().subList(0, rowSize));
        for (String n : localIndex.keySet()) types.add(word.locals().get(n));
        ctx.pushFrame(new Frame(word.name(), pc, values, types));
    }

    private static Object literal(Checked.PushNode n) {
        var lit = n.instr().literal();
        return switch (lit.kind()) {
            case INT -> ((Literal.IntLit) lit).value();
            case FLOAT -> ((Literal.FloatLit) lit).value();
            case BOOL -> ((Literal.BoolLit) lit).value();
            case STRING -> ((Literal.StringLit) lit).value();
            case UNIT -> Unit.INSTANCE;
            case SYMBOL -> new dev.finch.vm.value.Symbol(((Literal.SymbolLit) lit).name());
            case JSON -> Rt.parseJsonLiteral(((Literal.JsonLit) lit).text());
        };
    }

    /** Executes one call node on the stack; returns the new stack pointer. */
    private int call(Ctx ctx, int depth, CallNode n, Object[] stack, int sp) {
        Checked.Target t = n.target();
        return switch (t.kind()) {
            case CONSTANT_REF -> {
                stack[sp] = Rt.constant(ctx, t.name());
                yield sp + 1;
            }
            case WORD -> word(ctx, depth, link.callee(t.name()), stack, sp);
            case BUILTIN -> builtin(ctx, depth, n, link.library().impl(((Checked.Target.Builtin) t).overload()), stack, sp);
        };
    }

    /** Calls a module or session definition on the stack; returns the new stack pointer. */
    private static int word(Ctx ctx, int depth, Callee callee, Object[] stack, int sp) {
        int k = callee.sig().ins().size();
        Object[] args = new Object[k];
        System.arraycopy(stack, sp - k, args, 0, k);
        sp -= k;
        Object[] out;
        if (callee.interpreted() != null) {
            out = callee.interpreted().call(ctx, depth + 1, null, args);
            if (out == null) return sp + k;
        } else {
            Object r = invoke(callee.uniform(), ctx, depth + 1, args);
            if (ctx.suspending) return sp + k;
            out = outputs(ctx, callee.sig(), r);
        }
        System.arraycopy(out, 0, stack, sp, out.length);
        return sp + out.length;
    }

    static Object invoke(MethodHandle uniform, Ctx ctx, int depth, Object[] args) {
        try {
            return uniform.invokeExact(ctx, depth, (Object[]) null, args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The outputs of a compiled callee that returned {@code r} (one output) or wrote its registers. */
    static Object[] outputs(Ctx ctx, Type.Fn sig, Object r) {
        List<Type> outs = sig.outs();
        if (outs.size() == 1) return new Object[] {r};
        Object[] out = new Object[outs.size()];
        for (int i = 0; i < out.length; i++) {
            Type t = outs.get(i);
            if (t == Type.INT) out[i] = ctx.rl()[i];
            else if (t == Type.BOOL) out[i] = ctx.rl()[i] != 0;
            else if (t == Type.FLOAT) out[i] = ctx.rd()[i];
            else out[i] = ctx.ro()[i];
        }
        return out;
    }

    /** The execution token quotation {@code n} makes, run interpreted, its callees linked by {@code link}. */
    static Closure quote(Checked.QuoteNode n, Link link) {
        Checked.Target t = n.target();
        return switch (t.kind()) {
            case WORD -> {
                Callee c = link.callee(t.name());
                MethodHandle inv = c.interpreted() != null ? c.interpreted().uniform() : c.uniform();
                yield new Closure(inv, c.sig(), t.name(), n);
            }
            case BUILTIN -> {
                Checked.Target.Builtin b = (Checked.Target.Builtin) t;
                Type.Fn sig = n.type();
                boolean suspends = dev.finch.ir.vocab.WordSpec.maySuspend(sig);
                CallNode call = new CallNode(new dev.finch.ir.instr.Instr.Call(b.name(), n.origin()), b, sig, suspends, sig.ins(), sig.outs());
                CheckedWord adapter = new CheckedWord("['] " + b.name(), sig, Map.of(), List.of(),
                        new Checked.CheckedBlock(List.of(call), sig.ins(), sig.outs()), suspends, n.origin());
                yield new Closure(new Interpreter(adapter, link).uniform(), sig, b.name(), n);
            }
            case CONSTANT_REF -> throw new IllegalStateException("a constant has no execution token (the verifier refuses ['] " + t.name() + ")");
        };
    }

    private Object closure(Checked.ClosureNode n, Object[] locals) {
        CheckedWord body = n.body();
        Object[] caps = new Object[body.captures().size()];
        for (int i = 0; i < caps.length; i++) caps[i] = locals[localIndex.get(body.captures().get(i))];
        return new Closure(new Interpreter(body, link).uniform(), caps, body.signature(), "closure@" + n.origin(), body);
    }

    /**
     * A verified call of a vocabulary word on the boxed stack, from its implementation in the run's library: a
     * {@link Specials} word interprets itself, a host-installed word goes through {@code HostCalls}, and every other
     * word — intrinsics included — runs its declared method, the reference implementation the compiled tier agrees with.
     */
    static int builtin(Ctx ctx, int depth, CallNode n, Impl impl, Object[] s, int sp) {
        if (impl.special() != null) return ((Specials) impl.special()).interpret(ctx, depth, n, s, sp);
        Type.Fn decl = impl.overload().signature();
        int k = decl.ins().size();
        Object[] args = new Object[k];
        System.arraycopy(s, sp - k, args, 0, k);
        Object r = impl.host() ? HostCalls.call(ctx, depth + 1, impl, n.instantiated(), n.origin(), args)
                : impl.invoke(ctx, depth + 1, n.instantiated(), n.origin(), args);
        if (ctx.suspending) return sp;
        sp -= k;
        int outs = decl.outs().size();
        if (outs == 1) {
            s[sp++] = r;
        } else if (outs > 1) {
            Object[] many = (Object[]) r;
            System.arraycopy(many, 0, s, sp, outs);
            sp += outs;
        }
        return sp;
    }
}
