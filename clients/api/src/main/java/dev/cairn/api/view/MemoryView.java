package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
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

    /** {@code GET memories/{id}}: the memory and its status history. */
    public record Detail(@JsonUnwrapped MemoryView memory, List<Transition> transitions) {}

    /** One status change. */
    public record Transition(String from, String to, String at, String actor, String reason) {}

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
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> flagged) {}

    /** How many secrets write safety redacted, by kind. */
    public record Redacted(int total, Map<String, Integer> kinds) {}

    /** A memory applied from a proposal, naming the proposal. */
    public record Applied(@JsonUnwrapped MemoryView memory, String sourceProposalId) {}
}
