package dev.cairn.api.body;

import java.util.List;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/judge}: an answer judged against explicit evidence, or against
 * the hits of a stored retrieve trace ({@code traceId}), under a policy (the default one when
 * absent).
 */
public record JudgeBody(
        String query, String answer, String traceId, List<EvidenceItem> evidence, String policy) {

    public JudgeBody {
        query = Objects.requireNonNullElse(query, "");
        traceId = Objects.requireNonNullElse(traceId, "");
        evidence = Objects.requireNonNullElse(evidence, List.of());
        policy = Objects.requireNonNullElse(policy, "");
    }

    /** One piece of evidence; {@code authority} defaults to the store's default. */
    public record EvidenceItem(String id, String text, String title, String authority) {}
}
