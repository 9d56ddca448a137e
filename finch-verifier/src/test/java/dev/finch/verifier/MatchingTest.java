package dev.finch.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import dev.finch.ir.vocab.WordSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Types#matched}, the call rule's shortcut for a generic word on a known stack, against what it stands for:
 * instantiating the signature with fresh meta-variables and unifying its inputs with the stack. The law, for every
 * generic signature of Finch's vocabulary and every stack of a set of types (one of them an unsolved
 * meta-variable): when matching answers, unifying succeeds and binds the variables to exactly what matching
 * substituted; when unifying fails, matching does not answer (so the error is the ordinary path's).
 */
class MatchingTest {
    private static final List<String> CANDIDATES = List.of("int", "string", "bool", "list<int>", "list<string>", "option<int>",
            "map<string,int>", "result<int,string>", "record{a:int}", "task<int>", "list<list<int>>", "(int -> int)", "?");

    private static Substitution subst() { return new Substitution(CompileBudget.of(CompileLimits.DEFAULT, Long.MAX_VALUE, () -> false)); }

    /** The candidate types for one stack, the meta-variable made in {@code s} (the first it makes, so each side names it alike). */
    private static List<Type> stack(List<String> spelled, Substitution s) {
        Type meta = s.fresh(Origin.UNKNOWN);
        List<Type> out = new ArrayList<>();
        for (String t : spelled) out.add(t.equals("?") ? meta : TypeSyntax.parse(t));
        return out;
    }

    @Test void matchingAnswersExactlyWhatInstantiatingAndUnifyingTheInputsWould() {
        int generic = 0, answered = 0, declined = 0;
        for (WordSpec w : Ir.VOCABULARY.words()) {
            if (w.special()) continue;
            for (Type.Fn sig : w.signatures()) {
                if (Types.vars(sig).isEmpty() || sig.ins().size() > 3) continue;
                generic++;
                for (List<String> spelled : stacks(sig.ins().size())) {
                    Substitution fast = subst(), slow = subst();
                    Type.Fn matched = Types.matched(sig, new StackState(stack(spelled, fast), null, Set.of()), fast);
                    List<Type> top = stack(spelled, slow);
                    Type.Fn inst = Types.instantiate(sig, slow, Origin.UNKNOWN);
                    boolean unified = Unifier.unifyRows(slow, inst.ins(), top);
                    String where = w.name() + " : " + sig + " on " + spelled;
                    if (matched == null) {
                        declined++;
                        continue;
                    }
                    answered++;
                    assertThat(unified).as(where).isTrue();
                    assertThat(fast.resolveFn(matched)).as(where).isEqualTo(slow.resolveFn(inst));
                    assertThat(Types.firstMeta(matched).isPresent()).as(where + ": a meta-variable only where the stack held one")
                            .isEqualTo(spelled.contains("?") && Types.firstMeta(slow.resolveFn(inst)).isPresent());
                }
            }
        }
        // The vocabulary has generic words, and matching settles most of their calls on a known stack.
        assertThat(generic).isGreaterThan(50);
        assertThat(answered).isGreaterThan(100);
        assertThat(declined).isGreaterThan(100);
    }

    @Test void aVariableThatMeetsTwoTypesOrOnlyAnOutputIsLeftToUnification() {
        Substitution s = subst();
        Type.Fn eq = (Type.Fn) TypeSyntax.parse("(a a -> bool)");
        assertThat(Types.matched(eq, new StackState(List.of(Type.Prim.INT, Type.Prim.STRING), null, Set.of()), s)).isNull();
        assertThat(Types.matched(eq, new StackState(List.of(Type.Prim.INT, Type.Prim.INT), null, Set.of()), s))
                .isEqualTo(TypeSyntax.parse("(int int -> bool)"));
        Type.Fn none = (Type.Fn) TypeSyntax.parse("( -> option<a>)");
        assertThat(Types.matched(none, new StackState(List.of(), null, Set.of()), s)).isNull();
        Type.Fn get = (Type.Fn) TypeSyntax.parse("(list<a> int -> option<a>)");
        assertThat(Types.matched(get, new StackState(List.of(TypeSyntax.parse("list<string>"), Type.Prim.STRING), null, Set.of()), s))
                .as("an input that does not fit").isNull();
        assertThat(s.madeMetas()).isFalse();
    }

    private static List<List<String>> stacks(int n) {
        List<List<String>> out = new ArrayList<>();
        out.add(List.of());
        for (int i = 0; i < n; i++) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> prefix : out) {
                for (String c : CANDIDATES) {
                    List<String> l = new ArrayList<>(prefix);
                    l.add(c);
                    next.add(l);
                }
            }
            out = next;
        }
        return out;
    }
}
