package dev.cairn.memory.proposal;

import dev.cairn.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A stored proposal. Review and application parts are "" (strings) or {@link Instant#EPOCH}
 * (instants) until they happen; use {@link #reviewedAt()}/{@link #appliedAt()} through their
 * Optional views {@link #reviewTime()} and {@link #applyTime()}.
 *
 * @param flagged whether write safety flagged its text (stored for review, never applied unseen)
 */
public record Proposal(
        String id,
        ProposalType type,
        String title,
        String description,
        String content,
        String taskName,
        String agentName,
        MemoryType memoryType,
        ProposalStatus status,
        boolean flagged,
        String reviewer,
        String reviewNote,
        Instant reviewedAt,
        String appliedMemoryId,
        String appliedBy,
        Instant appliedAt,
        Instant createdAt,
        Instant updatedAt) {

    public Proposal {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("illegal id: blank, must have text");
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(taskName, "taskName");
        Objects.requireNonNull(agentName, "agentName");
        Objects.requireNonNull(memoryType, "memoryType");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reviewer, "reviewer");
        Objects.requireNonNull(reviewNote, "reviewNote");
        Objects.requireNonNull(reviewedAt, "reviewedAt");
        Objects.requireNonNull(appliedMemoryId, "appliedMemoryId");
        Objects.requireNonNull(appliedBy, "appliedBy");
        Objects.requireNonNull(appliedAt, "appliedAt");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (status == ProposalStatus.APPLIED && appliedMemoryId.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal proposal " + id + ": applied without appliedMemoryId");
        }
    }

    /** When it was reviewed, if it was. */
    public Optional<Instant> reviewTime() {
        return reviewer.isEmpty() ? Optional.empty() : Optional.of(reviewedAt);
    }

    /** When it was applied, if it was. */
    public Optional<Instant> applyTime() {
        return appliedMemoryId.isEmpty() ? Optional.empty() : Optional.of(appliedAt);
    }

    /**
     * Tags for the memory this proposal becomes: the first {@code Tags:} line of the description.
     */
    public List<String> suggestedTags() {
        return ProposalTags.fromDescription(description);
    }
}
