package dev.cairn.memory.proposal;

import dev.cairn.memory.MemorySource;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.safety.SecretRedactor;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteTarget;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;

/**
 * The proposal write path and lifecycle: title, description and content pass {@link WriteGuard} as
 * one text ({@link WriteTarget#PROPOSAL}; BLOCK refuses, FLAG files it flagged) and are each
 * secret-redacted; apply turns an accepted memory proposal into a durable memory through the
 * caller's writer. Thread-safe.
 */
public final class Proposals {

    /** What {@link #apply} did. */
    public record Applied(Proposal proposal, String memoryId, boolean created) {
        public Applied {
            Objects.requireNonNull(proposal, "proposal");
            Objects.requireNonNull(memoryId, "memoryId");
        }
    }

    private final ProposalRepository repository;
    private final WriteGuard guard;
    private final SecretRedactor redactor;

    private Proposals(ProposalRepository repository, WriteGuard guard, SecretRedactor redactor) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    public static Proposals create(ProposalRepository repository) {
        return new Proposals(repository, WriteGuard.standard(), SecretRedactor.standard());
    }

    public ProposalRepository repository() {
        return repository;
    }

    /**
     * Files a pending proposal.
     *
     * @throws WriteBlockedException when write safety blocks its text
     */
    public Proposal file(String namespace, NewProposal p) {
        WriteGuard.Guarded guarded =
                guard.apply(
                                p.title() + "\n" + p.description() + "\n" + p.content(),
                                WriteTarget.PROPOSAL)
                        .requireAllowed();
        NewProposal redacted =
                new NewProposal(
                        p.type(),
                        redactor.redact(p.title()).text(),
                        redactor.redact(p.description()).text(),
                        redactor.redact(p.content()).text(),
                        guard.identifier(p.taskName(), "taskName"),
                        guard.identifier(p.agentName(), "agentName"),
                        p.memoryType());
        return repository.create(namespace, redacted, guarded.storeDisabled());
    }

    public Proposal get(String namespace, String id) {
        return repository
                .get(namespace, id)
                .orElseThrow(
                        () -> new NoSuchElementException("proposal '" + id + "' does not exist"));
    }

    public Page<Proposal> list(String namespace, ProposalFilter filter, PageRequest page) {
        return repository.list(namespace, filter, page);
    }

    /** Reviews a pending proposal; never applies it. */
    public Proposal review(
            String namespace, String id, ProposalStatus decision, String reviewer, String note) {
        return repository.review(namespace, id, decision, reviewer, note);
    }

    public Proposal archive(String namespace, String id) {
        return repository.archive(namespace, id);
    }

    /**
     * Applies an accepted memory proposal: {@code writer} stores the memory (source {@code
     * memory_proposal}, reference the proposal id, tags of the first {@code Tags:} line) and
     * returns its id; the proposal becomes applied. Applying an applied proposal returns its memory
     * without writing.
     *
     * @throws IllegalStateException for a proposal that is not an accepted (or applied) memory
     *     proposal
     */
    public Applied apply(
            String namespace, String id, String appliedBy, Function<NewMemory, String> writer) {
        if (appliedBy == null || appliedBy.isBlank()) {
            throw new IllegalArgumentException("illegal appliedBy: blank, must name who applies");
        }
        Proposal p = get(namespace, id);
        if (p.status() == ProposalStatus.APPLIED) {
            return new Applied(p, p.appliedMemoryId(), false);
        }
        if (p.type() != ProposalType.MEMORY) {
            throw new IllegalStateException(
                    "cannot apply proposal '"
                            + id
                            + "': it is a "
                            + p.type().wireName()
                            + " proposal, only memory proposals can be applied");
        }
        if (p.status() != ProposalStatus.ACCEPTED) {
            throw new IllegalStateException(
                    "cannot apply proposal '"
                            + id
                            + "': it is "
                            + p.status().wireName()
                            + ", must be accepted");
        }
        NewMemory memory =
                NewMemory.of(Scope.of(namespace), p.memoryType(), p.content())
                        .withTags(p.suggestedTags())
                        .withSource(MemorySource.of(MemorySource.Kind.MEMORY_PROPOSAL, p.id()));
        String memoryId = writer.apply(memory);
        try {
            return new Applied(
                    repository.markApplied(namespace, id, memoryId, appliedBy), memoryId, true);
        } catch (IllegalStateException e) {
            // A concurrent apply won: answer with its memory.
            Proposal now = get(namespace, id);
            if (now.status() == ProposalStatus.APPLIED) {
                return new Applied(now, now.appliedMemoryId(), false);
            }
            throw e;
        }
    }
}
