package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * A session holding json values is saved and restored with every number's exact spelling: json travels in the image
 * as its compact text, so no JSON reader on the way (nor the image's checksum) can respell {@code 1e300}, {@code 2.0}
 * or a decimal no float can hold. (Before, such an image was refused at restore: "checksum does not match".)
 */
class JsonImageTest {
    @Test void jsonNumbersSurviveSaveAndRestoreExactly() {
        Finch finch = Images.keyed();
        Session s = finch.newSession();
        String doc = "{\\\"a\\\":2.0,\\\"b\\\":1e300,\\\"c\\\":1.00000000000000000001,\\\"d\\\":100.0,\\\"e\\\":[0.00001,-0.0]}";
        Outcome held = s.submit(Submission.of("\"" + doc + "\" json-parse result-unwrap", "keep"));
        assertThat(held.status()).as("%s", held).isEqualTo(Outcome.Status.COMPLETED);
        String before = held.stack().get(0).display();
        assertThat(before).contains("1.00000000000000000001").contains("2.0");
        Outcome paused = s.submit(Submission.of("dup \"c\" json-get unwrap yield", "pause"));
        assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
        Session back = finch.restore(s.save(paused.executionId()));
        assertThat(back.stack()).extracting(StackEntry::display).containsExactly(before);
        Outcome done = back.resume(paused.executionId());
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.stack()).extracting(StackEntry::display).containsExactly(before);
        assertThat(((Outcome.Suspended) paused).yielded().orElseThrow().display()).isEqualTo("1.00000000000000000001");
    }
}
