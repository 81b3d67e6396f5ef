package dev.cairn.memory;

import java.util.Locale;

/**
 * What lifts a memory's relevance above how well it matches the query (or, {@link #BRIEF}, lowers
 * it). Each is a recall parameter (MemoryServiceConfig) justified on LoCoMo's two halves and on the
 * project's own chats (docs/memory.md, "Every recall parameter, on all three sets"); a recall
 * answer shows, per memory, how much relevance each one added ({@link ScoreComponents#boosts()}),
 * so that a memory's {@code relevance} is its match plus the sum of its boosts (docs/memory.md,
 * "What a recall score is made of").
 *
 * <p>Declared in the order recall gives them: each multiplies, or adds a share of, the relevance
 * the memory has after the ones before it.
 */
public enum RecallBoost {
    /** The question names a period ("in May", "last week") and the memory was written in it. */
    PERIOD,
    /** The question asks when, and the memory states a time. */
    TIME,
    /** A share of the best match among the found turns of the memory's conversation session. */
    SESSION,
    /**
     * The memory is the other speaker's next turn after a found turn that ends asking, and was
     * found itself: the reply to a question is where its answer is, and often shares few of the
     * question's words.
     */
    ANSWER,
    /**
     * The memory is a brief conversation turn within two turns of one of the most relevant brief
     * turns of its session, and was found itself: in a chat of short messages one thought is sent
     * in several, so each found message of such a burst is as relevant as its most relevant one.
     */
    BURST,
    /** The memory is a turn of the person the question names. */
    SPEAKER,
    /** A list question asks for a facet (places, food, ...) the memory tells of. */
    FACET,
    /**
     * The namespace's active adaptation's judged-relevant prior: training queries judged the memory
     * relevant (docs/memory.md, "Learning from judgments").
     */
    JUDGED,
    /**
     * The memory is a conversation turn of few words ("lol", "did what"): a reaction seldom holds
     * the answer. The one boost that takes relevance away; its share is negative.
     */
    BRIEF;

    /** The lower-case name the API uses, e.g. {@code speaker}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
