package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.vm.value.Bytes;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Issue 35 item 7: what a person is shown to approve is what the program passed, cut, with nothing that can redraw it. */
class ApprovalTextTest {
    @Test void aWritesFirstBytesAreShownAsTextWhereTheyAreTextAndAsHexElsewhere() {
        assertThat(ApprovalText.bytes(Bytes.wrap("héllo\n\"q\"\\".getBytes(StandardCharsets.UTF_8)))).isEqualTo("<11 bytes: \"héllo\\n\\\"q\\\"\\\\\">");
        // Invalid UTF-8 (a lone continuation byte, an overlong slash, a surrogate) is shown byte by byte.
        assertThat(ApprovalText.bytes(Bytes.wrap(new byte[] {(byte) 0x80, (byte) 0xc0, (byte) 0xaf, (byte) 0xed, (byte) 0xa0, (byte) 0x80, 'a'})))
                .isEqualTo("<7 bytes: \"\\x80\\xc0\\xaf\\xed\\xa0\\x80a\">");
        assertThat(ApprovalText.bytes(Bytes.wrap(new byte[] {(byte) 0xef, (byte) 0xbf, (byte) 0xbd}))).as("a real U+FFFD is text").isEqualTo("<3 bytes: \"\uFFFD\">");
        assertThat(ApprovalText.bytes(Bytes.wrap(new byte[1]))).isEqualTo("<1 byte: \"\u0000\">");
        // Past the bound: the size, and the bytes up to it (a character cut by the bound is shown as its bytes).
        byte[] big = ("a".repeat(63) + "é" + "b".repeat(100)).getBytes(StandardCharsets.UTF_8);
        assertThat(ApprovalText.bytes(Bytes.wrap(big))).isEqualTo("<165 bytes, starting \"" + "a".repeat(63) + "\\xc3\"…>");
    }

    @Test void controlFormatAndSeparatorCharactersAreSpelledOut() {
        assertThat(ApprovalText.safe("a\u001b[2Jb\u202ec\u2028d\u0007e\uE000f")).isEqualTo("a\\u{1b}[2Jb\\u{202e}c\\u{2028}d\\u{7}e\\u{e000}f");
        assertThat(ApprovalText.safe("plain, ünïcode & emoji 🐦")).isEqualTo("plain, ünïcode & emoji 🐦");
    }
}
