package dev.cairn.server.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * "Did you mean" for a mistyped name: the closest of the valid names within a few edits, compared
 * without dashes and case, so {@code --namespce} finds {@code --namespace} and {@code userid} finds
 * {@code userId}. One rule for the command line's options and commands and the HTTP API's query
 * parameters. Stateless, thread-safe.
 */
public final class NearestName {

    /**
     * Edits (after dropping dashes and case) within which a valid name counts as what was meant.
     */
    public static final int MAX_DISTANCE = 3;

    private NearestName() {}

    /** "; did you mean 'X'?" for the closest candidate, or "" when none is close. */
    public static String suggestion(String typed, Collection<String> candidates) {
        String bare = bare(typed);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        List<String> sorted = new ArrayList<>(candidates);
        sorted.sort(null);
        for (String candidate : sorted) {
            int distance = distance(bare, bare(candidate));
            if (distance < bestDistance
                    || (distance == bestDistance && isLonger(candidate, best))) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int allowed = Math.min(MAX_DISTANCE, Math.max(1, bare.length() / 2));
        return best != null && bestDistance <= allowed ? "; did you mean '" + best + "'?" : "";
    }

    /** Prefers {@code --top-k} over {@code -k}: the long form says what it is. */
    private static boolean isLonger(String candidate, String best) {
        return best != null && candidate.length() > best.length();
    }

    private static String bare(String name) {
        return name.replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** Levenshtein distance with adjacent transpositions (optimal string alignment). */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] =
                        Math.min(
                                Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1
                        && j > 1
                        && a.charAt(i - 1) == b.charAt(j - 2)
                        && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
