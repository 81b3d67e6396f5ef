package dev.cairn.safety;

import java.util.ArrayList;
import java.util.List;

/**
 * What a text must contain for a pattern to be able to match it, checked with {@code contains}
 * before the pattern runs: most texts hold no secret and no injection, and running every pattern
 * over every string of every write was a fifth of a busy server's CPU. A screen is a few literal
 * searches; it never decides a match, it only skips patterns that cannot match.
 *
 * @param caseless whether the needles are looked for in the ASCII lower-case copy (for a pattern
 *     with {@code (?i)}, which folds ASCII only)
 * @param groups literal parts: every match contains one needle of each group
 * @param tokenRun when positive, the least length of a run of {@code [A-Za-z0-9/+_-]} every match
 *     contains, for a pattern with no literal part (groups are then empty)
 */
record Screen(boolean caseless, List<List<String>> groups, int tokenRun) {

    /** Every match contains one of {@code needles}. */
    static Screen of(String... needles) {
        return new Screen(false, List.of(List.of(needles)), 0);
    }

    /** Every match contains one of {@code needles}, in any ASCII case. */
    static Screen caseless(String... needles) {
        return new Screen(true, List.of(List.of(needles)), 0);
    }

    /** Every match contains a run of at least {@code least} token characters. */
    static Screen tokenRun(int least) {
        return new Screen(false, List.of(), least);
    }

    /** This screen, and every match also contains one of {@code needles}. */
    Screen and(String... needles) {
        List<List<String>> more = new ArrayList<>(groups);
        more.add(List.of(needles));
        return new Screen(caseless, List.copyOf(more), tokenRun);
    }

    boolean admits(Screened text) {
        if (tokenRun > 0) {
            return text.longestTokenRun() >= tokenRun;
        }
        String haystack = caseless ? text.lowerCase() : text.text();
        for (List<String> group : groups) {
            if (!containsAny(haystack, group)) {
                return false;
            }
        }
        return true;
    }

    private static boolean containsAny(String haystack, List<String> needles) {
        for (String needle : needles) {
            if (haystack.contains(needle)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A text as screens read it: itself, its ASCII lower-case copy (the same length) and its
     * longest run of token characters, each computed once for all the patterns.
     */
    record Screened(String text, String lowerCase, int longestTokenRun) {

        static Screened of(String text) {
            char[] lower = new char[text.length()];
            int longest = 0;
            int run = 0;
            for (int i = 0; i < lower.length; i++) {
                char c = text.charAt(i);
                lower[i] = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
                boolean token =
                        (c >= 'a' && c <= 'z')
                                || (c >= 'A' && c <= 'Z')
                                || (c >= '0' && c <= '9')
                                || c == '/'
                                || c == '+'
                                || c == '_'
                                || c == '-';
                run = token ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            return new Screened(text, new String(lower), longest);
        }
    }
}
