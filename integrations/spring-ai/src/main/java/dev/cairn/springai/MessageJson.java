package dev.cairn.springai;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI chat messages as the JSON a Cairn conversation stores, in OpenAI's chat-message shape
 * so that Cairn reads their role and text (transcript search, memory extraction): {@code {"role":
 * "system"|"user", "content": text}}, {@code {"role": "assistant", "content": text|null,
 * "tool_calls": [{"id", "type", "function": {"name", "arguments"}}]}}, and a tool message as {@code
 * {"role": "tool", "content": [{"type": "text", "text": response, "tool_call_id", "name"}]}}, one
 * part per response. A message's metadata is kept under {@code "metadata"} as JSON (its {@code
 * messageType} entry, which the message's type says, is left out) and comes back as JSON values:
 * strings, numbers, booleans, lists and maps. Media (images, audio) is not stored. Stateless,
 * thread-safe.
 */
final class MessageJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> METADATA = new TypeReference<>() {};

    private MessageJson() {}

    static JsonNode write(Message message) {
        ObjectNode json = JSON.createObjectNode();
        json.put("role", message.getMessageType().getValue());
        switch (message) {
            case AssistantMessage assistant -> {
                json.put("content", assistant.getText());
                if (assistant.hasToolCalls()) {
                    ArrayNode calls = json.putArray("tool_calls");
                    for (AssistantMessage.ToolCall call : assistant.getToolCalls()) {
                        ObjectNode written = calls.addObject();
                        written.put("id", call.id()).put("type", call.type());
                        written.putObject("function")
                                .put("name", call.name())
                                .put("arguments", call.arguments());
                    }
                }
            }
            case ToolResponseMessage tool -> {
                ArrayNode parts = json.putArray("content");
                for (ToolResponseMessage.ToolResponse response : tool.getResponses()) {
                    parts.addObject()
                            .put("type", "text")
                            .put("text", response.responseData())
                            .put("tool_call_id", response.id())
                            .put("name", response.name());
                }
            }
            default -> json.put("content", message.getText());
        }
        Map<String, Object> metadata = new LinkedHashMap<>(message.getMetadata());
        metadata.remove(AbstractMessage.MESSAGE_TYPE);
        if (!metadata.isEmpty()) {
            json.set("metadata", JSON.valueToTree(metadata));
        }
        return json;
    }

    static Message read(JsonNode json) {
        Map<String, Object> metadata =
                json.has("metadata")
                        ? JSON.convertValue(json.get("metadata"), METADATA)
                        : new LinkedHashMap<>();
        String content = text(json.path("content"));
        String role = json.path("role").asText();
        return switch (role) {
            case "system" -> SystemMessage.builder().text(content).metadata(metadata).build();
            case "user" -> UserMessage.builder().text(content).metadata(metadata).build();
            case "assistant" ->
                    AssistantMessage.builder()
                            .content(content)
                            .properties(metadata)
                            .toolCalls(toolCalls(json.path("tool_calls")))
                            .build();
            case "tool" ->
                    ToolResponseMessage.builder()
                            .responses(responses(json.path("content")))
                            .metadata(metadata)
                            .build();
            default ->
                    throw new IllegalStateException(
                            "a stored message with role '"
                                    + role
                                    + "' is not a Spring AI message (written by another client?)");
        };
    }

    private static List<AssistantMessage.ToolCall> toolCalls(JsonNode calls) {
        List<AssistantMessage.ToolCall> read = new ArrayList<>();
        for (JsonNode call : calls) {
            read.add(
                    new AssistantMessage.ToolCall(
                            text(call.path("id")),
                            text(call.path("type")),
                            text(call.path("function").path("name")),
                            text(call.path("function").path("arguments"))));
        }
        return read;
    }

    private static List<ToolResponseMessage.ToolResponse> responses(JsonNode parts) {
        List<ToolResponseMessage.ToolResponse> read = new ArrayList<>();
        for (JsonNode part : parts) {
            read.add(
                    new ToolResponseMessage.ToolResponse(
                            text(part.path("tool_call_id")),
                            text(part.path("name")),
                            text(part.path("text"))));
        }
        return read;
    }

    // null for a missing field or a JSON null (asText() would answer "null")
    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
    }
}
