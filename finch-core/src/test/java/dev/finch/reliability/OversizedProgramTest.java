package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * A submission with more definitions and constants than one compiled unit holds (found by finch-bench's Growth at
 * 3,000 generated lines) fails with E-RUN-004 in Finch's words — never the bytecode library's exception or the JVM's
 * method names — and leaves the session as it was.
 */
class OversizedProgramTest {
    private static String forth(int definitions) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < definitions; i++) {
            s.append(": f").append(i).append(" ( int -- int ) ").append(i).append(" + :> y y 10 > if y 2 * else y 1 - then ;\n");
            s.append(": g").append(i).append(" ( string -- string ) string-upcase \"-").append(i).append("\" string-append ;\n");
            s.append(": h").append(i).append(" ( string -- int ) :> t t string-to-int if-some dup f").append(i)
                    .append(" + else t g").append(i).append(" string-length then ;\n");
        }
        return s.append("\"41\" h0\n").toString();
    }

    @Test
    void aProgramTooLargeForOneUnitIsRefusedInFinchsWords() {
        try (Finch finch = Finch.builder().build()) {
            var session = finch.newSession();
            Outcome o = session.submit(Submission.of(forth(1_000), "big.fth"));
            assertThat(o).isInstanceOf(Outcome.Failed.class);
            Diagnostic d = o.diagnostics().get(0);
            assertThat(d.code()).isEqualTo("E-RUN-004");
            assertThat(d.message()).contains("too large to compile as one unit").doesNotContain("org.", "Exception", "<clinit>", "FinchCode");
            // Nothing was committed: the session still answers, and defines none of it.
            Outcome after = session.submit(Submission.of("1 2 +", "t.fth"));
            assertThat(after).isInstanceOf(Outcome.Completed.class);
            assertThat(session.submit(Submission.of("\"41\" h0", "t.fth")).diagnostics()).extracting(Diagnostic::code).containsExactly("E-VERIFY-003");
        }
    }
}
