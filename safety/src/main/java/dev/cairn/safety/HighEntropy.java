package dev.cairn.safety;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a bare token looks like a random secret rather than something a person named: long enough
 * to be a key (an AWS secret access key is 40 characters), both letter cases and a digit or base64
 * symbol (lower-case hex such as a git SHA never qualifies), at least {@link #MIN_ENTROPY} bits of
 * Shannon entropy per character (detect-secrets' base64 limit is 4.5 for its whole string; 4.2
 * keeps 99% of random 40-character keys), and mostly not made of words (camel-case names such as
 * {@code CustomerSupportAgentVersion2Production} have a random string's entropy but are readable).
 * Stateless, thread-safe.
 */
final class HighEntropy {

    /** Shortest token considered: the length of an AWS secret access key. */
    static final int MIN_LENGTH = 40;

    /** Least bits of entropy per character. */
    static final double MIN_ENTROPY = 4.2;

    /** Most of the token that may be word-like segments ("Customer", "deploy", "Stage"). */
    static final double MAX_WORD_SHARE = 0.5;

    private static final Pattern WORD = Pattern.compile("[A-Z]?[a-z]{2,}");

    private HighEntropy() {}

    static boolean secretLike(String token) {
        String t = token.replaceAll("=+$", "");
        if (t.length() < MIN_LENGTH) {
            return false;
        }
        boolean upper = false;
        boolean lower = false;
        boolean digitOrSymbol = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
            digitOrSymbol |= (c >= '0' && c <= '9') || c == '+' || c == '/';
        }
        return upper
                && lower
                && digitOrSymbol
                && entropy(t) >= MIN_ENTROPY
                && wordShare(t) < MAX_WORD_SHARE;
    }

    /** Shannon entropy of the characters of {@code s}, in bits per character. */
    static double entropy(String s) {
        int[] counts = new int[128];
        for (int i = 0; i < s.length(); i++) {
            counts[s.charAt(i) & 127]++;
        }
        double bits = 0;
        for (int n : counts) {
            if (n > 0) {
                double p = (double) n / s.length();
                bits -= p * Math.log(p) / Math.log(2);
            }
        }
        return bits;
    }

    /**
     * The share of {@code s} in word-like segments: a capital or not, then lower case with a vowel.
     */
    static double wordShare(String s) {
        int covered = 0;
        Matcher m = WORD.matcher(s);
        while (m.find()) {
            if (m.group().chars().anyMatch(c -> "aeiouy".indexOf(Character.toLowerCase(c)) >= 0)) {
                covered += m.end() - m.start();
            }
        }
        return (double) covered / s.length();
    }
}
