package dev.cairn.server.api.view;

import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.ProposalView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.Facet;
import dev.cairn.memory.Memory;
import dev.cairn.memory.PersonNames;
import dev.cairn.memory.ScoreComponents;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.memory.service.RecallResult;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.safety.SafetyRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Memories, recall answers and proposals as the API shows them: the memory module's domain values
 * mapped onto the wire records of {@code dev.cairn.api.view}. Stateless, thread-safe.
 */
public final class MemoryViews {

    private MemoryViews() {}

    public static MemoryView memory(Memory m) {
        return new MemoryView(
                m.id(),
                m.scope().namespace(),
                m.type().name(),
                m.layer().name(),
                m.status().name(),
                m.content(),
                m.tags(),
                m.confidence(),
                m.importance(),
                m.conflictKey(),
                m.scope().userId(),
                m.scope().agentId(),
                m.scope().sessionName(),
                m.scope().taskName(),
                m.scope().parentTask(),
                new MemoryView.Source(m.source().kind().wireName(), m.source().reference()),
                m.createdAt().toString(),
                m.updatedAt().toString(),
                m.expiresAt().toString(),
                m.lastRecalled().map(Object::toString).orElse(null),
                m.recalledCount(),
                m.disabled(),
                m.deleted(),
                m.contentHash(),
                m.embeddingModel());
    }

    /** {@code GET memories/{id}}: the memory and its status history. */
    public static MemoryView.Detail detail(Memory m, List<StatusTransition> history) {
        return new MemoryView.Detail(
                memory(m), history.stream().map(MemoryViews::transition).toList());
    }

    private static MemoryView.Transition transition(StatusTransition t) {
        return new MemoryView.Transition(
                t.from().name(), t.to().name(), t.at().toString(), t.actor(), t.reason());
    }

    /** The answer of a write. */
    public static MemoryView.Written written(WriteResult r) {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        r.redactions().forEach((k, n) -> kinds.put(k.label(), n));
        return new MemoryView.Written(
                memory(r.memory()),
                r.deduplicated() ? r.memory().id() : null,
                r.deduplicated() ? r.similarity() : null,
                r.superseded().isEmpty() ? null : r.superseded(),
                new MemoryView.Redacted(
                        kinds.values().stream().mapToInt(Integer::intValue).sum(), kinds),
                r.flagged().isEmpty()
                        ? null
                        : r.flagged().stream().map(SafetyRule::ruleName).toList());
    }

    /** The answer of {@code POST recall}. */
    public static RecallAnswer recall(RecallResult r) {
        List<RecallAnswer.Scored> memories =
                r.memories().stream()
                        .map(
                                (ScoredMemory s) ->
                                        new RecallAnswer.Scored(
                                                memory(s.memory()),
                                                s.score(),
                                                components(s.components())))
                        .toList();
        AssembledContext context = r.context();
        Map<String, List<String>> layers = new LinkedHashMap<>();
        context.layers().forEach((layer, ids) -> layers.put(layer.name(), ids));
        return new RecallAnswer(
                memories,
                context.text(),
                context.tokens(),
                layers,
                r.partial(),
                r.tookMillis(),
                r.people().stream().map(MemoryViews::person).toList(),
                r.facets().stream().map(Facet::label).toList(),
                r.scope().label(),
                KnowledgeViews.adaptation(r.adaptation()));
    }

    private static RecallAnswer.Components components(ScoreComponents c) {
        Map<String, Double> boosts = new LinkedHashMap<>();
        c.boosts().forEach((b, v) -> boosts.put(b.label(), v));
        return new RecallAnswer.Components(
                c.relevance(), c.recency(), c.typeBonus(), c.confidence(), c.importance(), boosts);
    }

    private static RecallAnswer.Person person(PersonNames.NamedPerson p) {
        return new RecallAnswer.Person(
                p.userId(),
                p.asked(),
                p.name(),
                p.via().name().toLowerCase(Locale.ROOT),
                p.match().name().toLowerCase(Locale.ROOT));
    }

    /** A proposal: the memory fields only for memory proposals, review and apply once done. */
    public static ProposalView proposal(Proposal p) {
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
