package dev.cairn.memory;

import java.util.regex.Pattern;

/**
 * Whether a recall query asks for several things of the people it names ("What activities does
 * Melanie partake in?", "How many tournaments has Nate won?"): such an answer is gathered from that
 * person's turns over many sessions. Which people a query names is {@link PersonNames}'s.
 * Immutable, thread-safe.
 */
public final class SpeakerQuery {

    /** Words that start the question's verb, not its noun. */
    private static final String AUXILIARIES =
            "(?:is|was|are|were|has|have|had|does|did|do|can|will|would)\\b";

    /**
     * A plural right after "what" or "which", one word may stand between ("What European
     * countries"; not "What does", nor "What was James" where an auxiliary stands between), read as
     * a word ending in s ("What class ..." reads as one too); a word that asks for a list
     * ("activities", "kinds", "ways"); "how many"; the perfect, which asks what has gathered over
     * time ("What has Luci baked?", "Where has Mari lived?", "Who has come to stay?"); "which of"
     * ("Which of Tom's relatives ..."); and a plural after a possessive ("What are Melanie's pets'
     * names?").
     */
    private static final Pattern ASKS_FOR_SEVERAL =
            Pattern.compile(
                    "(?i)^(?:what|which)\\s+(?:(?!"
                            + AUXILIARIES
                            + ")\\w+\\s+)?(?!"
                            + AUXILIARIES
                            + ")\\w+s\\b"
                            + "|\\b(?:activities|kinds|types|ways|things|hobbies)\\b"
                            + "|^how many\\b"
                            + "|^(?:what|where|who|which)\\s+(?:has|have)\\b"
                            + "|^which\\s+of\\b"
                            + "|^(?:what|which)\\s+(?:are|were)\\s+\\w+'s\\s+(?:\\w+\\s+)?\\w+s\\b");

    private final boolean asksForSeveral;

    private SpeakerQuery(boolean asksForSeveral) {
        this.asksForSeveral = asksForSeveral;
    }

    public static SpeakerQuery of(String query) {
        return new SpeakerQuery(ASKS_FOR_SEVERAL.matcher(query.strip()).find());
    }

    /** Whether the query asks for several things (a list, a count) rather than one. */
    public boolean asksForSeveral() {
        return asksForSeveral;
    }
}
