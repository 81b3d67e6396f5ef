package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.memory.Memory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.safety.SafetyRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A memory as the API shows it (also the command line and the governance resources); {@code
 * lastRecalledAt} only once it has been recalled.
 */
public record MemoryView(
        String id,
        String namespace,
        String type,
        String layer,
        String status,
        String content,
        List<String> tags,
        double confidence,
        double importance,
        String conflictKey,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask,
        Source source,
        String createdAt,
        String updatedAt,
        String expiresAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) String lastRecalledAt,
        long recalledCount,
        boolean disabled,
        boolean deleted,
        String contentHash,
        String embeddingModel) {

    /** Where a memory came from. */
    public record Source(String kind, String reference) {}

    public static MemoryView of(Memory m) {
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
                new Source(m.source().kind().wireName(), m.source().reference()),
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
    public record Detail(@JsonUnwrapped MemoryView memory, List<Transition> transitions) {

        public static Detail of(Memory m, List<StatusTransition> history) {
            return new Detail(MemoryView.of(m), history.stream().map(Transition::of).toList());
        }
    }

    /** One status change. */
    public record Transition(String from, String to, String at, String actor, String reason) {

        static Transition of(StatusTransition t) {
            return new Transition(
                    t.from().name(), t.to().name(), t.at().toString(), t.actor(), t.reason());
        }
    }

    /**
     * The answer of a write: the memory, what write safety redacted, and only when they apply the
     * memory it was merged into with the similarity, the memories it superseded and the rules that
     * flagged it.
     */
    public record Written(
            @JsonUnwrapped MemoryView memory,
            @JsonInclude(JsonInclude.Include.NON_NULL) String deduplicatedInto,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double similarity,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> superseded,
            Redacted redacted,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> flagged) {

        public static Written of(WriteResult r) {
            Map<String, Integer> kinds = new LinkedHashMap<>();
            r.redactions().forEach((k, n) -> kinds.put(k.label(), n));
            return new Written(
                    MemoryView.of(r.memory()),
                    r.deduplicated() ? r.memory().id() : null,
                    r.deduplicated() ? r.similarity() : null,
                    r.superseded().isEmpty() ? null : r.superseded(),
                    new Redacted(kinds.values().stream().mapToInt(Integer::intValue).sum(), kinds),
                    r.flagged().isEmpty()
                            ? null
                            : r.flagged().stream().map(SafetyRule::ruleName).toList());
        }
    }

    /** How many secrets write safety redacted, by kind. */
    public record Redacted(int total, Map<String, Integer> kinds) {}

    /** A memory applied from a proposal, naming the proposal. */
    public record Applied(@JsonUnwrapped MemoryView memory, String sourceProposalId) {}
}
