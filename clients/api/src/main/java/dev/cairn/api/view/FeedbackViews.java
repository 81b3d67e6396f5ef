package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The answers of the feedback endpoints. */
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
            String createdAt) {}

    /** The answer of {@code POST feedback}. */
    public record Recorded(int recorded, List<JudgmentView> items) {}
}
