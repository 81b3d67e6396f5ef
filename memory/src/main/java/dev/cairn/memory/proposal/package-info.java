/**
 * Proposals: memories, policies, workflows and skills that agents suggest and people review.
 *
 * <p>Lifecycle: {@code pending -> accepted | rejected} (review, only from pending); {@code accepted
 * -> applied} (apply, only {@code memory} proposals; creates the durable memory, repeating it
 * returns the same memory); any status {@code -> archived} (terminal). Review never applies. Tags
 * suggested for the applied memory come from the first {@code Tags:} line of the description only
 * ({@link dev.cairn.memory.proposal.ProposalTags}).
 */
package dev.cairn.memory.proposal;
