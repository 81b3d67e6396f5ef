package dev.cairn.memory.extract;

import dev.cairn.memory.MemoryType;
import java.util.Objects;

/**
 * A memory an extractor proposes. {@code rule} names why (a rule name for the rule-based extractor,
 * {@code "llm"} plus the model's reason for an LLM extractor).
 */
public record Candidate(MemoryType type, String content, double confidence, String rule) {
    public Candidate {
        Objects.requireNonNull(type, "type");
        content = Objects.requireNonNull(content, "content").strip();
        if (content.isEmpty()) {
            throw new IllegalArgumentException("illegal content: blank, must have text");
        }
        if (!(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal confidence: " + confidence + ", must be in [0, 1]");
        }
        rule = Objects.requireNonNull(rule, "rule").strip();
    }
}
