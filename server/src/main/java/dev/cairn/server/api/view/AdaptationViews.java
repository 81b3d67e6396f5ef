package dev.cairn.server.api.view;

import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.TuneReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answers of the adaptation endpoints (the feedback endpoints' are {@code
 * dev.cairn.api.view.FeedbackViews}): the trained version's report is the retrieval library's own
 * record, so these stay with the server.
 */
public final class AdaptationViews {

    private AdaptationViews() {}

    /** One adaptation version without its matrix. */
    public record AdaptationView(
            int version,
            String state,
            int replaces,
            double denseWeight,
            double priorWeight,
            int priorDocuments,
            Map<String, Double> fusion,
            int dimensions,
            TuneReport report,
            String createdAt) {

        public static AdaptationView of(Adaptation a) {
            return new AdaptationView(
                    a.version(),
                    a.state().wireName(),
                    a.replaces(),
                    a.denseWeight(),
                    a.prior().weight(),
                    a.prior().relevantQueries().size(),
                    fusionWeights(a.fusion()),
                    a.adapter().dimensions(),
                    a.report(),
                    a.createdAt().toString());
        }
    }

    /** A learned fusion's weight per feature, in feature order; empty for none. */
    private static Map<String, Double> fusionWeights(LearnedFusion fusion) {
        Map<String, Double> weights = new LinkedHashMap<>();
        double[] w = fusion.weights();
        for (int j = 0; j < w.length; j++) {
            weights.put(LearnedFusion.FEATURES.get(j), w[j]);
        }
        return weights;
    }

    /** {@code GET adaptation} and {@code DELETE adaptation}: the active one (null when none). */
    public record AdaptationState(AdaptationView active, List<AdaptationView> versions) {}
}
