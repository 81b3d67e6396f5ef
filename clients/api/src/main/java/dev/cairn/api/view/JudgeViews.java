package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The judge's answers. The judgement's own fields ({@code citationCoverage ... rules}) are the
 * judge module's view of a judgement, spliced in where the API has always had them; a reader
 * collects every field the record does not name into {@code judgement}.
 */
public final class JudgeViews {

    private JudgeViews() {}

    /** {@code POST judge}: {@code traceId} only when the answer came with one. */
    @JsonPropertyOrder({"judgementId", "traceId", "judgement", "similarity", "createdAt"})
    public record Judged(
            String judgementId,
            @JsonInclude(JsonInclude.Include.NON_NULL) String traceId,
            @JsonAnyGetter @JsonAnySetter Map<String, Object> judgement,
            String similarity,
            String createdAt) {}

    /** {@code GET judgements/{id}}: the judged answer with its evidence, and the judgement. */
    @JsonPropertyOrder({
        "judgementId",
        "answerId",
        "traceId",
        "query",
        "answer",
        "evidence",
        "plan",
        "judgement",
        "similarity",
        "createdAt"
    })
    public record Stored(
            String judgementId,
            String answerId,
            String traceId,
            String query,
            String answer,
            List<Map<String, Object>> evidence,
            String plan,
            @JsonAnyGetter @JsonAnySetter Map<String, Object> judgement,
            String similarity,
            String createdAt) {}

    /**
     * A policy: the built-in default has no document or update time; a stored one has its document
     * only when fetched by name.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PolicyView(
            String name, boolean builtIn, List<Rule> rules, String document, String updatedAt) {}

    /** One rule of a policy. */
    public record Rule(String name, String kind, double weight) {}
}
