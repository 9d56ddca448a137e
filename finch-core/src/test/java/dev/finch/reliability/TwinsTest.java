package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which words compile as twins (two copies of a threaded body calling each other, docs/architecture.md, Limits),
 * read from the classes the compiler writes with {@code -Dfinch.vm.dump=DIR}: a small self-recursive word is
 * twinned, and a word that only loops, one that recurses through another word only, one with a closure literal and
 * one too large for the JIT to inline are not. (That twins behave as the interpreter does is {@link FuelTiersTest}'s
 * and {@link RecursionLimitsTest}'s.)
 */
class TwinsTest {
    private static final String DUMP = "finch.vm.dump";

    /** The constant-pool text of every class the compiler generates for {@code src}. */
    private static String generated(Path dir, String src) throws IOException {
        String was = System.getProperty(DUMP);
        System.setProperty(DUMP, dir.toString());
        try {
            Outcome o = Finch.builder().tier(Finch.Tier.COMPILED).build().newSession().submit(Submission.of(src, "t"));
            assertThat(o).isInstanceOf(Outcome.Completed.class);
        } finally {
            if (was == null) System.clearProperty(DUMP);
            else System.setProperty(DUMP, was);
        }
        List<Path> classes = new ArrayList<>();
        try (var files = Files.list(dir)) { files.forEach(classes::add); }
        StringBuilder text = new StringBuilder();
        for (Path c : classes) text.append(new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1));
        return text.toString();
    }

    @Test void aSmallSelfRecursiveWordIsTwinned(@TempDir Path dir) throws IOException {
        String text = generated(dir, ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ; 10 fib");
        assertThat(text).contains("w0_fib$$f").contains("w0_fib$$g");
    }

    @Test void wordsThatDoNotCallThemselvesOrAreTooLargeOrHoldAClosureAreNot(@TempDir Path dir) throws IOException {
        String large = ": big ( int -- int ) dup 0 > if 1 - big " + "1 + 1 - ".repeat(20) + "then ;";
        String text = generated(dir, ": s ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ; "
                + ": ping ( int -- int ) dup 0 = if else 1 - pong then ; : pong ( int -- int ) dup 0 = if else 1 - ping then ; "
                + ": cl ( int -- int ) dup 0 > if 1 - cl [: ( int -- int ) 1 + ;] execute then ; "
                + large + " 10 s 10 ping 3 cl 3 big + + +");
        assertThat(text).contains("w0_s$$f").contains("w1_ping$$f").contains("w2_pong$$f").contains("w3_cl$$f").contains("w4_big$$f");
        assertThat(text).doesNotContain("$$g");
    }
}
