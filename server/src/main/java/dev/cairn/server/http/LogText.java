package dev.cairn.server.http;

/**
 * Caller-supplied text made safe to write into a log line or an error detail: control, format and
 * other invisible characters become {@code \\uXXXX} escapes (so a decoded {@code %0a} cannot start
 * a forged log line and a NUL is never written raw), and long text is cut.
 */
public final class LogText {

    /** Most characters of caller text shown. */
    static final int MAX_SHOWN = 200;

    private LogText() {}

    /** {@code text} with every non-printable character escaped, cut at {@link #MAX_SHOWN}. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_SHOWN) + 8);
        int shown = 0;
        for (int i = 0; i < text.length(); ) {
            if (shown >= MAX_SHOWN) {
                out.append("…");
                break;
            }
            int cp = text.codePointAt(i);
            if (printable(cp)) {
                out.appendCodePoint(cp);
            } else if (cp <= 0xFFFF) {
                out.append(String.format("\\u%04X", cp));
            } else {
                out.append(String.format("\\U%06X", cp));
            }
            shown++;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private static boolean printable(int cp) {
        if (cp == '\\') {
            return false; // escaped too, so an escape in the output is always one of ours
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.PRIVATE_USE,
                    Character.SURROGATE,
                    Character.UNASSIGNED,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR ->
                    false;
            default -> true;
        };
    }
}
