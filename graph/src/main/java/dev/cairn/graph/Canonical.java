package dev.cairn.graph;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Canonical keys of entity names: two surface forms with the same key are the same entity.
 *
 * <p>The key is lower case; spaces, {@code _} and {@code -} become one {@code -}; dots stay (host
 * names, dotted identifiers); quotes, backticks and other punctuation go; the last word of a plain
 * word phrase is made singular ("Databases" and "database" meet). So {@code "Ledger DB"}, {@code
 * "ledger_db"} and {@code "ledger-db"} share the key {@code ledger-db}. Aliases and acronyms are
 * not handled here but by {@link Gazetteer}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Canonical {

    private static final Pattern SEPARATORS = Pattern.compile("[\\s_\\-]+");
    private static final Pattern DROPPED = Pattern.compile("[^a-z0-9.\\-]");
    private static final Pattern WORD_PHRASE =
            Pattern.compile("[A-Za-z][A-Za-z\\-]*(?: +[A-Za-z\\-]+)*");

    private Canonical() {}

    /**
     * The canonical key of a surface form; empty when nothing is left.
     *
     * @param surface a name as written
     * @return its key
     */
    public static String key(String surface) {
        if (isKey(surface)) {
            return surface;
        }
        String s = surface.strip();
        if (WORD_PHRASE.matcher(s).matches()) {
            s = singularLastWord(s);
        }
        s = s.toLowerCase(Locale.ROOT);
        s = SEPARATORS.matcher(s).replaceAll("-");
        s = DROPPED.matcher(s).replaceAll("");
        s = s.replaceAll("-{2,}", "-").replaceAll("\\.{2,}", ".");
        int from = 0;
        int to = s.length();
        while (from < to && (s.charAt(from) == '-' || s.charAt(from) == '.')) {
            from++;
        }
        while (to > from && (s.charAt(to - 1) == '-' || s.charAt(to - 1) == '.')) {
            to--;
        }
        return s.substring(from, to);
    }

    /** Fast path: already a key (lower case letters, digits, inner single '-' or '.'). */
    private static boolean isKey(String s) {
        int n = s.length();
        if (n == 0) {
            return true;
        }
        boolean letters = true;
        char previous = '-';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '-' || c == '.') {
                if (previous == '-' || previous == '.') {
                    return false;
                }
            } else if (c >= '0' && c <= '9') {
                letters = false;
            } else if (c < 'a' || c > 'z') {
                return false;
            }
            previous = c;
        }
        if (previous == '-' || previous == '.') {
            return false;
        }
        // A plain word phrase may still need its last word made singular.
        return !letters || singularLastWord(s).equals(s);
    }

    /**
     * Singular of an English word by suffix rules (no dictionary): {@code ies -> y}, {@code sses ->
     * ss}, {@code ches/shes/xes -> drop es}, else a final {@code s} goes unless the word ends in
     * {@code ss}, {@code us} or {@code is} or has at most three letters.
     */
    static String singular(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.length() <= 3 || !w.endsWith("s") || word.equals(word.toUpperCase(Locale.ROOT))) {
            return word;
        }
        if (w.endsWith("ies") && w.length() > 4) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (w.endsWith("sses")) {
            return word.substring(0, word.length() - 2);
        }
        if (w.endsWith("ches") || w.endsWith("shes") || w.endsWith("xes")) {
            return word.substring(0, word.length() - 2);
        }
        if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) {
            return word;
        }
        return word.substring(0, word.length() - 1);
    }

    private static String singularLastWord(String phrase) {
        int cut = Math.max(Math.max(phrase.lastIndexOf(' '), phrase.lastIndexOf('-')), -1);
        return phrase.substring(0, cut + 1) + singular(phrase.substring(cut + 1));
    }
}
