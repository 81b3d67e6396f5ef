package dev.cairn.api.body;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/documents}: the content (Markdown or text) and fields that win
 * over its front matter; an absent one keeps what the front matter says. {@code metadata} values
 * are stored as text (a non-string value as its JSON).
 */
public record DocumentBody(
        String id,
        String title,
        String content,
        String format,
        String source,
        String authority,
        List<String> tags,
        // Any JSON value, null too, is stored as text, as the API always did.
        @JsonSetter(contentNulls = Nulls.SET) Map<String, JsonNode> metadata) {

    public DocumentBody {
        content = Objects.requireNonNullElse(content, "");
        format = Objects.requireNonNullElse(format, "markdown");
        metadata = Objects.requireNonNullElse(metadata, Map.of());
    }

    /** A Markdown document under an id ({@code null}: the front matter's, or a generated one). */
    public static DocumentBody markdown(String id, String content) {
        return new DocumentBody(id, null, content, "markdown", null, null, null, null);
    }
}
