package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session whose stack is deep: each submission types and commits only what it changes on top (the verifier keeps
 * the untouched bottom as it is, the commit keeps its entries), and every kind of change — pushes, pops reaching far
 * down, generic words, types settled by unification, refusals — leaves exactly the stack a fresh replay would.
 */
class DeepSessionStackTest {
    private static final int DEPTH = 3_000;

    private static String spelled(Outcome o) {
        List<String> out = new ArrayList<>();
        for (var e : o.stack()) out.add(e.type() + " " + e.display());
        return String.join(" | ", out);
    }

    private static String top3(Outcome o) {
        List<String> out = new ArrayList<>();
        var stack = o.stack();
        for (int i = stack.size() - 3; i < stack.size(); i++) out.add(stack.get(i).type() + " " + stack.get(i).display());
        return String.join(" | ", out);
    }

    @Test
    void everyChangeOnTopOfADeepStackLeavesTheStackItShould() {
        // Each program, and the top three entries it leaves (the stack starts as the ints 0 … 2999).
        String[][] steps = {
                {"1 2 +", "int 2998 | int 2999 | int 3"},
                {"drop", "int 2997 | int 2998 | int 2999"},
                {"dup", "int 2998 | int 2999 | int 2999"},
                {"drop swap", "int 2997 | int 2999 | int 2998"},
                {"\"s\" 7", "int 2998 | string \"s\" | int 7"},
                {"drop drop drop drop", "int 2995 | int 2996 | int 2997"},
                // Types settled by unification (none's), and nothing left of them.
                {"dup some none = drop", "int 2995 | int 2996 | int 2997"},
                {"none 7 some swap drop", "int 2996 | int 2997 | option<int> (some 7)"},
                {"drop empty-list<int> 3 list-append", "int 2996 | int 2997 | list<int> [3]"},
                {"drop : twice ( int -- int ) 2 * ; twice", "int 2995 | int 2996 | int 5994"},
                {"over over + nip", "int 2995 | int 2996 | int 8990"},
                {"3 0 > if 1 else 2 then", "int 2996 | int 8990 | int 1"},
        };
        try (Finch f = Finch.builder().build()) {
            Session s = f.newSession();
            StringBuilder fill = new StringBuilder();
            for (int i = 0; i < DEPTH; i++) fill.append(i).append(' ');
            assertThat(s.submit(Submission.of(fill.toString(), "fill.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
            int size = DEPTH;
            int[] change = {1, -1, 1, -1, 2, -4, 0, 1, 0, -1, 0, 1};
            for (int i = 0; i < steps.length; i++) {
                Outcome o = s.submit(Submission.of(steps[i][0], "p.fth"));
                assertThat(o.status()).as("%s: %s", steps[i][0], o).isEqualTo(Outcome.Status.COMPLETED);
                size += change[i];
                assertThat(o.stack()).as(steps[i][0]).hasSize(size);
                assertThat(top3(o)).as(steps[i][0]).isEqualTo(steps[i][1]);
                // The bottom is the committed values, untouched.
                assertThat(o.stack().get(0).display()).isEqualTo("0");
                assertThat(o.stack().get(1234).display()).isEqualTo("1234");
            }
        }
    }

    @Test
    void aValueOfUnknownTypeIsRefusedOnADeepStackAndTheStackStaysAsItWas() {
        try (Finch f = Finch.builder().build()) {
            Session s = f.newSession();
            StringBuilder fill = new StringBuilder();
            for (int i = 0; i < DEPTH; i++) fill.append(i).append(' ');
            s.submit(Submission.of(fill.toString(), "fill.fth"));
            String before = spelled(s.submit(Submission.of("", "empty.fth")));
            Outcome none = s.submit(Submission.of("none", "none.fth"));
            assertThat(none.status()).isEqualTo(Outcome.Status.FAILED);
            assertThat(none.diagnostics().get(0).code()).isEqualTo("E-VERIFY-024");
            assertThat(spelled(s.submit(Submission.of("", "empty.fth")))).isEqualTo(before);
            // A program that reaches to the very bottom and leaves one value.
            StringBuilder sum = new StringBuilder();
            for (int i = 1; i < DEPTH; i++) sum.append("+ ");
            Outcome total = s.submit(Submission.of(sum.toString(), "sum.fth"));
            assertThat(total.status()).as("%s", total).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(spelled(total)).isEqualTo("int " + ((long) DEPTH * (DEPTH - 1) / 2));
        }
    }
}
