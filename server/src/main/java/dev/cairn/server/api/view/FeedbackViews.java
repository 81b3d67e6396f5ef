package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.TuneReport;
import java.util.List;

/** The answers of the feedback and adaptation endpoints. */
public final class FeedbackViews {

    private FeedbackViews() {}

    /** One recorded judgment: exactly one of the three target ids is set. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record JudgmentView(
            String id,
            String query,
            String documentId,
            String chunkId,
            String memoryId,
            int grade,
            String source,
            String createdAt) {

        public static JudgmentView of(Judgment j) {
            Judgment.Target t = j.target();
            return new JudgmentView(
                    j.id(),
                    j.query(),
                    t.kind() == Judgment.Kind.DOCUMENT ? t.id() : null,
                    t.kind() == Judgment.Kind.CHUNK ? t.id() : null,
                    t.kind() == Judgment.Kind.MEMORY ? t.id() : null,
                    j.grade(),
                    j.source().wireName(),
                    j.createdAt().toString());
        }
    }

    /** The answer of {@code POST feedback}. */
    public record Recorded(int recorded, List<JudgmentView> items) {}

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
