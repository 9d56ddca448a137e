package dev.finch.vm;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.engine.VmState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Builds checked IR by hand for VM unit tests, tracking the stack row (the tests state every type themselves, so
 * the VM is tested independently of the verifier).
 */
final class Build {
    static final Origin O = Origin.of("test", 1, 1);

    final List<Node> nodes = new ArrayList<>();
    List<Type> row;
    private final List<Type> in;

    Build(List<Type> in) { this.in = List.copyOf(in); this.row = new ArrayList<>(in); }

    static Type.Fn sig(String s) { return TypeSyntax.parseSignature(s); }

    private List<Type> snap() { return List.copyOf(row); }

    Build pushInt(long v) { return push(new Literal.IntLit(v)); }

    Build pushStr(String v) { return push(new Literal.StringLit(v)); }

    Build pushBool(boolean v) { return push(new Literal.BoolLit(v)); }

    Build push(Literal l) {
        List<Type> before = snap();
        row.add(l.type());
        nodes.add(new Checked.PushNode(new Instr.Push(l, O), l.type(), before, snap()));
        return this;
    }

    /** A vocabulary word instantiated as {@code inst}, at the overload whose declared inputs fit it. */
    Build op(String name, String inst, Immediate... imms) {
        Type.Fn f = sig(inst);
        WordSpec w = VOCABULARY.word(name).orElseThrow(() -> new IllegalArgumentException("no word " + name));
        String id = w.overloads().get(0).id();
        for (var o : w.overloads()) {
            List<Type> declared = o.signature().ins();
            boolean fits = declared.size() == f.ins().size();
            for (int i = 0; fits && i < declared.size(); i++) fits = declared.get(i) instanceof Type.Var || declared.get(i).equals(f.ins().get(i));
            if (fits) { id = o.id(); break; }
        }
        return node(new Instr.Call(name, List.of(imms), O), new Checked.Target.Builtin(name, id), f, WordSpec.maySuspend(f));
    }

    /** A call of one exact overload, instantiated as {@code inst}. */
    Build call(dev.finch.vm.word.Impl impl, Type.Fn inst) {
        return node(new Instr.Call(impl.word().name(), O), new Checked.Target.Builtin(impl.word().name(), impl.overload().id()), inst,
                WordSpec.maySuspend(inst));
    }

    /** Finch's words, as every test session sees them. */
    static final Vocabulary VOCABULARY = VmState.EMPTY.library().vocabulary();

    Build word(String name, Type.Fn sig, boolean suspends) {
        return node(new Instr.Call(name, O), new Checked.Target.Word(name), sig, suspends);
    }

    private Build node(Instr.Call call, Checked.Target t, Type.Fn f, boolean suspends) {
        List<Type> before = snap();
        for (int i = 0; i < f.ins().size(); i++) row.remove(row.size() - 1);
        row.addAll(f.outs());
        nodes.add(new Checked.CallNode(call, t, f, suspends, before, snap()));
        return this;
    }

    Build ifElse(Consumer<Build> then, Consumer<Build> otherwise) {
        List<Type> before = snap();
        List<Type> start = new ArrayList<>(before.subList(0, before.size() - 1));
        Build a = new Build(start);
        then.accept(a);
        Build b = new Build(start);
        otherwise.accept(b);
        row = new ArrayList<>(a.row);
        nodes.add(new Checked.IfNode(new Instr.If(Block.EMPTY, Block.EMPTY, O), a.block(), b.block(), before, snap()));
        return this;
    }

    Build loop(Consumer<Build> test, Consumer<Build> body) {
        List<Type> before = snap();
        Build t = new Build(before);
        test.accept(t);
        Build b = new Build(before);
        body.accept(b);
        nodes.add(new Checked.LoopNode(new Instr.Loop(Block.EMPTY, Block.EMPTY, O), t.block(), b.block(), before, snap()));
        return this;
    }

    Build ifSome(Type payload, Consumer<Build> some, Consumer<Build> none) {
        List<Type> before = snap();
        List<Type> start = new ArrayList<>(before.subList(0, before.size() - 1));
        List<Type> withPayload = new ArrayList<>(start);
        withPayload.add(payload);
        Build a = new Build(withPayload);
        some.accept(a);
        Build b = new Build(start);
        none.accept(b);
        row = new ArrayList<>(a.row);
        nodes.add(new Checked.IfSomeNode(new Instr.IfSome(Block.EMPTY, Block.EMPTY, O), payload, a.block(), b.block(), before, snap()));
        return this;
    }

    Build list(Type element, Consumer<Build> elements) {
        List<Type> before = snap();
        Build e = new Build(before);
        elements.accept(e);
        int count = e.row.size() - before.size();
        row.add(Type.list(element));
        nodes.add(new Checked.ListNode(new Instr.ListLit(Block.EMPTY, O), e.block(), element, count, before, snap()));
        return this;
    }

    CheckedBlock block() { return new CheckedBlock(nodes, in, row); }

    CheckedWord asWord(String name, Type.Fn sig, boolean suspends) {
        return new CheckedWord(name, sig, Map.of(), List.of(), block(), suspends, O);
    }

    static Checked.CheckedModule module(CheckedWord main, CheckedWord... words) {
        Module src = new Module("test", "forth", List.of(), Block.EMPTY);
        return new Checked.CheckedModule(src, List.of(words), main, new TreeSet<Capability>(), Map.of());
    }

    static CheckedWord main(Build b, boolean suspends) {
        Type.Fn sig = new Type.Fn(b.in, b.row, new TreeSet<>(), suspends ? java.util.Optional.of(new Type.Yields(Type.INT, Type.UNIT)) : java.util.Optional.empty());
        return new CheckedWord("main", sig, Map.of(), List.of(), b.block(), suspends, O);
    }

    static boolean known(String word) { return VOCABULARY.word(word).isPresent(); }
}
