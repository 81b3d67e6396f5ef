package dev.cairn.judge;

import java.util.Arrays;
import java.util.Locale;

/**
 * The answer plan that retrieval recommended for the query the answer responds to (API.md: {@code
 * direct | scoped | defer}). {@link #UNKNOWN} when the answer was not tied to a stored retrieval
 * trace.
 *
 * <p>Immutable and thread-safe.
 */
public enum RetrievalPlan {
    /** Evidence was strong: answer directly. */
    DIRECT,
    /** Evidence was partial: answer within what the evidence covers. */
    SCOPED,
    /** Evidence was too weak: the answer should defer rather than assert. */
    DEFER,
    /** No retrieval plan is known for this answer. */
    UNKNOWN;

    /**
     * Parses the lower-case API spelling.
     *
     * @throws IllegalArgumentException naming the legal values when {@code text} is none of them
     */
    public static RetrievalPlan parse(String text) {
        for (RetrievalPlan p : values()) {
            if (p.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException(
                "illegal plan: '"
                        + text
                        + "', must be one of "
                        + Arrays.stream(values())
                                .map(p -> p.name().toLowerCase(Locale.ROOT))
                                .toList());
    }
}
