package dev.cairn.safety;

import java.text.Normalizer;

/**
 * The form text is matched and stored in: invisible characters removed (zero-width space and
 * friends, word joiners, the byte-order mark inside text, bidi controls, Unicode TAG characters
 * U+E0000..U+E007F, which spell invisible ASCII) and then NFKC (full-width and other compatibility
 * forms folded). A zero-width space inside a secret therefore cannot hide it from redaction, and an
 * invisible instruction never reaches a context block. ZWJ and ZWNJ between non-ASCII letters,
 * marks or symbols stay (Persian, Indic scripts, emoji sequences need them). Thread-safe.
 */
public final class SafeText {

    private SafeText() {}

    /** {@code text} without invisible characters, in NFKC. */
    public static String normalize(String text) {
        String visible = stripInvisible(text);
        return Normalizer.isNormalized(visible, Normalizer.Form.NFKC)
                ? visible
                : Normalizer.normalize(visible, Normalizer.Form.NFKC);
    }

    /** {@code text} without invisible characters; everything else as it is. */
    public static String stripInvisible(String text) {
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (removable(text, i, cp)) {
                break;
            }
            i += Character.charCount(cp);
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        out.append(text, 0, i);
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (!removable(text, i, cp)) {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** Whether {@code cp} at {@code i} is an invisible character that is removed. */
    static boolean removable(String text, int i, int cp) {
        if (isTag(cp) || isBidiControl(cp)) {
            return true;
        }
        return isInvisible(cp) && !joinerBetweenScripts(text, i, cp);
    }

    /** Unicode TAG characters: invisible copies of ASCII used to smuggle instructions. */
    static boolean isTag(int cp) {
        return cp >= 0xE0000 && cp <= 0xE007F;
    }

    static boolean isBidiControl(int cp) {
        return (cp >= 0x202A && cp <= 0x202E)
                || (cp >= 0x2066 && cp <= 0x2069)
                || cp == 0x200E
                || cp == 0x200F
                || cp == 0x061C;
    }

    static boolean isInvisible(int cp) {
        return (cp >= 0x200B && cp <= 0x200D)
                || (cp >= 0x2060 && cp <= 0x2064)
                || cp == 0xFEFF
                || cp == 0x180E
                || cp == 0x00AD
                || cp == 0x034F;
    }

    /** ZWJ/ZWNJ between non-ASCII letters, marks or symbols (Persian, Indic, emoji sequences). */
    static boolean joinerBetweenScripts(String text, int i, int cp) {
        if (cp != 0x200C && cp != 0x200D) {
            return false;
        }
        if (i == 0 || i + 1 >= text.length()) {
            return false;
        }
        int before = text.codePointBefore(i);
        int after = text.codePointAt(i + 1);
        return joinable(before) && joinable(after);
    }

    private static boolean joinable(int cp) {
        if (cp < 0x80) {
            return false;
        }
        int type = Character.getType(cp);
        return Character.isLetter(cp)
                || type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.OTHER_SYMBOL;
    }
}
