package dev.finch.vm.lib;

import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Bytes and their strict UTF-8 decoding (D5). */
public final class ByteWords {
    private ByteWords() { }

    @Word(name = "bytes-to-string", category = Category.BYTES, doc = "Decode strict UTF-8; err describes the first malformed byte.")
    @Overload(sig = "bytes -> result<string,string>")
    public static Object bytesToString(Bytes bytes) {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = bytes.buffer();
        try {
            CharBuffer out = dec.decode(in);
            return ResultValue.ok(out.toString());
        } catch (CharacterCodingException e) {
            return ResultValue.err("invalid UTF-8 at byte " + in.position());
        }
    }

    @Word(name = "string-to-bytes", category = Category.BYTES, doc = "Encode as UTF-8.")
    @Overload(sig = "string -> bytes")
    public static Bytes stringToBytes(String s) { return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8)); }
}
