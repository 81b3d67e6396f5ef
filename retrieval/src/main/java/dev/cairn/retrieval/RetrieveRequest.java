package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.SignalWeights;
import java.util.Objects;

/**
 * One retrieve call.
 *
 * @param query free text, not blank, at most {@value #MAX_QUERY_CHARS} characters
 * @param topK hits to select, 1..{@value #MAX_TOP_K}
 * @param candidates how many candidates each signal returns, 1..{@value #MAX_CANDIDATES}; raised to
 *     {@code topK} when smaller
 * @param weights fusion weight per signal; 0 drops a signal
 * @param k the RRF constant, >= 1
 * @param fusion how signals are fused
 * @param filters document filters applied after fusion
 * @param explain whether to keep Lucene's explanation of each lexical score in the trace
 * @param userId who the query was asked for ("" when no one in particular); kept with the stored
 *     trace, so forgetting the user removes it
 */
public record RetrieveRequest(
        String query,
        int topK,
        int candidates,
        SignalWeights weights,
        int k,
        FusionStrategy fusion,
        RetrieveFilters filters,
        boolean explain,
        String userId) {

    public static final int DEFAULT_TOP_K = 10;
    public static final int MAX_TOP_K = 1000;
    public static final int DEFAULT_CANDIDATES = 100;
    public static final int MAX_CANDIDATES = 1000;
    public static final int MAX_QUERY_CHARS = 4096;

    public RetrieveRequest {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("query must not be empty");
        }
        if (query.length() > MAX_QUERY_CHARS) {
            throw new IllegalArgumentException(
                    "illegal query length: " + query.length() + ", must be <= " + MAX_QUERY_CHARS);
        }
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new IllegalArgumentException(
                    "illegal topK: " + topK + ", must be in [1, " + MAX_TOP_K + "]");
        }
        if (candidates < 1 || candidates > MAX_CANDIDATES) {
            throw new IllegalArgumentException(
                    "illegal candidates: "
                            + candidates
                            + ", must be in [1, "
                            + MAX_CANDIDATES
                            + "]");
        }
        candidates = Math.max(candidates, topK);
        Objects.requireNonNull(weights, "weights");
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        Objects.requireNonNull(fusion, "fusion");
        Objects.requireNonNull(filters, "filters");
        userId = Objects.requireNonNull(userId, "userId").strip();
    }

    /** A request asked for no user in particular. */
    public RetrieveRequest(
            String query,
            int topK,
            int candidates,
            SignalWeights weights,
            int k,
            FusionStrategy fusion,
            RetrieveFilters filters,
            boolean explain) {
        this(query, topK, candidates, weights, k, fusion, filters, explain, "");
    }

    /** A request with every default: top 10 of 100 candidates, default weights, RRF k = 60. */
    public static RetrieveRequest of(String query) {
        return new RetrieveRequest(
                query,
                DEFAULT_TOP_K,
                DEFAULT_CANDIDATES,
                SignalWeights.DEFAULTS,
                dev.cairn.retrieval.fusion.Fusion.DEFAULT_K,
                FusionStrategy.DEFAULT,
                RetrieveFilters.NONE,
                false);
    }

    /**
     * The same request asked for {@code newUserId}: its stored trace carries the user, so
     * forgetting the user removes it.
     */
    public RetrieveRequest withUserId(String newUserId) {
        return new RetrieveRequest(
                query, topK, candidates, weights, k, fusion, filters, explain, newUserId);
    }

    public RetrieveRequest withTopK(int newTopK) {
        return new RetrieveRequest(
                query, newTopK, candidates, weights, k, fusion, filters, explain, userId);
    }

    public RetrieveRequest withWeights(SignalWeights newWeights) {
        return new RetrieveRequest(
                query, topK, candidates, newWeights, k, fusion, filters, explain, userId);
    }

    public RetrieveRequest withCandidates(int newCandidates) {
        return new RetrieveRequest(
                query, topK, newCandidates, weights, k, fusion, filters, explain, userId);
    }

    public RetrieveRequest withFusion(FusionStrategy newFusion) {
        return new RetrieveRequest(
                query, topK, candidates, weights, k, newFusion, filters, explain, userId);
    }

    public RetrieveRequest withFilters(RetrieveFilters newFilters) {
        return new RetrieveRequest(
                query, topK, candidates, weights, k, fusion, newFilters, explain, userId);
    }
}
