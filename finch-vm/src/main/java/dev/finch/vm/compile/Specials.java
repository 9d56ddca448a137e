package dev.finch.vm.compile;

import static org.objectweb.asm.Opcodes.*;

import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Calls;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.Rt;
import dev.finch.vm.value.Unit;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.List;
import org.objectweb.asm.MethodVisitor;

/**
 * The words typed by a dedicated verifier rule that need their immediates (a type, a tag, a field) or the call
 * site's whole signature to run: each constant declares its word and implements it in both tiers, the compiled
 * emitter and the interpreter's step, side by side. The declared signature is the documented shape; the verifier's
 * rule for the constant's {@link Typing} gives each call its real one.
 */
public enum Specials implements dev.finch.vm.word.SpecialWord {
    @Word(name = "execute", category = Category.CONTROL, typing = Typing.EXECUTE,
            doc = "Call the execution token or closure on top with the values below it; in Lisp (execute f x …), the same as (f x …).")
    @Overload(sig = "a xt -> b")
    EXECUTE(Typing.EXECUTE) {
        @Override void emit(MethodCompiler mc, CallNode n) {
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
                NodeEmitter.boxRange(mc, n.before(), base, k);
                mv.visitMethodInsn(INVOKESTATIC, "dev/finch/vm/runtime/Calls", n.suspends() ? "executeResumable" : "execute",
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

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            Type.Fn f = n.instantiated();
            int k = f.ins().size() - 1;
            Object fn = s[sp - 1];
            Object[] args = new Object[k];
            System.arraycopy(s, sp - 1 - k, args, 0, k);
            Object r = n.suspends() ? Calls.executeResumable(ctx, depth + 1, fn, args) : Calls.execute(ctx, depth + 1, fn, args);
            if (ctx.suspending) return sp;
            int base = sp - 1 - k;
            int outs = f.outs().size();
            if (outs == 1) s[base] = r;
            else for (int i = 0; i < outs; i++) s[base + i] = ctx.ro()[i];
            return base + outs;
        }
    },

    @Word(name = "variant", category = Category.VARIANT, typing = Typing.VARIANT,
            doc = "variant<T,tag>: build a value of closed variant T with tag (consuming its payload, if it has one).")
    @Overload(sig = "a -> v")
    VARIANT(Typing.VARIANT) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            String tag = immediateName(n, 1);
            boolean payload = variantType(n).tags().get(tag).isPresent();
            int base = n.before().size() - (payload ? 1 : 0);
            mc.string(tag);
            if (payload) NodeEmitter.load(mc, n.before(), base, Kind.A);
            else mc.mv.visitFieldInsn(GETSTATIC, "dev/finch/vm/value/Unit", "INSTANCE", "Ldev/finch/vm/value/Unit;");
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "variant", "(Ljava/lang/String;Ljava/lang/Object;)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            String tag = immediateName(n, 1);
            if (variantType(n).tags().get(tag).isPresent()) { s[sp - 1] = Rt.variant(tag, s[sp - 1]); return sp; }
            s[sp] = Rt.variant(tag, Unit.INSTANCE);
            return sp + 1;
        }
    },

    @Word(name = "variant-get", category = Category.VARIANT, typing = Typing.VARIANT_GET,
            doc = "variant-get<tag>: the payload if the value has that tag (some(unit) for a payload-free tag), else none.")
    @Overload(sig = "v -> option<a>")
    VARIANT_GET(Typing.VARIANT_GET) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            mc.string(immediateName(n, 0));
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "variantGet", "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            s[sp - 1] = Rt.variantGet(s[sp - 1], immediateName(n, 0));
            return sp;
        }
    },

    @Word(name = "empty-list", category = Category.LIST, typing = Typing.EMPTY_LIST,
            doc = "empty-list<T>: the empty list of T (Lisp: (empty-list T)).")
    @Overload(sig = "-> list<a>")
    EMPTY_LIST(Typing.EMPTY_LIST) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "emptyList", "()Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), n.before().size());
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            s[sp] = Rt.emptyList();
            return sp + 1;
        }
    },

    @Word(name = "empty-map", category = Category.MAP, typing = Typing.EMPTY_MAP,
            doc = "empty-map<K,V>: the empty map from K to V (Lisp: (empty-map K V)).")
    @Overload(sig = "-> map<k,v>")
    EMPTY_MAP(Typing.EMPTY_MAP) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "emptyMap", "()Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), n.before().size());
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            s[sp] = Rt.emptyMap();
            return sp + 1;
        }
    },

    @Word(name = "record-get", category = Category.RECORD, typing = Typing.RECORD_GET,
            doc = "\"field\" record-get: the field's value as some, verified against the record type.")
    @Overload(sig = "r -> option<a>")
    RECORD_GET(Typing.RECORD_GET) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 1;
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            mc.pushInt(fieldIndex((Type.RecordT) unfolded(n.before().get(base)), n));
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "recordGet", "(Ljava/lang/Object;I)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            Type.RecordT rt = (Type.RecordT) unfolded(n.before().get(n.before().size() - 1));
            s[sp - 1] = Rt.recordGet(s[sp - 1], fieldIndex(rt, n));
            return sp;
        }
    },

    @Word(name = "record-set", category = Category.RECORD, typing = Typing.RECORD_SET,
            doc = "value \"field\" record-set: a new record with the field replaced (same type).")
    @Overload(sig = "r a -> r")
    RECORD_SET(Typing.RECORD_SET) {
        @Override void emit(MethodCompiler mc, CallNode n) {
            int base = n.before().size() - 2;
            NodeEmitter.load(mc, n.before(), base, Kind.A);
            NodeEmitter.load(mc, n.before(), base + 1, Kind.A);
            mc.pushInt(fieldIndex((Type.RecordT) unfolded(n.before().get(base)), n));
            mc.mv.visitMethodInsn(INVOKESTATIC, MethodCompiler.RT, "recordSet", "(Ljava/lang/Object;Ljava/lang/Object;I)Ljava/lang/Object;", false);
            NodeEmitter.store(mc, Kind.A, n.after(), base);
        }

        @Override int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp) {
            Type.RecordT rt = (Type.RecordT) unfolded(n.before().get(n.before().size() - 2));
            s[sp - 2] = Rt.recordSet(s[sp - 2], s[sp - 1], fieldIndex(rt, n));
            return sp - 1;
        }
    };

    private final Typing typing;

    Specials(Typing typing) { this.typing = typing; }

    /** The verifier rule that types this word's calls. */
    public Typing typing() { return typing; }

    /** Emits a verified call of this word. */
    abstract void emit(MethodCompiler mc, CallNode n);

    /** Runs a verified call on the interpreter's boxed stack; answers the new stack pointer. */
    abstract int interpret(Ctx ctx, int depth, CallNode n, Object[] s, int sp);

    private static String immediateName(CallNode n, int i) { return ((Immediate.NameArg) n.instr().immediates().get(i)).name(); }

    private static Type.VariantT variantType(CallNode n) { return (Type.VariantT) unfolded(((Immediate.TypeArg) n.instr().immediates().get(0)).type()); }

    /** A recursive type as its structure (one level unfolded); any other type as it is. */
    private static Type unfolded(Type t) {
        while (t instanceof Type.Named named && named.isRecursive()) t = named.unfold();
        return t;
    }

    private static int fieldIndex(Type.RecordT rt, CallNode n) {
        return List.copyOf(rt.fields().keySet()).indexOf(immediateName(n, 0));
    }
}
