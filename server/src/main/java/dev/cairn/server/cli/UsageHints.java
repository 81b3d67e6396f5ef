package dev.cairn.server.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns picocli's usage errors into one plain sentence that names the word the user typed and the
 * closest valid option or command. Picocli reports a missing required option before an unknown one,
 * so {@code --namespce ops} would otherwise read "Missing required option '--namespace'" without
 * ever naming the typo; this class looks for the typo first. Stateless, thread-safe.
 */
final class UsageHints {

    /** Edits (after dropping dashes) within which a valid name counts as what was meant. */
    static final int MAX_DISTANCE = 3;

    private UsageHints() {}

    /** The message for a usage error raised while parsing {@code args}. */
    static String message(ParameterException e, String... args) {
        CommandLine where = e.getCommandLine();
        if (e instanceof UnmatchedArgumentException unmatched
                && !where.getSubcommands().isEmpty()
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().getFirst().startsWith("-")) {
            String typed = unmatched.getUnmatched().getFirst();
            return "unknown command '"
                    + typed
                    + "'"
                    + suggestion(typed, where.getSubcommands().keySet())
                    + " (commands: "
                    + String.join(", ", where.getSubcommands().keySet())
                    + ")";
        }
        Optional<String> unknownOption = unknownOption(where.getCommandSpec(), args);
        if (unknownOption.isPresent()) {
            String typed = unknownOption.get();
            return "unknown option '"
                    + typed
                    + "'"
                    + suggestion(typed, where.getCommandSpec().optionsMap().keySet())
                    + " (see "
                    + where.getCommandSpec().qualifiedName()
                    + " --help)";
        }
        return e.getMessage();
    }

    /**
     * The first argument that looks like an option but is none of {@code spec}'s. Negative numbers
     * are values, and everything after {@code --} is positional.
     */
    static Optional<String> unknownOption(CommandSpec spec, String... args) {
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (!arg.startsWith("-") || arg.equals("-") || arg.matches("-\\d.*")) {
                continue;
            }
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (!spec.optionsMap().containsKey(name)
                    && !spec.negatedOptionsMap().containsKey(name)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /** "; did you mean 'X'?" for the closest candidate, or nothing when none is close. */
    static String suggestion(String typed, Collection<String> candidates) {
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
    static int distance(String a, String b) {
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
