package dev.finch.capabilities;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that splits and validates path text (reliability.md, "facts seen on this machine"). Validation
 * happens before any matching, because a matcher applied to un-normalized text matched {@code src/../../outside}.
 * Nothing here consults the filesystem: canonicalization against real files is the host's job at every use.
 */
final class PathSyntax {
    /** NAME_MAX on Linux: longer names cannot exist, so refusing them loses nothing. */
    static final int MAX_SEGMENT_BYTES = 255;
    /** PATH_MAX on Linux. */
    static final int MAX_PATH_BYTES = 4096;
    /**
     * Characters that delimit capability syntax ({@code Capability.splitTopLevel} counts brackets and quotes), so a
     * name holding them could not be printed as a requirement and read back as the same requirement.
     */
    private static final String RESERVED = ",()[]{}<>\"";
    /** Wildcards: meaningful in selectors, refused in concrete names so a requirement never widens when printed. */
    private static final String WILDCARDS = "*?";

    private PathSyntax() {}

    /** A root and the text after it (without the separating slash; empty for the root itself). */
    record Rooted(Root root, String rest, boolean bare) {}

    /** Splits {@code ${root}/rest}; a bare root has {@code bare=true}. */
    static Attempt<Rooted> splitRoot(String text, Origin origin) {
        if (text.indexOf('\0') >= 0) return Attempt.refused(refuse(CapabilityCode.PATH_FORBIDDEN_CHAR, origin, "path contains NUL", escape(text)));
        if (!text.startsWith("${")) {
            if (text.startsWith("/"))
                return Attempt.refused(refuse(CapabilityCode.PATH_ABSOLUTE, origin, "a path selector starts with a root such as ${workspace}, not '/'", text));
            return Attempt.refused(refuse(CapabilityCode.UNKNOWN_ROOT, origin, "a path selector starts with a root such as ${workspace}/", text));
        }
        int close = text.indexOf('}');
        if (close < 0) return Attempt.refused(refuse(CapabilityCode.UNKNOWN_ROOT, origin, "unterminated root", text));
        String name = text.substring(2, close);
        Root root = Root.bySpelling(name).orElse(null);
        if (root == null) return Attempt.refused(refuse(CapabilityCode.UNKNOWN_ROOT, origin, "unknown root '" + name + "'", text));
        String after = text.substring(close + 1);
        if (after.isEmpty()) return Attempt.ok(new Rooted(root, "", true));
        if (after.startsWith("//"))
            return Attempt.refused(refuse(CapabilityCode.PATH_EMPTY_SEGMENT, origin, "empty path segment after the root", text));
        if (!after.startsWith("/")) return Attempt.refused(refuse(CapabilityCode.UNKNOWN_ROOT, origin, "a root is followed by '/' or nothing", text));
        return Attempt.ok(new Rooted(root, after.substring(1), false));
    }

    /**
     * Splits root-relative text at {@code /} and validates every segment. {@code pattern} admits the wildcards
     * {@code *}, {@code ?} and a whole-segment {@code **}. 
     */
    static Attempt<List<String>> splitRelative(String text, boolean pattern, Origin origin) {
        if (text.indexOf('\0') >= 0) return Attempt.refused(refuse(CapabilityCode.PATH_FORBIDDEN_CHAR, origin, "path contains NUL", escape(text)));
        if (text.isEmpty()) return Attempt.refused(refuse(CapabilityCode.PATH_EMPTY_SEGMENT, origin, "empty path", text));
        if (text.startsWith("/")) return Attempt.refused(refuse(CapabilityCode.PATH_ABSOLUTE, origin, "absolute path where a root-relative path is required", text));
        if (utf8Length(text) > MAX_PATH_BYTES)
            return Attempt.refused(refuse(CapabilityCode.PATH_TOO_LONG, origin, "path longer than " + MAX_PATH_BYTES + " bytes", abbreviate(text)));
        List<String> segments = new ArrayList<>();
        int start = 0;
        // Only '/' separates: on Linux a backslash is an ordinary name character ("..\\..\\x" is one file name).
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '/') {
                String seg = text.substring(start, i);
                Diagnostic bad = checkSegment(seg, pattern, origin, text);
                if (bad != null) return Attempt.refused(bad);
                segments.add(seg);
                start = i + 1;
            }
        }
        return Attempt.ok(List.copyOf(segments));
    }

    /** Null when {@code seg} is an acceptable segment, otherwise the refusal. */
    static Diagnostic checkSegment(String seg, boolean pattern, Origin origin, String whole) {
        if (seg.isEmpty()) return refuse(CapabilityCode.PATH_EMPTY_SEGMENT, origin, "empty path segment", whole);
        if (seg.equals("..")) return refuse(CapabilityCode.PATH_PARENT, origin, "'..' segments are not allowed", whole);
        if (seg.equals(".")) return refuse(CapabilityCode.PATH_DOT, origin, "'.' segments are not allowed", whole);
        if (utf8Length(seg) > MAX_SEGMENT_BYTES)
            return refuse(CapabilityCode.PATH_TOO_LONG, origin, "segment longer than " + MAX_SEGMENT_BYTES + " bytes", abbreviate(whole));
        for (int i = 0; i < seg.length(); ) {
            int cp = seg.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            // Controls and invisible format characters (bidi overrides, zero-width spaces) would let a name look
            // like another one in an approval prompt; a lone surrogate has no UTF-8 form and would alias '?'.
            if (Character.isISOControl(cp) || type == Character.FORMAT || type == Character.SURROGATE
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR)
                return refuse(CapabilityCode.PATH_FORBIDDEN_CHAR, origin,
                        String.format("segment contains the invisible or control character U+%04X", cp), escape(whole));
            if (RESERVED.indexOf(cp) >= 0)
                return refuse(CapabilityCode.PATH_RESERVED_CHAR, origin,
                        "segment contains the reserved character '" + new String(Character.toChars(cp)) + "'", whole);
            if (!pattern && WILDCARDS.indexOf(cp) >= 0)
                return refuse(CapabilityCode.PATH_RESERVED_CHAR, origin,
                        "a concrete path cannot contain the wildcard '" + (char) cp + "'", whole);
        }
        if (!seg.strip().equals(seg))
            return refuse(CapabilityCode.PATH_FORBIDDEN_CHAR, origin, "a segment cannot start or end with whitespace", escape(whole));
        if (pattern && !seg.equals("**") && seg.contains("**"))
            return refuse(CapabilityCode.PATH_RESERVED_CHAR, origin, "'**' must be a whole segment", whole);
        return null;
    }

    static int utf8Length(String s) { return s.getBytes(StandardCharsets.UTF_8).length; }

    private static Diagnostic refuse(CapabilityCode code, Origin origin, String message, String found) {
        return code.at(origin, message, null, found);
    }

    private static String abbreviate(String s) { return s.length() <= 80 ? s : s.substring(0, 80) + "…(" + s.length() + " chars)"; }

    /** Makes invisible characters visible in a diagnostic. */
    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> {
            int type = Character.getType(cp);
            if (Character.isISOControl(cp) || type == Character.FORMAT || type == Character.SURROGATE
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || Character.isWhitespace(cp))
                b.append(String.format("\\u%04X", cp));
            else b.appendCodePoint(cp);
        });
        return abbreviate(b.toString());
    }
}
