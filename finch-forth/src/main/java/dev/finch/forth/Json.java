package dev.finch.forth;

import java.util.HashSet;
import java.util.Set;

/**
 * A strict JSON reader that returns the compact canonical text of a pasted JSON object literal (contract
 * "pasted JSON object literal"). Strict: no trailing commas, comments, single quotes, duplicate keys, raw
 * control characters, or leading zeros. Canonical: no insignificant whitespace, member order kept, numbers as
 * written, strings with only the escapes JSON requires. Finch-forth may not depend on Jackson (decisions D1).
 *
 * <p>Its bounds are json-parse's (the VM's strict reader, which reads the literal back when the program runs): 512
 * levels, numbers of at most 1000 characters within 1e±1000, strings of at most 16 Mi characters. A literal past
 * them is a malformed literal here, never a failure of the run. (Its total size is bounded by the source limit.)
 */
final class Json {
    static final int MAX_DEPTH = 512;
    static final int MAX_NUMBER_LENGTH = 1000;
    static final int MAX_EXPONENT = 1000;
    static final int MAX_STRING_LENGTH = 16 << 20;

    /** A malformed document, with the offset of the problem in the input text. */
    static final class JsonException extends Exception {
        final int offset;

        JsonException(String message, int offset) {
            super(message, null, false, false);
            this.offset = offset;
        }
    }

    private final String src;
    private final StringBuilder out = new StringBuilder();
    private int pos;

    private Json(String src) { this.src = src; }

    /** The canonical text of {@code text}, which must be one JSON value and nothing else. */
    static String canonical(String text) throws JsonException {
        Json j = new Json(text);
        j.ws();
        j.value(0);
        j.ws();
        if (j.pos != text.length()) throw j.error("unexpected text after the JSON value");
        return j.out.toString();
    }

