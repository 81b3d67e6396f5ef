package dev.cairn.judge;

import java.util.Arrays;
import java.util.Locale;

/**
 * How far a piece of evidence can be trusted, as set on its document at ingest (API.md: {@code
 * authoritative | supporting | unverified}).
 *
 * <p>Immutable and thread-safe.
 */
public enum Authority {
    /** An owned, reviewed source such as a runbook; required by the cite-authoritative rule. */
    AUTHORITATIVE,
    /** Useful background that is not the source of record. */
    SUPPORTING,
    /** Unknown provenance; the default when the evidence does not say. */
    UNVERIFIED;

    /**
     * Parses the lower-case API spelling.
     *
     * @throws IllegalArgumentException naming the legal values when {@code text} is none of them
     */
    public static Authority parse(String text) {
        for (Authority a : values()) {
            if (a.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return a;
            }
        }
        throw new IllegalArgumentException(
                "illegal authority: '"
                        + text
                        + "', must be one of "
                        + Arrays.stream(values())
                                .map(a -> a.name().toLowerCase(Locale.ROOT))
                                .toList());
    }
}
