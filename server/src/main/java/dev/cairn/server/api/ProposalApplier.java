package dev.cairn.server.api;

import dev.cairn.memory.proposal.Proposals;

/**
 * Applies an accepted memory proposal and answers with the JSON view of the durable memory. The
 * memory service implements the write; the server wires it. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ProposalApplier {

    /** The JSON view of the memory the proposal became (the same one when applied before). */
    Object apply(Proposals proposals, String namespace, String proposalId, String appliedBy);
}
