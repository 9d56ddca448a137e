package dev.finch.ir.instr;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Optional;

/**
 * One instruction of the typed stack IR. The set is closed and small: words are {@link Call}s to named operations
 * of the vocabulary, not new node kinds. Control flow is structured (blocks nest; there are no labels or jumps),
 * so one pass verifies it and it maps directly to JVM bytecode. Every instruction keeps its source origin and has
 * one canonical Co-Forth spelling (see {@code dev.finch.ir.print.CoForthPrinter}).
 */
public sealed interface Instr {

    /**
     * The discriminator for exhaustive switches (Java 17 has no pattern switch). Every traversal switches over it
     * (or over {@code Checked.Node#kind()}, the same enum) with a switch expression and no {@code default}, listing
     * the kinds it has nothing to do for, so a new kind does not compile until every traversal handles it. Where
     * the arms are statements the expression yields {@code true} into a {@code handled} flag.
     */
    enum Kind { PUSH, CALL, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, CLOSURE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT }

    Kind kind();

    Origin origin();

    /** Pushes one literal value. Co-Forth: {@code 42 1.5 "text" true unit 'sym {"json":1}}. */
    record Push(Literal literal, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.PUSH; }
    }

    /**
     * Calls a vocabulary word, a persisted or module definition, or reads a constant. {@code immediates} are the
     * static arguments some words take ({@code variant<T,tag>}, {@code empty-list<T>}, {@code variant-get<tag>},
     * and the literal field name of {@code record-get}/{@code record-set}).
     */
    record Call(String word, List<Immediate> immediates, Origin origin) implements Instr {
        public Call { immediates = List.copyOf(immediates); }
        public Call(String word, Origin origin) { this(word, List.of(), origin); }
        @Override public Kind kind() { return Kind.CALL; }
    }

    /** Pops a bool. Co-Forth: {@code if … else … then}; an absent else is an empty block. */
    record If(Block then, Block otherwise, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.IF; }
    }

    /** Pops an {@code option<T>}; the some edge starts with T pushed. Co-Forth: {@code if-some … else … then}. */
    record IfSome(Block some, Block none, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.IF_SOME; }
    }

    /** Pops a {@code result<T,E>}; the ok edge starts with T, the err edge with E. Co-Forth: {@code if-ok … else … then}. */
    record IfOk(Block ok, Block err, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.IF_OK; }
    }

    /** {@code begin test while body repeat}: test leaves a bool; the row at the loop head is invariant. */
    record Loop(Block test, Block body, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.LOOP; }
    }

    /** {@code begin body until}: body leaves a bool; true ends the loop. */
    record Until(Block body, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.UNTIL; }
    }

    /** Pops an int and runs the first arm whose value equals it, else {@code otherwise} (no fallthrough). */
    record Case(List<Arm> arms, Optional<Block> otherwise, Origin origin) implements Instr {
        public Case { arms = List.copyOf(arms); }
        @Override public Kind kind() { return Kind.CASE; }

        /** {@code value of body endof}. */
        public record Arm(long value, Block body, Origin origin) { }
    }

    /** Runs {@code elements} and collects every value it pushed into one list. Co-Forth {@code [ … ]}. */
    record ListLit(Block elements, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.LIST; }
    }

    /** Runs {@code entries}, which pushes key value pairs, into an insertion-ordered map. Co-Forth {@code map{ … }map}. */
    record MapLit(Block entries, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.MAP; }
    }

    /** A record; each field's block pushes exactly one value. Co-Forth {@code { name: … }}. */
    record RecordLit(List<Field> fields, Origin origin) implements Instr {
        public RecordLit { fields = List.copyOf(fields); }
        @Override public Kind kind() { return Kind.RECORD; }

        public record Field(String name, Block value, Origin origin) { }
    }

    /** An execution token for a word. Co-Forth {@code ['] word}. */
    record Quote(String word, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.QUOTE; }
    }

    /**
     * A closure value of type {@code type}: its body starts with the inputs on its own stack and may read
     * enclosing locals, which are captured by value when the closure is made. Co-Forth {@code [: ( sig ) … ;]}.
     */
    record Closure(Type.Fn type, Block body, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.CLOSURE; }
    }

    /** Pops the top into local {@code name} (declaring it on first store). Co-Forth {@code :> name}. */
    record LocalStore(String name, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.LOCAL_STORE; }
    }

    /** Pushes local {@code name}. Co-Forth: the bare name, which a local shadows within its word. */
    record LocalLoad(String name, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.LOCAL_LOAD; }
    }

    /**
     * Pops a {@code result<T,E>}: ok continues with T; err returns it at once from the enclosing function, whose
     * sole declared output must be {@code result<R,E>}. Co-Forth {@code ?}, Lisp {@code try}.
     */
    record Propagate(Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.PROPAGATE; }
    }

    /**
     * Pops the top and defines {@code name} in the dictionary as a constant (Co-Forth {@code constant name},
     * Lisp {@code (define name value)}). {@code declared} is the type a frontend already knows, if any.
     */
    record Constant(String name, Optional<Type> declared, Origin origin) implements Instr {
        @Override public Kind kind() { return Kind.CONSTANT; }
    }
}
