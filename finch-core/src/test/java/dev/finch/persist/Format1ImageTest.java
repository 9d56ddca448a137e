package dev.finch.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.StackEntry;
import dev.finch.Submission;
import org.junit.jupiter.api.Test;

/**
 * Images of the first format ({@code finch-session/1}: every committed submission with the whole session it was
 * verified against) still restore between submissions — every definition verified again, a closure on the stack named
 * by its place among all the history's literals — and an image whose paused run an earlier Finch saved is refused at
 * restore with a reason, never mis-resumed.
 */
class Format1ImageTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A format-1 image as the first Finch wrote it: three submissions, a closure and two values on the stack, a constant. */
    private static String format1(Finch finch, String suspended) throws Exception {
        String vocabulary = finch.vocabulary().fingerprint();
        String text = """
                {"format":"finch-session/1","session_id":"s1-old","vm_revision":4,"manifest_generation":1,"vocabulary":"%s","history":[
                 {"text":": square ( int -- int ) dup * ;","language":"forth","source_id":"defs.fth","env":{"words":{},"constants":{},"stack":[]}},
                 {"text":"(define limit 10) (define (scaled n) (* (square n) limit))","language":"lisp","source_id":"defs.lisp",
                  "env":{"words":{"square":"int -> int"},"constants":{},"stack":[]}},
                 {"text":"(let ((k 5)) (lambda (x) (+ x k)))","language":"lisp","source_id":"closure.lisp",
                  "env":{"words":{"scaled":"int -> int","square":"int -> int"},"constants":{"limit":"int"},"stack":[]}}],
                 "stack":[{"type":"(int -> int)","value":{"closure":0,"captures":[5]}},{"type":"string","value":"kept"},{"type":"int","value":7}],
                 "constants":{"limit":{"type":"int","value":10}},"suspended":%s}""".formatted(vocabulary, suspended);
        ObjectNode doc = (ObjectNode) JSON.readTree(text);
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(Images.KEY, "HmacSHA256"));
        doc.put("mac", java.util.HexFormat.of().formatHex(mac.doFinal(doc.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        return doc.toString();
    }

    @Test void aFormat1ImageBetweenSubmissionsRestoresAndGoesOn() throws Exception {
        Finch finch = Images.keyed();
        Session back = finch.restore(format1(finch, "null"));
        assertThat(back.vmRevision()).isEqualTo(4);
        assertThat(back.stack()).extracting(StackEntry::display).containsExactly("#int -> int<closure@closure.lisp:1:14>", "\"kept\"", "7");
        Outcome later = back.submit(Submission.of("drop drop 2 swap execute 3 scaled", "later"));
        assertThat(later.stack()).as("%s", later).extracting(StackEntry::display).containsExactly("7", "90");
        // Saved again, it is an image of the current format, and restores as such.
        String again = back.save();
        assertThat(again).contains(SessionImage.FORMAT);
        assertThat(finch.restore(again).submit(Submission.of("limit scaled", "again")).stack()).extracting(StackEntry::display).endsWith("1000");
    }

    @Test void aRunAnEarlierFinchPausedIsRefusedAtRestoreWithItsReason() throws Exception {
        Finch finch = Images.keyed();
        String paused = format1(finch, """
                {"execution_id":"s1-old-e5","entry":{"text":"1 2 +","language":"forth","source_id":"p.fth","env":{"words":{},"constants":{},"stack":[]}},
                 "continuation":"{\\"format\\":\\"finch-continuation/3\\"}","pause":1}""");
        assertThatThrownBy(() -> finch.restore(paused)).isInstanceOf(SessionImage.ImageException.class)
                .hasMessageContaining("finch-continuation/3").hasMessageContaining("earlier Finch");
    }
}
