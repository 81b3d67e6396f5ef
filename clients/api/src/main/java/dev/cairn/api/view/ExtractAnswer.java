package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The answer of {@code POST extract}: what became of each candidate. */
public record ExtractAnswer(List<Candidate> candidates) {

    /**
     * A candidate and its outcome, {@code stored}, {@code proposed} or {@code rejected}, with the
     * quality gate's reason; the memory or proposal id when one was made.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Candidate(
            String type,
            String content,
            double confidence,
            String status,
            String reason,
            String memoryId,
            String proposalId) {}
}
