package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
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
    public static Object bytesToString(Ctx ctx, Bytes bytes, Origin o) {
        ctx.charge(bytes.length() / 64);
        // At most a char a byte: over the limit only when the bytes are near it themselves; measured after decoding.
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = bytes.buffer();
        try {
            CharBuffer out = dec.decode(in);
            Strings.reserve(ctx, out.length(), "bytes-to-string", o);
            return ResultValue.ok(out.toString());
        } catch (CharacterCodingException e) {
            return ResultValue.err("invalid UTF-8 at byte " + in.position());
        }
    }

    @Word(name = "string-to-bytes", category = Category.BYTES,
            doc = "Encode as UTF-8; E-LIMIT-005 when the bytes would pass the memory limit, refused before they are built.")
    @Overload(sig = "string -> bytes")
    public static Bytes stringToBytes(Ctx ctx, String s, Origin o) {
        ctx.charge(s.length() / 64);
        // Up to three bytes a UTF-16 unit: measured exactly only when that bound could pass the limit.
        if (3L * s.length() > ctx.maxMemoryBytes()) {
            long n = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                n += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
            }
            if (n > ctx.maxMemoryBytes()) {
                throw new FinchTrap(VmCode.MEMORY_LIMIT, o, "string-to-bytes would build " + n + " bytes, over the memory limit of " + ctx.maxMemoryBytes() + " bytes");
            }
        }
        return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
