package dev.finch;

import dev.finch.vm.TypedValue;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.value.Bytes;
import java.nio.charset.StandardCharsets;

/**
 * What a person is asked to approve, in one line: the operation and its arguments as the program passed them — the
 * path a file word names, the first bytes of a write, the program and argument list of a process — each cut to a
 * bound. The text is safe to show on a terminal or in a client's dialog: every control, format or separator
 * character a program put in a path or an argument is spelled {@code \}{@code u{…}}, so a program cannot redraw the
 * prompt or hide part of it. The REPL's approval prompt and {@code finch mcp}'s elicitation show it.
 */
public final class ApprovalText {
    /** Characters of one argument's display at most. */
    static final int ARGUMENT_LIMIT = 240;
    /** Bytes of a write shown at most. */
    static final int BYTES_SHOWN = 64;

    private ApprovalText() { }

    /** The operation and its arguments, e.g. {@code process-run "/usr/bin/id" ["-u"]}. */
    public static String describe(EffectRequest request) {
        StringBuilder b = new StringBuilder(request.operation());
        for (TypedValue v : request.values()) b.append(' ').append(v.value() instanceof Bytes bytes ? bytes(bytes) : v.display(ARGUMENT_LIMIT));
        return safe(b.toString());
    }

    /** {@code <12 bytes: "hello world\n">}: the size and the first {@link #BYTES_SHOWN} bytes, text where they are text. */
    static String bytes(Bytes bytes) {
        byte[] head = new byte[Math.min(BYTES_SHOWN, bytes.length())];
        bytes.buffer().get(head);
        StringBuilder b = new StringBuilder("<").append(bytes.length()).append(bytes.length() == 1 ? " byte" : " bytes")
                .append(head.length < bytes.length() ? ", starting \"" : ": \"");
        for (int i = 0; i < head.length; ) {
            int n = utf8Length(head, i);
            if (n == 0) {
                // A byte that does not start a whole UTF-8 character (or one cut by the bound) is shown as \xHH.
                b.append(String.format("\\x%02x", head[i] & 0xff));
                i++;
                continue;
            }
            String ch = new String(head, i, n, StandardCharsets.UTF_8);
            b.append(switch (ch) {
                case "\"" -> "\\\"";
                case "\\" -> "\\\\";
                case "\n" -> "\\n";
                case "\t" -> "\\t";
                case "\r" -> "\\r";
                default -> ch;
            });
            i += n;
        }
        return b.append(head.length < bytes.length() ? "\"…>" : "\">").toString();
    }

    /** The length of the well-formed UTF-8 character at {@code i} (shortest form, no surrogate), or 0. */
    private static int utf8Length(byte[] a, int i) {
        int lead = a[i] & 0xff;
        int n = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (n == 0 || i + n > a.length) return 0;
        for (int k = 1; k < n; k++) if ((a[i + k] & 0xc0) != 0x80) return 0;
        String s = new String(a, i, n, StandardCharsets.UTF_8);
        int cp = s.codePointAt(0);
        // Overlong forms and surrogates decode to the replacement character; a real U+FFFD is three bytes ef bf bd.
        boolean replaced = cp == 0xfffd && !(n == 3 && lead == 0xef && (a[i + 1] & 0xff) == 0xbf && (a[i + 2] & 0xff) == 0xbd);
        return replaced || s.codePointCount(0, s.length()) != 1 ? 0 : n;
    }

    /** {@code text} with every control, format, separator, private or unassigned character spelled {@code \}{@code u{hex}}. */
    public static String safe(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> {
            switch (Character.getType(cp)) {
                case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.PRIVATE_USE,
                     Character.SURROGATE, Character.UNASSIGNED -> b.append("\\u{").append(Integer.toHexString(cp)).append('}');
                default -> b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
