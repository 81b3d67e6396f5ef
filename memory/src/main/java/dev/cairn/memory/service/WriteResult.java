package dev.cairn.memory.service;

import dev.cairn.memory.Memory;
import dev.cairn.safety.SafetyRule;
import dev.cairn.safety.SecretKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a write did.
 *
 * @param memory the memory as stored (the existing one for a duplicate or merge)
 * @param outcome created, exact duplicate or near-duplicate merge
 * @param similarity cosine to the memory merged into (1 for an exact duplicate, 0 when created)
 * @param superseded ids of the memories this write superseded
 * @param redactions secrets replaced, per kind (never the secrets)
 * @param flagged rules that flagged the text, so it was stored disabled; empty when none
 */
public record WriteResult(
        Memory memory,
        Outcome outcome,
        double similarity,
        List<String> superseded,
        Map<SecretKind, Integer> redactions,
        List<SafetyRule> flagged) {

    /** How a write ended. */
    public enum Outcome {
        CREATED,
        DUPLICATE,
        MERGED,
        UPDATED
    }

    public WriteResult {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(outcome, "outcome");
        superseded = List.copyOf(superseded);
        Map<SecretKind, Integer> copy = new EnumMap<>(SecretKind.class);
        copy.putAll(redactions);
        redactions = Map.copyOf(copy);
        flagged = List.copyOf(flagged);
    }

    /** Whether the write went into an existing memory (duplicate or merge). */
    public boolean deduplicated() {
        return outcome == Outcome.DUPLICATE || outcome == Outcome.MERGED;
    }
}
