package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.StackEntry;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * {@link Session#save()}: the image of a session between submissions (issue 23: a durable session's state between two
 * turns). The restored session has the committed words, stack and constants, commits on from the same revision, and
 * holds no suspended execution; nothing ran again.
 */
class IdleImageTest {
    @Test void aSessionBetweenSubmissionsIsSavedAndRestored() {
        Finch finch = Images.keyed();
        Session s = finch.newSession();
        assertThat(s.submit(Submission.of(": square ( int -- int ) dup * ; \"once \" say 7 square", "turn-1")).status())
                .isEqualTo(Outcome.Status.COMPLETED);
        String image = s.save();
        Session back = finch.restore(image);
        assertThat(back.id()).isNotEqualTo(s.id());
        assertThat(back.vmRevision()).isEqualTo(s.vmRevision());
        assertThat(back.suspendedExecutions()).isEmpty();
        assertThat(back.stack()).extracting(StackEntry::display).containsExactly("49");
        Outcome next = back.submit(Submission.of("square", "turn-2"));
        assertThat(next.status()).as("%s", next).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(next.output()).isEmpty();                                  // turn-1's say did not run again
        assertThat(next.stack()).extracting(StackEntry::display).containsExactly("2401");
        assertThat(back.vmRevision()).isEqualTo(s.vmRevision() + 1);
    }

    @Test void anIdleImageIsAuthenticatedLikeAnyOther() {
        Finch finch = Images.keyed();
        Session s = finch.newSession();
        s.submit(Submission.of("41", "turn-1"));
        String image = s.save();
        assertThatThrownBy(() -> finch.restore(image.replace("41", "42"))).isInstanceOf(SessionImage.ImageException.class);
        assertThatThrownBy(() -> finch.restore(image.replace("\"suspended\":null,", ""))).isInstanceOf(SessionImage.ImageException.class);
    }
}
