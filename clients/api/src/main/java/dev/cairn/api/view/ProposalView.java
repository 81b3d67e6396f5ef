package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A proposal: {@code memoryType} and {@code suggestedTags} only for memory proposals, the review
 * fields once reviewed, the apply fields once applied.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProposalView(
        String id,
        String type,
        String title,
        String description,
        String content,
        String taskName,
        String agentName,
        String memoryType,
        List<String> suggestedTags,
        String status,
        boolean flagged,
        String reviewer,
        String reviewNote,
        String reviewedAt,
        String appliedMemoryId,
        String appliedBy,
        String appliedAt,
        String createdAt,
        String updatedAt) {}