    private void value(int depth) throws JsonException {
        if (pos >= src.length()) throw error("expected a JSON value");
        char c = src.charAt(pos);
        // depth counts the objects and arrays around this value; it may open one more only within the bound.
        if ((c == '{' || c == '[') && depth >= MAX_DEPTH) throw error("JSON nests deeper than " + MAX_DEPTH + " levels");
        switch (c) {
            case '{': object(depth); break;
            case '[': array(depth); break;
            case '"': string(); break;
            case 't': keyword("true"); break;
            case 'f': keyword("false"); break;
            case 'n': keyword("null"); break;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) number();
                else throw error("unexpected '" + c + "'");
        }
    }

    private void object(int depth) throws JsonException {
        pos++;
        out.append('{');
        ws();
        if (peek('}')) { pos++; out.append('}'); return; }
        Set<String> keys = new HashSet<>();
        while (true) {
            ws();
            if (!peek('"')) throw error("expected a quoted key");
            int keyStart = out.length();
            int at = pos;
            string();
            if (!keys.add(out.substring(keyStart))) throw new JsonException("duplicate key " + out.substring(keyStart), at);
            ws();
            expect(':');
            out.append(':');
            ws();
            value(depth + 1);
            ws();
            if (peek(',')) { pos++; out.append(','); continue; }
            expect('}');
            out.append('}');
            return;
        }
    }

    private void array(int depth) throws JsonException {
        pos++;
        out.append('[');
        ws();
        if (peek(']')) { pos++; out.append(']'); return; }
        while (true) {
            ws();
            value(depth + 1);
            ws();
            if (peek(',')) { pos++; out.append(','); continue; }
            expect(']');
            out.append(']');
            return;
        }
    }

    private void string() throws JsonException {
        int start = pos;
        pos++;
        int begin = out.length();
        out.append('"');
        while (true) {
            if (out.length() - begin > MAX_STRING_LENGTH) throw new JsonException("a JSON string longer than " + MAX_STRING_LENGTH + " characters", start);
            if (pos >= src.length()) throw error("unterminated JSON string");
            char c = src.charAt(pos++);
            if (c == '"') { out.append('"'); return; }
            if (c < 0x20) throw new JsonException("raw control character in a JSON string", pos - 1);
            if (c != '\\') { appendChar(c, src, pos - 1); continue; }
            if (pos >= src.length()) throw error("unterminated escape");
            char e = src.charAt(pos++);
            switch (e) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '/': out.append('/'); break;
                case 'b': out.append("\\b"); break;
                case 'f': out.append("\\f"); break;
                case 'n': out.append("\\n"); break;
                case 'r': out.append("\\r"); break;
                case 't': out.append("\\t"); break;
                case 'u': {
                    if (pos + 4 > src.length()) throw error("\\u needs four hex digits");
                    int v = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(src.charAt(pos + i), 16);
                        if (d < 0) throw error("\\u needs four hex digits");
                        v = v * 16 + d;
                    }
                    pos += 4;
                    appendEscapedCodeUnit((char) v);
                    break;
                }
                default: throw new JsonException("unknown escape \\" + e, pos - 2);
            }
        }
    }

    /** Raw text is kept; an unpaired surrogate is refused, as json-parse refuses it (it is no Unicode text). */
    private void appendChar(char c, String text, int at) throws JsonException {
        if (Character.isSurrogate(c) && !pairedAt(text, at)) throw new JsonException("lone surrogate in a JSON string", at);
        out.append(c);
    }

    private void appendEscapedCodeUnit(char c) throws JsonException {
        if (c == '"') out.append("\\\"");
        else if (c == '\\') out.append("\\\\");
        else if (c == '\b') out.append("\\b");
        else if (c == '\f') out.append("\\f");
        else if (c == '\n') out.append("\\n");
        else if (c == '\r') out.append("\\r");
        else if (c == '\t') out.append("\\t");
        else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
        else if (Character.isHighSurrogate(c) && src.startsWith("\\u", pos) && lowSurrogateEscapeAt(pos)) out.append(c);
        else if (Character.isLowSurrogate(c) && out.length() > 0 && Character.isHighSurrogate(out.charAt(out.length() - 1))) out.append(c);
        else if (Character.isSurrogate(c)) throw new JsonException("lone surrogate (escaped) in a JSON string", pos - 6);
        else out.append(c);
    }

    private boolean lowSurrogateEscapeAt(int at) {
        if (at + 6 > src.length()) return false;
        try {
            return Character.isLowSurrogate((char) Integer.parseInt(src.substring(at + 2, at + 6), 16));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean pairedAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private void number() throws JsonException {
        int start = pos;
        if (peek('-')) pos++;
        if (peek('0')) pos++;
        else if (digit()) while (digit()) pos++;
        else throw error("malformed number");
        if (peek('.')) {
            pos++;
            if (!digit()) throw error("a digit must follow '.'");
            while (digit()) pos++;
        }
        if (peek('e') || peek('E')) {
            pos++;
            if (peek('+') || peek('-')) pos++;
            if (!digit()) throw error("a digit must follow the exponent");
            while (digit()) pos++;
        }
        if (digit()) throw error("leading zeros are not allowed");
        // The bounds json-parse has: at most 1000 characters, a decimal exponent within ±1000.
        if (pos - start > MAX_NUMBER_LENGTH) throw new JsonException("a number longer than " + MAX_NUMBER_LENGTH + " characters", start);
        java.math.BigDecimal d = new java.math.BigDecimal(src.substring(start, pos));
        long exponent = d.precision() - (long) d.scale() - 1;
        if (d.signum() != 0 && Math.abs(exponent) > MAX_EXPONENT) throw new JsonException("a number beyond 1e±" + MAX_EXPONENT, start);
        out.append(src, start, pos);
    }

    private void keyword(String word) throws JsonException {
        if (!src.startsWith(word, pos)) throw error("unexpected '" + src.charAt(pos) + "'");
        pos += word.length();
        out.append(word);
    }

    private boolean digit() { return pos < src.length() && src.charAt(pos) >= '0' && src.charAt(pos) <= '9'; }

    private boolean peek(char c) { return pos < src.length() && src.charAt(pos) == c; }

    private void expect(char c) throws JsonException {
        if (!peek(c)) throw error("expected '" + c + "'");
        pos++;
    }

    private void ws() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
            else break;
        }
    }

    private JsonException error(String message) { return new JsonException(message, pos); }
}
