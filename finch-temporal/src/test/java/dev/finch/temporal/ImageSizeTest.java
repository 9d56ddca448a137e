package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * How an image grows with the session it holds — what a workflow records in its history at every step, against
 * Temporal's 2 MB limit per payload (docs/temporal.md, "Limits"). An image keeps each definition with only its part of
 * the session, so it grows with what the session holds, linearly: 100 small turns stay far below the limit.
 */
class ImageSizeTest {
    @Test void aHundredTurnsMakeAnImageFarBelowTemporalsPayloadLimit() {
        Finch finch = Finch.builder().imageKey(TemporalFixture.KEY).build();
        Session session = finch.newSession();
        StringBuilder sizes = new StringBuilder();
        for (int i = 1; i <= 100; i++) {
            Outcome o = session.submit(Submission.of(": w" + i + " ( int -- int ) " + i + " + ; " + i + " w" + i + " drop", "turn-" + i));
            assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
            if (i == 1 || i == 10 || i == 100) sizes.append(i).append(" turns: ").append(session.save().length()).append(" chars; ");
        }
        int size = session.save().length();
        System.out.println("image size by turns: " + sizes);
        assertThat(size).isLessThan(512 * 1024);              // Temporal warns from 512 KB per payload, refuses from 2 MB
        assertThat(size).as("about 150 characters a turn, whatever came before").isLessThan(150 * 100 + 1000);
    }
}
