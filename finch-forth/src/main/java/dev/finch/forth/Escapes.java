package dev.finch.forth;

/** Decodes the body of a Co-Forth string literal: backslash escapes n t r 0 " backslash and u+4 hex digits (the printer's inverse). */
final class Escapes {
    /** An unknown or incomplete escape at {@code offset} within the body. */
    static final class EscapeException extends Exception {
        final int offset;

        EscapeException(String message, int offset) {
            super(message, null, false, false);
            this.offset = offset;
        }
    }

    private Escapes() { }

    static String decode(String body) throws EscapeException {
        if (body.indexOf('\\') < 0) return body;
        StringBuilder b = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\') { b.append(c); continue; }
            if (i + 1 >= body.length()) throw new EscapeException("a string cannot end with a lone '\\'", i);
            char e = body.charAt(++i);
            switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case '0': b.append('\0'); break;
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case 'u': {
                    int v = 0;
                    for (int k = 1; k <= 4; k++) {
                        int d = i + k < body.length() ? Character.digit(body.charAt(i + k), 16) : -1;
                        if (d < 0) throw new EscapeException("\\u needs exactly four hex digits", i - 1);
                        v = v * 16 + d;
                    }
                    b.append((char) v);
                    i += 4;
                    break;
                }
                default:
                    throw new EscapeException("unknown escape '\\" + e + "'; use \\n \\t \\r \\0 \\\" \\\\ or \\uXXXX", i - 1);
            }
        }
        return b.toString();
    }
}
