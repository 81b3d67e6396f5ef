package dev.cairn.memory;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a recall query says about the people whose memories it asks for: which users it names ("What
 * does Melanie do to destress?" names Melanie) and whether it asks for several things of them
 * ("What activities does Melanie partake in?", "How many tournaments has Nate won?"). In a
 * conversation both speakers talk about the same things, and the named person's own turns are
 * likelier answers than the other speaker's replies to them; a question asking for several things
 * gathers them from that person's turns over many sessions. Immutable, thread-safe.
 */
public final class SpeakerQuery {

    /** Words that start the question's verb, not its noun. */
    private static final String AUXILIARIES =
            "(?:is|was|are|were|has|have|had|does|did|do|can|will|would)\\b";

    /**
     * A plural right after "what" or "which", one word may stand between ("What European
     * countries"; not "What does", nor "What was James" where an auxiliary stands between), read as
     * a word ending in s ("What class ..." reads as one too); a word that asks for a list
     * ("activities", "kinds", "ways"); or "how many".
     */
    private static final Pattern ASKS_FOR_SEVERAL =
            Pattern.compile(
                    "(?i)^(?:what|which)\\s+(?:(?!"
                            + AUXILIARIES
                            + ")\\w+\\s+)?(?!"
                            + AUXILIARIES
                            + ")\\w+s\\b"
                            + "|\\b(?:activities|kinds|types|ways|things|hobbies)\\b"
                            + "|^how many\\b");

    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    /** The query's words, lower case, each between two spaces. */
    private final String words;

    private final boolean asksForSeveral;

    private SpeakerQuery(String words, boolean asksForSeveral) {
        this.words = words;
        this.asksForSeveral = asksForSeveral;
    }

    public static SpeakerQuery of(String query) {
        return new SpeakerQuery(spaced(query), ASKS_FOR_SEVERAL.matcher(query.strip()).find());
    }

    /**
     * Whether the query names {@code userId}: its words stand in the query in that order ("Tim's"
     * names Tim). An empty id is named by no query.
     */
    public boolean names(String userId) {
        String id = spaced(userId);
        return !id.isBlank() && words.contains(id);
    }

    /** Whether the query asks for several things (a list, a count) rather than one. */
    public boolean asksForSeveral() {
        return asksForSeveral;
    }

    private static String spaced(String text) {
        String joined = NOT_WORD.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
        return " " + joined + " ";
    }
}
