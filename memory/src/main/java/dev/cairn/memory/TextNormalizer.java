package dev.cairn.memory;

import dev.cairn.store.Sha256;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Text normalisation for duplicate detection. Stateless, thread-safe.
 *
 * <p>{@link #normalize(String)}: Unicode NFKC, invisible format characters removed, lower case
 * (root locale), every run of whitespace one space, trimmed, trailing sentence punctuation removed.
 * {@link #contentHash(String)} is the lower-case hex SHA-256 of the normalised text's UTF-8 bytes.
 */
public final class TextNormalizer {

    private static final Pattern FORMAT_CHARS = Pattern.compile("\\p{Cf}");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern TRAILING_PUNCTUATION = Pattern.compile("[\\s.!;:,]+$");

    private TextNormalizer() {}

    /** The normalised form of {@code text} used for hashing. */
    public static String normalize(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC);
        s = FORMAT_CHARS.matcher(s).replaceAll("");
        s = s.toLowerCase(Locale.ROOT);
        s = WHITESPACE.matcher(s).replaceAll(" ").strip();
        return TRAILING_PUNCTUATION.matcher(s).replaceAll("");
    }

    /** Hex SHA-256 of the normalised text. */
    public static String contentHash(String text) {
        return Sha256.hex(normalize(text));
    }

    /** A normalised tag: NFKC, lower case, trimmed, inner whitespace runs as one '-'. */
    public static String normalizeTag(String tag) {
        String s = Normalizer.normalize(tag, Normalizer.Form.NFKC);
        s = FORMAT_CHARS.matcher(s).replaceAll("").toLowerCase(Locale.ROOT).strip();
        return WHITESPACE.matcher(s).replaceAll("-");
    }
}
