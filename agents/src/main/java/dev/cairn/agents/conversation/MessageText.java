package dev.cairn.agents.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The role and text content of a chat message in the formats ARK stores: OpenAI chat messages
 * ({@code {"role", "content": "..."}} or {@code "content": [{"type": "text", "text": "..."}]}) and
 * A2A messages ({@code {"role", "parts": [{"kind": "text", "text": "..."}]}}). Anything else has
 * role "" and the concatenated text of its string fields named {@code content} or {@code text}.
 * Stateless, thread-safe.
 */
public final class MessageText {

    private MessageText() {}

    /** The message's role, "" when it has none. */
    public static String role(JsonNode message) {
        JsonNode role = message.path("role");
        return role.isTextual() ? role.asText().strip() : "";
    }

    /** The message's text content, parts joined by new lines; "" when it has none. */
    public static String content(JsonNode message) {
        List<String> parts = new ArrayList<>();
        if (message.isTextual()) {
            parts.add(message.asText());
        } else if (message.isObject()) {
            collect(message.get("content"), parts);
            collect(message.get("parts"), parts);
            if (message.path("text").isTextual()) {
                parts.add(message.get("text").asText());
            }
        }
        return String.join("\n", parts);
    }

    private static void collect(JsonNode node, List<String> out) {
        if (node == null || node.isNull()) {
            return;
        }
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isArray()) {
            for (JsonNode part : node) {
                if (part.isTextual()) {
                    out.add(part.asText());
                } else if (part.path("text").isTextual()) {
                    out.add(part.get("text").asText());
                }
            }
        }
    }
}
