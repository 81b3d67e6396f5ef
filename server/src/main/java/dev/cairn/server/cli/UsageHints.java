package dev.cairn.server.cli;

import dev.cairn.server.http.NearestName;
import java.util.Collection;
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
        return NearestName.suggestion(typed, candidates);
    }
}
