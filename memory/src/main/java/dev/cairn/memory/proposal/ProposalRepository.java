package dev.cairn.memory.proposal;

import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.SqlAccess;
import java.time.Clock;
import java.util.Optional;

/**
 * Proposals in the store's database, with the lifecycle rules of the package documentation: a
 * transition from the wrong status is an {@link IllegalStateException} (409), an unknown id a
 * {@link java.util.NoSuchElementException} (404). Implementations are thread-safe; each transition
 * is one conditional update, so two racing reviews cannot both succeed.
 */
public interface ProposalRepository {

    static ProposalRepository sql(SqlAccess sql) {
        return new SqlProposalRepository(sql, Clock.systemUTC());
    }

    static ProposalRepository sql(SqlAccess sql, Clock clock) {
        return new SqlProposalRepository(sql, clock);
    }

    /** Files a pending proposal. */
    Proposal create(String namespace, NewProposal proposal, boolean flagged);

    Optional<Proposal> get(String namespace, String id);

    /**
     * Stores an exported proposal as it was (id, status, review, application, times), replacing a
     * stored one with the same id.
     *
     * @return false when the same proposal was stored already (nothing written)
     */
    boolean restore(String namespace, Proposal proposal);

    /** Proposals matching {@code filter}, newest first (ids are time-ordered). */
    Page<Proposal> list(String namespace, ProposalFilter filter, PageRequest page);

    /**
     * Reviews a pending proposal.
     *
     * @param decision {@link ProposalStatus#ACCEPTED} or {@link ProposalStatus#REJECTED}
     */
    Proposal review(
            String namespace, String id, ProposalStatus decision, String reviewer, String note);

    /** Marks an accepted proposal applied with the memory it became. */
    Proposal markApplied(String namespace, String id, String memoryId, String appliedBy);

    /** Archives a proposal from any status; archiving twice is a no-op. */
    Proposal archive(String namespace, String id);
}
