package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.cairn.judge.Policy;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.store.JudgementJson;
import dev.cairn.judge.store.StoredJudgement;
import dev.cairn.judge.store.StoredPolicy;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The judge's answers. The judgement's own fields ({@code citationCoverage ... rules}) are the
 * judge module's view ({@link JudgementJson#view}), spliced in where the API has always had them.
 */
public final class JudgeViews {

    private JudgeViews() {}

    /** {@code POST judge}: {@code traceId} only when the answer came with one. */
    @JsonPropertyOrder({"judgementId", "traceId", "judgement", "similarity", "createdAt"})
    public record Judged(
            String judgementId,
            @JsonInclude(JsonInclude.Include.NON_NULL) String traceId,
            @JsonAnyGetter Map<String, Object> judgement,
            String similarity,
            String createdAt) {

        public static Judged of(StoredJudgement s) {
            return new Judged(
                    s.id(),
                    s.answer().traceId().isEmpty() ? null : s.answer().traceId(),
                    JudgementJson.view(s.judgement()),
                    s.similarity(),
                    s.createdAt().toString());
        }
    }

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
            @JsonAnyGetter Map<String, Object> judgement,
            String similarity,
            String createdAt) {

        public static Stored of(StoredJudgement s) {
            return new Stored(
                    s.id(),
                    s.answerId(),
                    s.answer().traceId(),
                    s.answer().query(),
                    s.answer().answer(),
                    JudgementJson.view(s.answer().evidence()),
                    s.answer().plan().name().toLowerCase(Locale.ROOT),
                    JudgementJson.view(s.judgement()),
                    s.similarity(),
                    s.createdAt().toString());
        }
    }

    /**
     * A policy: the built-in default has no document or update time; a stored one has its document
     * only when fetched by name.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PolicyView(
            String name, boolean builtIn, List<Rule> rules, String document, String updatedAt) {

        public static PolicyView defaultPolicy() {
            return new PolicyView(
                    PolicyRegistry.DEFAULT_POLICY,
                    true,
                    Rule.all(PolicyRegistry.defaultPolicy()),
                    null,
                    null);
        }

        public static PolicyView of(StoredPolicy p, boolean withDocument) {
            return new PolicyView(
                    p.name(),
                    false,
                    Rule.all(Policy.parse(p.name(), p.document())),
                    withDocument ? p.document() : null,
                    p.updatedAt().toString());
        }
    }

    /** One rule of a policy. */
    public record Rule(String name, String kind, double weight) {

        static List<Rule> all(Policy policy) {
            return policy.rules().stream()
                    .map(r -> new Rule(r.name(), r.kind().id(), r.weight()))
                    .toList();
        }
    }
}
