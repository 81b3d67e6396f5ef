package dev.cairn.memory;

import java.util.Objects;

/** What to do with a new memory given the memories already in its scope. */
public sealed interface DedupDecision {

    /** Nothing matches: insert a new memory. */
    record Insert() implements DedupDecision {}

    /**
     * Same type and same normalised text in the same scope: the write reinforces {@code existing}
     * (see {@link MemoryLifecycle#reinforce}) and answers with it.
     */
    record Duplicate(Memory existing) implements DedupDecision {
        public Duplicate {
            Objects.requireNonNull(existing, "existing");
        }
    }

    /**
     * An ACTIVE memory of the same type and scope with cosine similarity of at least the merge
     * threshold: merge into {@code existing} (API answers 200 with {@code deduplicatedInto}).
     */
    record Merge(Memory existing, double similarity) implements DedupDecision {
        public Merge {
            Objects.requireNonNull(existing, "existing");
            if (!(similarity >= -1.0 && similarity <= 1.0)) {
                throw new IllegalArgumentException(
                        "illegal similarity: " + similarity + ", must be in [-1, 1]");
            }
        }
    }
}
