package dev.cairn.memory.extract;

import java.util.List;

/**
 * Finds what is worth remembering in a query/response exchange. Candidates still go through the
 * {@link QualityGate}. Implementations say whether they are thread-safe; the rule-based one is.
 */
public interface MemoryExtractor {

    /** Candidates in the order found; empty when nothing is worth remembering. */
    List<Candidate> extract(ExtractionInput input);

    /** The rule-based extractor (patterns and confidences in {@link RuleBasedExtractor}). */
    static MemoryExtractor ruleBased() {
        return RuleBasedExtractor.INSTANCE;
    }
}
