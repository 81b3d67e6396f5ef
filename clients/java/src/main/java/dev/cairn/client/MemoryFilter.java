package dev.cairn.client;

import java.util.List;

/**
 * The filters of {@code GET memories}; an empty or null field does not filter. {@code tags} and
 * {@code ids} match any of theirs; disabled and deleted memories are left out unless asked for.
 */
public record MemoryFilter(
        String q,
        String type,
        String status,
        List<String> tags,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask,
        String source,
        List<String> ids,
        boolean includeDisabled,
        boolean includeDeleted) {

    /** Every memory that is neither disabled nor deleted. */
    public static final MemoryFilter ALL =
            new MemoryFilter(
                    null, null, null, null, null, null, null, null, null, null, null, false, false);

    public MemoryFilter {
        tags = tags == null ? List.of() : List.copyOf(tags);
        ids = ids == null ? List.of() : List.copyOf(ids);
    }

    /** One user's memories; other filters are set with the canonical constructor. */
    public static MemoryFilter ofUser(String userId) {
        return new MemoryFilter(
                null, null, null, null, userId, null, null, null, null, null, null, false, false);
    }

    void addTo(Query query) {
        query.add("q", q);
        query.add("type", type);
        query.add("status", status);
        query.add("tags", tags);
        query.add("userId", userId);
        query.add("agentId", agentId);
        query.add("sessionName", sessionName);
        query.add("taskName", taskName);
        query.add("parentTask", parentTask);
        query.add("source", source);
        query.add("ids", ids);
        query.add("includeDisabled", includeDisabled);
        query.add("includeDeleted", includeDeleted);
    }
}
