package dev.cairn.api.body;

import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/extract}: a query and the response to it; {@code response} is
 * required but may be empty, so it stays null when absent.
 */
public record ExtractBody(
        String query, String response, String userId, String agentId, String sessionName) {

    public ExtractBody {
        query = Objects.requireNonNullElse(query, "");
        userId = Objects.requireNonNullElse(userId, "");
        agentId = Objects.requireNonNullElse(agentId, "");
        sessionName = Objects.requireNonNullElse(sessionName, "");
    }
}
