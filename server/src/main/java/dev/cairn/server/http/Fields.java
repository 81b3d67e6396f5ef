package dev.cairn.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * Required-field checks on bound bodies, and typed access to the fields of free-form JSON objects
 * (the ARK and Orloj mounts, a memory's {@code source}), with errors that name the field.
 */
public final class Fields {

    private Fields() {}

    /** A required, non-blank string field of a bound body; 400 naming it when absent or blank. */
    public static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("field '" + field + "' is required");
        }
        return value;
    }

    /** A required, non-empty array field of a bound body. */
    public static List<String> requiredList(List<String> values, String field) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException(
                    "field '" + field + "' is required: a non-empty array of strings");
        }
        return values;
    }

    /** A required, non-blank string field. */
    public static String requiredText(ObjectNode body, String field) {
        return optionalText(body, field)
                .filter(s -> !s.isBlank())
                .orElseThrow(
                        () -> new IllegalArgumentException("field '" + field + "' is required"));
    }

    /** An optional string field; a present non-string value is a 400. */
    public static Optional<String> optionalText(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException(
                    "field '" + field + "' must be a string, got " + BindingProblems.kind(node));
        }
        return Optional.of(node.asText());
    }
}
