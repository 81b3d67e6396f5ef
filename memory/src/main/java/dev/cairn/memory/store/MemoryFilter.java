package dev.cairn.memory.store;

import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.TextNormalizer;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The list filters of {@code GET memories} (API.md). Empty strings and empty sets mean "no filter";
 * {@code tags} must all be present; {@code text} is a case-insensitive substring of the content.
 * Disabled and deleted memories are left out unless asked for.
 */
public record MemoryFilter(
        String text,
        Set<MemoryType> types,
        Set<MemoryStatus> statuses,
        List<String> tags,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask,
        Set<MemorySource.Kind> sources,
        List<String> ids,
        boolean includeDisabled,
        boolean includeDeleted) {

    /** Most ids one filter may name. */
    public static final int MAX_IDS = 1000;

    public MemoryFilter {
        text = Objects.requireNonNull(text, "text").strip();
        types = types.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(types));
        statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
        TreeSet<String> t = new TreeSet<>();
        for (String tag : tags) {
            String n = TextNormalizer.normalizeTag(tag);
            if (!n.isEmpty()) {
                t.add(n);
            }
        }
        tags = List.copyOf(t);
        userId = Objects.requireNonNull(userId, "userId").strip();
        agentId = Objects.requireNonNull(agentId, "agentId").strip();
        sessionName = Objects.requireNonNull(sessionName, "sessionName").strip();
        taskName = Objects.requireNonNull(taskName, "taskName").strip();
        parentTask = Objects.requireNonNull(parentTask, "parentTask").strip();
        sources = sources.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(sources));
        ids = List.copyOf(new TreeSet<>(ids));
        if (ids.size() > MAX_IDS) {
            throw new IllegalArgumentException(
                    "illegal ids: " + ids.size() + " given, must be <= " + MAX_IDS);
        }
    }

    /** No filter: every memory that is neither disabled nor deleted. */
    public static MemoryFilter all() {
        return new MemoryFilter(
                "", Set.of(), Set.of(), List.of(), "", "", "", "", "", Set.of(), List.of(), false,
                false);
    }

    public MemoryFilter withText(String text) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withTypes(Collection<MemoryType> types) {
        return new MemoryFilter(
                text,
                Set.copyOf(types),
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withStatuses(Collection<MemoryStatus> statuses) {
        return new MemoryFilter(
                text,
                types,
                Set.copyOf(statuses),
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withTags(Collection<String> tags) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                List.copyOf(tags),
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withUser(String userId) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withAgent(String agentId) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withSession(String sessionName) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withTask(String taskName, String parentTask) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withSources(Collection<MemorySource.Kind> sources) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                Set.copyOf(sources),
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withIds(Collection<String> ids) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                List.copyOf(ids),
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withIncludeDisabled(boolean includeDisabled) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }

    public MemoryFilter withIncludeDeleted(boolean includeDeleted) {
        return new MemoryFilter(
                text,
                types,
                statuses,
                tags,
                userId,
                agentId,
                sessionName,
                taskName,
                parentTask,
                sources,
                ids,
                includeDisabled,
                includeDeleted);
    }
}
