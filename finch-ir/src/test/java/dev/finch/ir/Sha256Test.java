package dev.finch.ir;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Sha256Test {
    @Test
    void answersTheStandardsTestVectorsInLowercaseHex() {
        // FIPS 180-2, appendix B.1, and the empty message.
        assertThat(Sha256.hex("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(Sha256.hex(new byte[0])).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void digestsTextAsItsUtf8Bytes() {
        String text = "µNorman · Finch";
        assertThat(Sha256.hex(text)).isEqualTo(Sha256.hex(text.getBytes(StandardCharsets.UTF_8))).hasSize(64);
    }
}
