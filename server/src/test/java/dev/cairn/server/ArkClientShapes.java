package dev.cairn.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What ARK's Go client ({@code ark/internal/genai/memory.go}) decodes from {@code GET /messages},
 * with Go's {@code encoding/json} strictness on the fields it reads: {@code items[].message} is a
 * {@code json.RawMessage}, {@code sequence} an {@code int64}, {@code total} an {@code int}, {@code
 * hasMore} a {@code bool} and {@code nextCursor} a {@code *string} (a number there fails its whole
 * decode). Unknown fields are ignored, as Go does.
 */
final class ArkClientShapes {

    private ArkClientShapes() {}

    record MessageRecord(String conversationId, String queryId, JsonNode message, long sequence) {}

    record MessagesResponse(
            List<MessageRecord> items, int total, boolean hasMore, String nextCursor) {}

    static MessagesResponse decode(String body) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<MessageRecord> items = new ArrayList<>();
        JsonNode array = root.path("items");
        if (!array.isNull() && !array.isMissingNode() && !array.isArray()) {
            throw new IllegalStateException("items is not an array: " + array);
        }
        for (JsonNode item : array) {
            JsonNode seq = item.path("sequence");
            if (!seq.isIntegralNumber() || !seq.canConvertToLong()) {
                throw new IllegalStateException("sequence is not an int64: " + seq);
            }
            items.add(
                    new MessageRecord(
                            text(item, "conversation_id"),
                            text(item, "query_id"),
                            item.get("message"),
                            seq.asLong()));
        }
        JsonNode total = root.path("total");
        if (!total.isMissingNode() && !(total.isIntegralNumber() && total.canConvertToInt())) {
            throw new IllegalStateException("total is not an int: " + total);
        }
        JsonNode hasMore = root.path("hasMore");
        if (!hasMore.isMissingNode() && !hasMore.isBoolean()) {
            throw new IllegalStateException("hasMore is not a bool: " + hasMore);
        }
        return new MessagesResponse(
                items, total.asInt(), hasMore.asBoolean(), text(root, "nextCursor"));
    }

    /** A Go string field: absent or null decodes to its zero value (here null), else a string. */
    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalStateException(field + " is not a string: " + value);
        }
        return value.asText();
    }
}
