package dev.cairn.store;

/**
 * The one alphabet of caller-chosen identifiers: document ids, ARK conversation and query ids,
 * Orloj keys (namespace names are a stricter subset, {@link Namespace#NAME}). An identifier is 1 to
 * {@link #MAX_ID_LENGTH} characters ({@link #MAX_KEY_LENGTH} for a key) of letters, marks, digits,
 * punctuation, symbols and the plain space, not starting or ending with a space. Refused: control
 * characters (NUL included, which PostgreSQL cannot store in text), format characters (zero-width,
 * bidi and Unicode TAG characters, which make invisible look-alikes), other separators,
 * private-use, unassigned and lone surrogate code points.
 *
 * <p>An {@link #requireId id} is also addressable as one URL path segment: no {@code /}, and not
 * {@code .} or {@code ..}. A {@link #requireKey key} (Orloj's, only ever in request bodies) may
 * contain {@code /}.
 */
public final class Identifiers {

    /** Longest id, in UTF-16 characters. */
    public static final int MAX_ID_LENGTH = 512;

    /** Longest key, in UTF-16 characters (Orloj's chunked keys carry a document name). */
    public static final int MAX_KEY_LENGTH = 1024;

    /** The rule in words, for error messages and docs. */
    public static final String RULE =
            "letters, digits, marks, punctuation, symbols or inner spaces;"
                    + " no control, invisible or format characters";

    private Identifiers() {}

    /**
     * {@code value} when it is a legal, path-addressable identifier; otherwise an {@link
     * IllegalArgumentException} naming {@code field} and the rule.
     */
    public static String requireId(String value, String field) {
        check(value, field, false);
        return value;
    }

    /** Like {@link #requireId}, but {@code /} is allowed (keys that never appear in a path). */
    public static String requireKey(String value, String field) {
        check(value, field, true);
        return value;
    }

    /** Whether {@code value} is a legal path-addressable id. */
    public static boolean isId(String value) {
        return problem(value, false) == null;
    }

    private static void check(String value, String field, boolean slashAllowed) {
        String problem = problem(value, slashAllowed);
        if (problem != null) {
            throw new IllegalArgumentException(
                    "illegal " + field + ": " + problem + "; an identifier has " + RULE);
        }
    }

    /** What is wrong with {@code value}, or null when nothing is. */
    private static String problem(String value, boolean slashAllowed) {
        if (value == null || value.isEmpty()) {
            return "empty";
        }
        int max = slashAllowed ? MAX_KEY_LENGTH : MAX_ID_LENGTH;
        if (value.length() > max) {
            return value.length() + " characters, must be at most " + max;
        }
        if (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            return "starts or ends with a space";
        }
        if (!slashAllowed) {
            if (value.indexOf('/') >= 0) {
                return "contains '/', which cannot be addressed as one path segment";
            }
            if (value.equals(".") || value.equals("..")) {
                return "'" + value + "' is a relative path segment";
            }
        }
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            if (!allowed(cp)) {
                return String.format("character U+%04X at index %d is not allowed", cp, i);
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    private static boolean allowed(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER,
                    Character.LOWERCASE_LETTER,
                    Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK,
                    Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER,
                    Character.OTHER_NUMBER,
                    Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION,
                    Character.MATH_SYMBOL,
                    Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL,
                    Character.OTHER_SYMBOL ->
                    true;
            default -> false;
        };
    }
}
