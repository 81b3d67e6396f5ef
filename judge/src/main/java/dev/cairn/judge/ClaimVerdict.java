package dev.cairn.judge;

import java.util.List;
import java.util.Objects;

/**
 * The verdict on one claim of an answer; explains itself through {@code reasons}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the claim with its citations stripped
 * @param citations ids of the evidence the claim cites, in citation order, without duplicates
 * @param supported whether at least one cited evidence item supports the claim
 * @param contradicted whether any evidence item (cited or not) contradicts the claim
 * @param supportedBy ids of the cited evidence that supports the claim
 * @param contradictedBy ids of the evidence that contradicts the claim
 * @param reasons one human-readable line per finding, e.g. {@code "[e1] supports: similarity 0.82,
 *     overlap 1.00"}, {@code "[e2] contradicts: number 500 vs 100"}
 */
public record ClaimVerdict(
        String text,
        List<String> citations,
        boolean supported,
        boolean contradicted,
        List<String> supportedBy,
        List<String> contradictedBy,
        List<String> reasons) {

    public ClaimVerdict {
        Objects.requireNonNull(text, "text");
        citations = List.copyOf(citations);
        supportedBy = List.copyOf(supportedBy);
        contradictedBy = List.copyOf(contradictedBy);
        reasons = List.copyOf(reasons);
        if (supported != !supportedBy.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal verdict: supported="
                            + supported
                            + " but supportedBy="
                            + supportedBy
                            + ", must agree");
        }
        if (contradicted != !contradictedBy.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal verdict: contradicted="
                            + contradicted
                            + " but contradictedBy="
                            + contradictedBy
                            + ", must agree");
        }
    }
}
