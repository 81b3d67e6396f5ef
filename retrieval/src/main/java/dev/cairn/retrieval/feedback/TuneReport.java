package dev.cairn.retrieval.feedback;

/**
 * What training an adaptation found: how the judged queries were split ({@link JudgmentSplit}) and
 * the mean nDCG@10 of the held-back ones, under the ranking before (the namespace's active
 * adaptation, or none) and with the new adaptation, over all of them and apart for those whose
 * relevant documents a training query judged (seen) and those whose it did not (unseen). Whether it
 * was activated follows {@link ActivationRule}.
 *
 * @param trainQueries judged queries trained on
 * @param heldOutQueries judged queries held back for the comparison (seen and unseen)
 * @param judgments document and chunk judgments used (memory judgments are not used)
 * @param baselineVersion the adaptation active before, 0 when none
 * @param baselineNdcg10 mean nDCG@10 of the held-back queries before
 * @param adaptedNdcg10 mean nDCG@10 of the held-back queries with the new adaptation
 * @param activated whether the adaptation was activated
 * @param denseWeight the dense weight factor, chosen on a document-disjoint inner part of the
 *     training queries
 * @param denseWeightQueries the queries it was chosen on: training queries held back from an inner
 *     adapter, none of whose relevant keys it trained on; 0 when there were none (the factor is
 *     then 1, and reports stored before the choice read 0)
 * @param trainMillis time spent training
 * @param seenDocuments the held-back queries with a relevant document some training query judged
 * @param unseenDocuments the held-back queries none of whose relevant documents was trained on
 * @param noiseBand how far the unseen queries' nDCG@10 could fall and still count as not worse
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
        int denseWeightQueries,
        long trainMillis,
        HeldBackScore seenDocuments,
        HeldBackScore unseenDocuments,
        double noiseBand) {

    public TuneReport {
        // reports stored before the document-disjoint hold-out (issue 42) have no groups
        seenDocuments = seenDocuments == null ? HeldBackScore.NONE : seenDocuments;
        unseenDocuments = unseenDocuments == null ? HeldBackScore.NONE : unseenDocuments;
    }

    /** This report with {@code activated} set to {@code value}. */
    public TuneReport withActivated(boolean value) {
        return new TuneReport(
                trainQueries,
                heldOutQueries,
                judgments,
                baselineVersion,
                baselineNdcg10,
                adaptedNdcg10,
                value,
                denseWeight,
                denseWeightQueries,
                trainMillis,
                seenDocuments,
                unseenDocuments,
                noiseBand);
    }
}
