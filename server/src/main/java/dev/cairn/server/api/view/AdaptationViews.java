package dev.cairn.server.api.view;

import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.TuneReport;
import java.util.List;

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
                    a.adapter().dimensions(),
                    a.report(),
                    a.createdAt().toString());
        }
    }

    /** {@code GET adaptation} and {@code DELETE adaptation}: the active one (null when none). */
    public record AdaptationState(AdaptationView active, List<AdaptationView> versions) {}
}
