package dev.finch.ir.checked;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The verifier's output: the IR annotated with ground types. Every node records the full stack row before and
 * after it (bottom to top), so a backend allocates storage per depth without re-deriving anything. Produced only
 * by the verifier; consumed by the VM.
 */
public final class Checked {
    private Checked() { }

    private static List<Type> immutable(List<Type> row) { return row instanceof Row ? row : List.copyOf(row); }

    /** The blocks directly inside {@code n}, in order (a closure's body is a separate word and is not included). */
    public static List<CheckedBlock> children(Node n) {
        return switch (n.kind()) {
            case IF -> { IfNode x = (IfNode) n; yield List.of(x.then(), x.otherwise()); }
            case IF_SOME -> { IfSomeNode x = (IfSomeNode) n; yield List.of(x.some(), x.none()); }
            case IF_OK -> { IfOkNode x = (IfOkNode) n; yield List.of(x.ok(), x.err()); }
            case LOOP -> { LoopNode x = (LoopNode) n; yield List.of(x.test(), x.body()); }
            case UNTIL -> List.of(((UntilNode) n).body());
            case CASE -> {
                CaseNode x = (CaseNode) n;
                List<CheckedBlock> out = new java.util.ArrayList<>();
                for (CheckedArm arm : x.arms()) out.add(arm.body());
                x.otherwise().ifPresent(out::add);
                yield out;
            }
            case LIST -> List.of(((ListNode) n).elements());
            case MAP -> List.of(((MapNode) n).entries());
            case RECORD -> ((RecordNode) n).values();
            case PUSH, CALL, QUOTE, CLOSURE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> List.of();
        };
    }

    /**
     * A verified submission. {@code main} takes the session stack ({@code main.signature().ins()}) and leaves the
     * new stack ({@code outs()}). {@code inferredCapabilities} is the transitive requirement set (the preview).
     */
    public record CheckedModule(Module source, List<CheckedWord> words, CheckedWord main,
                                SortedSet<Capability> inferredCapabilities, Map<String, Type> newConstants) {
        public CheckedModule { words = List.copyOf(words); newConstants = Map.copyOf(newConstants); }
    }

    /**
     * A verified word (or the top-level program, or a closure body). {@code locals} gives each local's type.
     * {@code captures} lists the enclosing locals a closure body reads (empty for words). {@code suspends} is
     * true when it may suspend (transitively reaches yield or a host boundary): such code gets resume points.
     */
    public record CheckedWord(String name, Type.Fn signature, Map<String, Type> locals, List<String> captures,
                              CheckedBlock body, boolean suspends, Origin origin) {
        public CheckedWord { locals = Map.copyOf(locals); captures = List.copyOf(captures); }
    }

    /** A verified block with the rows at its entry and exit (a {@link Row} is kept as it is: it is immutable and shared). */
    public record CheckedBlock(List<Node> nodes, List<Type> in, List<Type> out) {
        public CheckedBlock { nodes = List.copyOf(nodes); in = immutable(in); out = immutable(out); }
    }

    /** What a call resolves to. */
    public sealed interface Target {
        /** The discriminator for exhaustive switches (Java 17 has no pattern switch). */
        enum Kind { BUILTIN, WORD, CONSTANT_REF }

        Kind kind();

        /** The word, definition or constant named. */
        String name();

        /** A vocabulary word and the stable id of the overload the call chose (the VM binds its implementation to it). */
        record Builtin(String name, String overload) implements Target {
            @Override public Kind kind() { return Kind.BUILTIN; }
        }

        /** A definition of this module or persisted in the session dictionary. */
        record Word(String name) implements Target {
            @Override public Kind kind() { return Kind.WORD; }
        }

        /** A constant in the session dictionary or defined earlier in this module. */
        record ConstantRef(String name) implements Target {
            @Override public Kind kind() { return Kind.CONSTANT_REF; }
        }
    }

    /** An annotated instruction: one node per instruction, of the instruction's kind. */
    public sealed interface Node {
        Instr instr();

        /** The discriminator for exhaustive switches: the kind of the instruction this node annotates. */
        default Instr.Kind kind() { return instr().kind(); }

        List<Type> before();

        List<Type> after();

        default Origin origin() { return instr().origin(); }
    }

    public record PushNode(Instr.Push instr, Type type, List<Type> before, List<Type> after) implements Node { }

    /**
     * A call with its resolved target and its signature instantiated at this site (ground types), including
     * the immediates' effect (e.g. the concrete variant or record type).
     */
    public record CallNode(Instr.Call instr, Target target, Type.Fn instantiated, boolean suspends,
                           List<Type> before, List<Type> after) implements Node { }

    public record IfNode(Instr.If instr, CheckedBlock then, CheckedBlock otherwise, List<Type> before, List<Type> after) implements Node { }

    public record IfSomeNode(Instr.IfSome instr, Type payload, CheckedBlock some, CheckedBlock none, List<Type> before, List<Type> after) implements Node { }

    public record IfOkNode(Instr.IfOk instr, Type okType, Type errType, CheckedBlock ok, CheckedBlock err, List<Type> before, List<Type> after) implements Node { }

    public record LoopNode(Instr.Loop instr, CheckedBlock test, CheckedBlock body, List<Type> before, List<Type> after) implements Node { }

    public record UntilNode(Instr.Until instr, CheckedBlock body, List<Type> before, List<Type> after) implements Node { }

    public record CaseNode(Instr.Case instr, List<CheckedArm> arms, Optional<CheckedBlock> otherwise, List<Type> before, List<Type> after) implements Node {
        public CaseNode { arms = List.copyOf(arms); }
    }

    public record CheckedArm(long value, CheckedBlock body) { }

    /** {@code count} values of {@code element} pushed by {@code elements} become one list. */
    public record ListNode(Instr.ListLit instr, CheckedBlock elements, Type element, int count, List<Type> before, List<Type> after) implements Node { }

    /** {@code count} key/value pairs pushed by {@code entries} become one map. */
    public record MapNode(Instr.MapLit instr, CheckedBlock entries, Type key, Type value, int count, List<Type> before, List<Type> after) implements Node { }

    /** The field blocks in the instruction's order; {@code type} is the record type (fields sorted). */
    public record RecordNode(Instr.RecordLit instr, List<CheckedBlock> values, Type.RecordT type, List<Type> before, List<Type> after) implements Node {
        public RecordNode { values = List.copyOf(values); }
    }

    /** An execution token for {@code target} with its signature. */
    public record QuoteNode(Instr.Quote instr, Target target, Type.Fn type, List<Type> before, List<Type> after) implements Node { }

    /** A closure: its body is a word whose {@code captures} are read from the enclosing locals when it is made. */
    public record ClosureNode(Instr.Closure instr, CheckedWord body, List<Type> before, List<Type> after) implements Node { }

    public record LocalStoreNode(Instr.LocalStore instr, Type type, List<Type> before, List<Type> after) implements Node { }

    public record LocalLoadNode(Instr.LocalLoad instr, Type type, List<Type> before, List<Type> after) implements Node { }

    /** {@code inspected} is the popped result; an err returns {@code result<R,E>} from the enclosing function. */
    public record PropagateNode(Instr.Propagate instr, Type.ResultT inspected, Type.ResultT functionResult, List<Type> before, List<Type> after) implements Node { }

    public record ConstantNode(Instr.Constant instr, Type type, List<Type> before, List<Type> after) implements Node { }
}
