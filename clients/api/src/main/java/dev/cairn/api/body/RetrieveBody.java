package dev.cairn.api.body;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/retrieve} (also the {@code retrieve} tool's arguments and the
 * command line's request). {@code trace} asks for the candidate trace in the answer, like the
 * {@code ?trace=true} query parameter. A null {@code topK}, {@code candidates}, {@code k} or {@code
 * fusion}, or weight, takes the server's default (10, 100, 60, {@code adaptive}, 1.0 each). {@code
 * userId} names who the query was asked for: the stored trace keeps it, so forgetting the user
 * removes the trace.
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
        weights = Objects.requireNonNullElse(weights, Weights.DEFAULTS);
        filters = Objects.requireNonNullElse(filters, Filters.NONE);
        explain = Objects.requireNonNullElse(explain, false);
        trace = Objects.requireNonNullElse(trace, false);
        userId = Objects.requireNonNullElse(userId, "");
    }

    /** A query with every default but {@code topK} (null: the default too). */
    public static RetrieveBody of(String query, Integer topK) {
        return new RetrieveBody(query, topK, null, null, null, null, null, null, null, null);
    }

    /** This request with {@code filters} in place of its own. */
    public RetrieveBody withFilters(Filters newFilters) {
        return new RetrieveBody(
                query, topK, candidates, weights, k, fusion, newFilters, explain, trace, userId);
    }

    /** Signal weights; a null one keeps the server's default. */
    public record Weights(Double lexical, Double dense, Double graph) {
        /** Every weight at the server's default. */
        public static final Weights DEFAULTS = new Weights(null, null, null);
    }

    /**
     * Filters on the hits; {@code authority} is one name or an array of names. {@code metadata}
     * maps a document metadata key to the values it may have (the stored text, compared exactly).
     */
    public record Filters(
            List<String> tags,
            List<String> sources,
            @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                    List<String> authority,
            Map<String, List<String>> metadata) {
        /** No filter. */
        public static final Filters NONE = new Filters(null, null, null, null);

        public Filters {
            tags = Objects.requireNonNullElse(tags, List.of());
            sources = Objects.requireNonNullElse(sources, List.of());
            authority = Objects.requireNonNullElse(authority, List.of());
            metadata = Objects.requireNonNullElse(metadata, Map.of());
        }

        /** Filters on the document fields alone, no metadata. */
        public Filters(List<String> tags, List<String> sources, List<String> authority) {
            this(tags, sources, authority, null);
        }
    }
}
