package dev.cairn.retrieval.internal;

import dev.cairn.store.Schema;
import java.util.List;

/**
 * The retrieval module's tables in the store: documents and their chunks, traces of retrieve calls,
 * relevance feedback and the query adapters trained from it, and the entity graph's declarations
 * and mentions.
 */
public final class RetrievalSchema implements Schema {

    @Override
    public String module() {
        return "retrieval";
    }

    @Override
    public String resourceRoot() {
        return "/dev/cairn/retrieval/schema/";
    }

    @Override
    public List<String> migrations() {
        return List.of(
                "V002__retrieval_traces.sql",
                "V005__entity_graph.sql",
                "V009__trace_candidate_detail.sql",
                "V010__documents.sql",
                "V011__feedback.sql",
                "V014__trace_entries_in_row.sql",
                "V016__adaptation_prior.sql",
                "V017__model_id_without_precision.sql",
                "V020__trace_user.sql",
                "V024__feedback_target_index.sql",
                "V027__adaptation_learned_fusion.sql");
    }
}
