package dev.cairn.server.transfer;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalStatus;
import dev.cairn.memory.proposal.ProposalType;
import java.time.Instant;

/**
 * A proposal as one line of the export file, whatever its status, with its review and application
 * ({@code ""} and the epoch until they happen).
 */
record ExportedProposal(
        String type,
        String id,
        ProposalType proposalType,
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

    static final String TYPE = "proposal";

    static ExportedProposal of(Proposal p) {
        return new ExportedProposal(
                TYPE,
                p.id(),
                p.type(),
                p.title(),
                p.description(),
                p.content(),
                p.taskName(),
                p.agentName(),
                p.memoryType(),
                p.status(),
                p.flagged(),
                p.reviewer(),
                p.reviewNote(),
                p.reviewedAt(),
                p.appliedMemoryId(),
                p.appliedBy(),
                p.appliedAt(),
                p.createdAt(),
                p.updatedAt());
    }

    /**
     * The proposal this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    Proposal proposal() {
        dev.cairn.store.Identifiers.requireId(id, "proposal id");
        return new Proposal(
                id,
                proposalType,
                title,
                description,
                content,
                taskName,
                agentName,
                memoryType,
                status,
                flagged,
                reviewer,
                reviewNote,
                reviewedAt,
                appliedMemoryId,
                appliedBy,
                appliedAt,
                createdAt,
                updatedAt);
    }
}
