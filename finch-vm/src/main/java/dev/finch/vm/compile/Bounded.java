package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import dev.finch.vm.word.Impl;
import dev.finch.vm.word.Library;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which words of a module can neither loop nor recurse, so that one call of them does work bounded by their size:
 * no loop in the body, and every call in it is either a pure builtin (one that takes no run context, so it cannot
 * call back into program code, charge steps or suspend) or a call of another such word of the same module. A word
 * on a cycle of the module's call graph is never bounded (the least fixed point below starts from "unbounded" and
 * only proves a word bounded once all its callees are), and so is every word that calls a persisted word, a
 * closure, an execution token, a host word or anything that takes the context — those count as possibly recursive.
 *
 * <p>A bounded word compiles without a depth or fuel check of its own: its caller charges the one step of its
 * call (to its fuel local when it has one), and the depth it can add to the JVM stack is at most the length of an
 * acyclic chain of the module's words.
 */
final class Bounded {
    private Bounded() { }

    /** What is known of one bounded word. */
    record Fact(boolean leaf) { }

    /**
     * The bounded words of {@code words} among those {@code compiled} accepts, each with whether it is a leaf (it
     * calls no word at all, so it never touches the context's fuel and a caller need not write its fuel local back).
     */
    static Map<String, Fact> of(Iterable<CheckedWord> words, Predicate<String> compiled, Library library) {
        Map<String, CheckedWord> byName = new HashMap<>();
        for (CheckedWord w : words) if (compiled.test(w.name()) && !w.suspends() && !ModuleCompiler.Loops.has(w.body())) byName.put(w.name(), w);
        Map<String, Fact> bounded = new HashMap<>();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (CheckedWord w : byName.values()) {
                if (bounded.containsKey(w.name())) continue;
                Set<String> callees = new HashSet<>();
                if (onlyBoundedCalls(w.body(), library, callees) && bounded.keySet().containsAll(callees)) {
                    bounded.put(w.name(), new Fact(callees.isEmpty()));
                    changed = true;
                }
            }
        }
        return Map.copyOf(bounded);
    }

    /** Whether every call in {@code b} is a pure builtin or a module word (collected into {@code words}). */
    private static boolean onlyBoundedCalls(CheckedBlock b, Library library, Set<String> words) {
        for (Node n : b.nodes()) {
            if (n.kind() == Instr.Kind.CALL) {
                CallNode c = (CallNode) n;
                if (c.suspends()) return false;
                boolean ok = switch (c.target().kind()) {
                    case WORD -> { words.add(c.target().name()); yield true; }
                    case BUILTIN -> pure(library.impl(((Checked.Target.Builtin) c.target()).overload()), c);
                    case CONSTANT_REF -> false;
                };
                if (!ok) return false;
            } else if (n.kind() == Instr.Kind.CONSTANT) {
                return false;
            }
            for (CheckedBlock inner : Checked.children(n)) if (!onlyBoundedCalls(inner, library, words)) return false;
        }
        return true;
    }

    /** A builtin that cannot reach program code, the step counter or the context: a plain static method or a pure intrinsic. */
    static boolean pure(Impl impl, CallNode c) {
        if (impl.special() != null || impl.host() || impl.takesContext() || impl.takesDepth()) return false;
        // Without the context nothing can run a function value; refusing them anyway keeps the rule obvious.
        for (Type t : c.instantiated().ins()) if (t instanceof Type.Fn) return false;
        return switch (impl.intrinsic()) {
            // Equality of references goes through Values.equal with the context as its meter.
            case EQUAL, NOT_EQUAL -> Kind.of(c.before().get(c.before().size() - 2)) != Kind.A;
            case NONE, SHUFFLE, FLOAT_ADD, FLOAT_SUB, FLOAT_MUL, FLOAT_DIV, FLOAT_REM, FLOAT_NEGATE, INT_TO_FLOAT,
                 BOOL_AND, BOOL_OR, BOOL_NOT, INT_LESS, INT_GREATER, INT_LESS_EQUAL, INT_GREATER_EQUAL -> true;
        };
    }
}
