package dev.cairn.server.api.body;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.cairn.retrieval.FusionStrategy;
import dev.cairn.retrieval.RetrieveFilters;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.store.Authority;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * {@code POST /v1/namespaces/{ns}/retrieve} (also the {@code retrieve} tool's arguments and the
 * command line's request). {@code trace} asks for the candidate trace in the answer, like the
 * {@code ?trace=true} query parameter. {@code userId} names who the query was asked for: the stored
 * trace keeps it, so forgetting the user removes the trace.
 */
public record RetrieveBody(
        String query,
        Integer topK,
        Integer candidates,
        Weights weights,
        Integer k,
        String fusion,
        Filters filters,
        Boolean explain,
        Boolean trace,
        String userId) {

    public RetrieveBody {
        query = Objects.requireNonNullElse(query, "");
        topK = Objects.requireNonNullElse(topK, RetrieveRequest.DEFAULT_TOP_K);
        candidates = Objects.requireNonNullElse(candidates, RetrieveRequest.DEFAULT_CANDIDATES);
        weights = Objects.requireNonNullElse(weights, Weights.DEFAULTS);
        k = Objects.requireNonNullElse(k, Fusion.DEFAULT_K);
        fusion =
                Objects.requireNonNullElse(
                        fusion, FusionStrategy.DEFAULT.name().toLowerCase(Locale.ROOT));
        filters = Objects.requireNonNullElse(filters, Filters.NONE);
        explain = Objects.requireNonNullElse(explain, false);
        trace = Objects.requireNonNullElse(trace, false);
        userId = Objects.requireNonNullElse(userId, "");
    }

    /** A query with every default. */
    public static RetrieveBody of(String query, int topK) {
        return new RetrieveBody(query, topK, null, null, null, null, null, null, null, null);
    }

    /** Signal weights; an absent one keeps its default. */
    public record Weights(Double lexical, Double dense, Double graph) {
        static final Weights DEFAULTS = new Weights(null, null, null);

        public Weights {
            lexical = Objects.requireNonNullElse(lexical, SignalWeights.DEFAULT_LEXICAL);
            dense = Objects.requireNonNullElse(dense, SignalWeights.DEFAULT_DENSE);
            graph = Objects.requireNonNullElse(graph, SignalWeights.DEFAULT_GRAPH);
        }
    }

    /** Filters on the hits; {@code authority} is one name or an array of names. */
    public record Filters(
            List<String> tags,
            List<String> sources,
            @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                    List<String> authority) {
        static final Filters NONE = new Filters(null, null, null);

        public Filters {
            tags = Objects.requireNonNullElse(tags, List.of());
            sources = Objects.requireNonNullElse(sources, List.of());
            authority = Objects.requireNonNullElse(authority, List.of());
        }

        RetrieveFilters toFilters() {
            Set<Authority> authorities = EnumSet.noneOf(Authority.class);
            authority.forEach(a -> authorities.add(Authority.parse(a)));
            return new RetrieveFilters(tags, sources, authorities);
        }
    }

    /** The retrieve request; the library checks the ranges. */
    public RetrieveRequest toRequest() {
        return new RetrieveRequest(
                query,
                topK,
                candidates,
                SignalWeights.of(weights.lexical(), weights.dense(), weights.graph()),
                k,
                FusionStrategy.parse(fusion),
                filters.toFilters(),
                explain,
                userId);
    }
}
