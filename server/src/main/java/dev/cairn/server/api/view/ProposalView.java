package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalType;
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
        String updatedAt) {

    public static ProposalView of(Proposal p) {
        boolean memory = p.type() == ProposalType.MEMORY;
        boolean reviewed = p.reviewTime().isPresent();
        boolean applied = p.applyTime().isPresent();
        return new ProposalView(
                p.id(),
                p.type().wireName(),
                p.title(),
                p.description(),
                p.content(),
                p.taskName(),
                p.agentName(),
                memory ? p.memoryType().name() : null,
                memory ? p.suggestedTags() : null,
                p.status().wireName(),
                p.flagged(),
                reviewed ? p.reviewer() : null,
                reviewed ? p.reviewNote() : null,
                reviewed ? p.reviewedAt().toString() : null,
                applied ? p.appliedMemoryId() : null,
                applied ? p.appliedBy() : null,
                applied ? p.appliedAt().toString() : null,
                p.createdAt().toString(),
                p.updatedAt().toString());
    }
}
