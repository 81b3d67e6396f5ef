package dev.cairn.api.body;

import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/proposals} (also the {@code propose_memory} tool's arguments).
 * {@code memoryType} is for memory proposals and defaults to {@code FACT}.
 */
public record NewProposalBody(
        String type,
        String title,
        String description,
        String content,
        String taskName,
        String agentName,
        String memoryType) {

    public NewProposalBody {
        type = Objects.requireNonNullElse(type, "");
        title = Objects.requireNonNullElse(title, "");
        description = Objects.requireNonNullElse(description, "");
        content = Objects.requireNonNullElse(content, "");
        taskName = Objects.requireNonNullElse(taskName, "");
        agentName = Objects.requireNonNullElse(agentName, "");
        memoryType = Objects.requireNonNullElse(memoryType, "FACT");
    }
}
