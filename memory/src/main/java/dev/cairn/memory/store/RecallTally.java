package dev.cairn.memory.store;

import java.time.Instant;

/**
 * How often a memory was recalled since its bookkeeping was last written, and when last.
 *
 * @param times recalls to add to {@code recalledCount}, at least 1
 * @param last the latest of those recalls
 */
public record RecallTally(int times, Instant last) {

    public RecallTally {
        if (times < 1) {
            throw new IllegalArgumentException("illegal times: " + times + ", must be >= 1");
        }
        java.util.Objects.requireNonNull(last, "last");
    }

    /** One recall at {@code at}. */
    public static RecallTally once(Instant at) {
        return new RecallTally(1, at);
    }

    /** This tally and {@code other} together. */
    public RecallTally plus(RecallTally other) {
        return new RecallTally(times + other.times, last.isAfter(other.last) ? last : other.last);
    }
}
