package dev.cairn.retrieval.feedback;

/**
 * What training an adaptation found: how the judged queries were split and the mean nDCG@10 of the
 * held-back ones, under the ranking before (the namespace's active adaptation, or none) and with
 * the new adapter. The adapter is activated only when {@code adaptedNdcg10 > baselineNdcg10}.
 *
 * @param trainQueries judged queries trained on
 * @param heldOutQueries judged queries held back for the comparison
 * @param judgments document and chunk judgments used (memory judgments are not used)
 * @param baselineVersion the adaptation active before, 0 when none
 * @param baselineNdcg10 mean nDCG@10 of the held-back queries before
 * @param adaptedNdcg10 mean nDCG@10 of the held-back queries with the new adapter
 * @param activated whether the adapter was activated
 * @param denseWeight the dense weight factor chosen on the training queries
 * @param trainMillis time spent training
 */
public record TuneReport(
        int trainQueries,
        int heldOutQueries,
        int judgments,
        int baselineVersion,
        double baselineNdcg10,
        double adaptedNdcg10,
        boolean activated,
        double denseWeight,
        long trainMillis) {}
