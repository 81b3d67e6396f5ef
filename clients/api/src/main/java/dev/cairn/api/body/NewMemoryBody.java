package dev.cairn.api.body;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/memories}. {@code source} is a kind name or an object {@code
 * {kind, reference}}; the resource reads it. Absent scope fields are empty (not scoped); a null
 * {@code confidence} or {@code importance} takes the server's default.
 */
public record NewMemoryBody(
        String type,
        String content,
        String layer,
        List<String> tags,
        Double confidence,
        Double importance,
        String conflictKey,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask,
        JsonNode source,
        Integer ttlDays) {

    public NewMemoryBody {
        type = Objects.requireNonNullElse(type, "");
        content = Objects.requireNonNullElse(content, "");
        layer = Objects.requireNonNullElse(layer, "");
        tags = Objects.requireNonNullElse(tags, List.of());
        conflictKey = Objects.requireNonNullElse(conflictKey, "");
        userId = Objects.requireNonNullElse(userId, "");
        agentId = Objects.requireNonNullElse(agentId, "");
        sessionName = Objects.requireNonNullElse(sessionName, "");
        taskName = Objects.requireNonNullElse(taskName, "");
        parentTask = Objects.requireNonNullElse(parentTask, "");
        ttlDays = Objects.requireNonNullElse(ttlDays, 0);
    }

    /** A memory of one type and content for one user ("" for none), everything else defaulted. */
    public static NewMemoryBody of(String type, String content, String userId) {
        return new NewMemoryBody(
                type, content, null, null, null, null, null, userId, null, null, null, null, null,
                null);
    }
}
