package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.type.Type;
import dev.finch.persist.Images;
import dev.finch.vm.TypedValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 33, item 3: an outcome, a session's stack and their JSON never throw for a state they cannot read — such a
 * value shows {@code E-SESSION-011} in its place, and a run that would leave one commits nothing — and a damaged or
 * incompatible image is refused at {@code restore}, not at the next call; a definition restored lazily that cannot be
 * rebuilt fails only what needs it, with {@code E-SESSION-010}, and every session method still answers.
 */
class OutcomeNeverThrowsTest {
    @Test void aValueThatCannotBeReadShowsItsCodeInsteadOfThrowing() {
        List<StackEntry> entries = StackDisplay.entries(List.of(new TypedValue(Type.STRING, null), new TypedValue(Type.INT, 7L)));
        assertThat(entries).extracting(StackEntry::display).containsExactly("#<unreadable value: E-SESSION-011>", "7");
        assertThat(entries).extracting(StackEntry::type).containsExactly("string", "int");
    }

    @Test void damagedImagesAreRefusedAtRestoreWithTheImageCode() {
        Session s = Images.keyed().newSession();
        s.submit(Submission.of(": square ( int -- int ) dup * ; 3 square", "t"));
        String image = s.save();
        Finch other = Images.keyed();
        for (String damaged : List.of(image.substring(0, image.length() / 2), image.replace("square", "squire"), "{}", "[]", "null", "",
                image.replace(SessionImage.FORMAT, "finch-session/9"))) {
            assertThatThrownBy(() -> other.restore(damaged)).isInstanceOf(SessionImage.ImageException.class)
                    .satisfies(e -> assertThat(((SessionImage.ImageException) e).code()).isEqualTo("E-SESSION-010"))
                    .satisfies(e -> assertThat(((SessionImage.ImageException) e).diagnostic().code()).isEqualTo("E-SESSION-010"));
        }
        // Signed with another key, or restored where words differ: refused at restore too.
        assertThatThrownBy(() -> Finch.builder().imageKey(new byte[32]).build().restore(image)).isInstanceOf(SessionImage.ImageException.class);
    }

    @Test void aDefinitionThatCannotBeRebuiltLeavesEverySessionMethodAnswering() {
        Session s = Finch.builder().acceptUnkeyedImages().build().newSession();
        s.submit(Submission.of(": square ( int -- int ) dup * ;", "t"));
        s.submit(Submission.of(": twice ( int -- int ) 2 * ;", "u"));
        String image = s.save();
        // As a build that lowers the text differently would meet it: the text no longer makes the word it made.
        String edited = image.replace("dup * ;", "dup * 1 ;");
        String body = edited.replaceFirst(",\"checksum\":\"[0-9a-f]+\"}$", "}");
        Session back = Finch.builder().acceptUnkeyedImages().build().restore(body.substring(0, body.length() - 1)
                + ",\"checksum\":\"" + dev.finch.ir.Sha256.hex(body) + "\"}");
        Outcome o = back.submit(Submission.of("3 twice square", "later"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).extracting(d -> d.code()).containsExactly("E-SESSION-010");
        assertThat(FinchJson.write(o)).contains("E-SESSION-010");
        assertThat(back.call("square", dev.finch.vm.Value.of(3)).diagnostics()).extracting(d -> d.code()).containsExactly("E-SESSION-010");
        assertThat(back.inspectWord("square")).get().extracting(WordInfo::name).isEqualTo("square");
        assertThat(back.getVmState().definitions()).extracting(VmStateReport.DefinitionEntry::name).containsExactly("square", "twice");
        assertThat(back.check(Submission.of("3 square", "check")).status()).isEqualTo(CheckResult.Status.OK);
        assertThat(back.stack()).isEmpty();
        // What does not need the broken definition still runs and commits.
        Outcome fine = back.submit(Submission.of("4 twice", "fine"));
        assertThat(fine.stack()).extracting(StackEntry::display).containsExactly("8");
    }
}
