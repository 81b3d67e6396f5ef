package dev.cairn.safety;

import java.text.Normalizer;
import java.util.Arrays;

/**
 * The form text is matched in: invisible characters removed (zero-width space and friends, word
 * joiners, the byte-order mark inside text, bidi controls, Unicode TAG characters U+E0000..U+E007F,
 * which spell invisible ASCII) and then NFKC (full-width and other compatibility forms folded). A
 * zero-width space inside a secret therefore cannot hide it from redaction. Text is never stored in
 * this form: {@link #matching} keeps, for every char of the matching copy, the span of the original
 * it came from, so a finding in the copy names the exact characters of the original to replace and
 * everything else is stored as sent. ZWJ and ZWNJ between non-ASCII letters, marks or symbols stay
 * (Persian, Indic scripts, emoji sequences need them). Thread-safe.
 */
public final class SafeText {

    /**
     * A matching copy of {@code original} and where each of its chars came from.
     *
     * @param text the matching copy
     * @param from for char i of {@code text}, the start of its source in the original; null when
     *     the copy is the original itself
     * @param to for char i of {@code text}, the end (exclusive) of its source in the original
     */
    public record Matching(String original, String text, int[] from, int[] to) {

        /** The start in the original of the copy's char {@code i}. */
        public int originalStart(int i) {
            return from == null ? i : from[i];
        }

        /** The end in the original of the copy's span ending (exclusive) at {@code end} > 0. */
        public int originalEnd(int end) {
            return from == null ? end : to[end - 1];
        }
    }

    private SafeText() {}

    /** {@code text} without invisible characters, in NFKC. */
    public static String normalize(String text) {
        return matching(text).text();
    }

    /**
     * The {@link #normalize normalised} copy of {@code original} with the source span of each of
     * its chars. Each base character is normalised together with the combining marks after it, so
     * "e" and a combining acute become one "é" whose source is both.
     */
    public static Matching matching(String original) {
        if (!hasRemovable(original) && Normalizer.isNormalized(original, Normalizer.Form.NFKC)) {
            return new Matching(original, original, null, null);
        }
        StringBuilder out = new StringBuilder(original.length());
        int[] from = new int[original.length() + 16];
        int[] to = new int[original.length() + 16];
        int i = 0;
        while (i < original.length()) {
            int cp = original.codePointAt(i);
            if (removable(original, i, cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int end = i + Character.charCount(cp);
            while (end < original.length() && attaches(original.codePointAt(end))) {
                end += Character.charCount(original.codePointAt(end));
            }
            String piece = Normalizer.normalize(original.substring(i, end), Normalizer.Form.NFKC);
            if (out.length() + piece.length() > from.length) {
                int size = Math.max(from.length * 2, out.length() + piece.length());
                from = Arrays.copyOf(from, size);
                to = Arrays.copyOf(to, size);
            }
            for (int k = 0; k < piece.length(); k++) {
                from[out.length() + k] = i;
                to[out.length() + k] = end;
            }
            out.append(piece);
            i = end;
        }
        return new Matching(original, out.toString(), from, to);
    }

    /** Combining marks and Hangul vowel/final jamo: they compose with what comes before them. */
    private static boolean attaches(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK
                || (cp >= 0x1160 && cp <= 0x11FF);
    }

    private static boolean hasRemovable(String text) {
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (removable(text, i, cp)) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return false;
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
