package dev.cairn.judge.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.judge.ClaimVerdict;
import dev.cairn.judge.Evidence;
import dev.cairn.judge.Judgement;
import dev.cairn.judge.PolicyRule;
import dev.cairn.judge.RuleResult;
import dev.cairn.judge.Violation;
import dev.cairn.retrieval.store.Authority;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The wire and storage form of judgements and evidence: plain maps and lists that Jackson writes as
 * the API's JSON, and back. Stateless and thread-safe.
 */
public final class JudgementJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JudgementJson() {}

    /**
     * The API view of a judgement: {@code citationCoverage, citationPrecision, contradictionRate,
     * policyCompliance, grounded, policy, claims, violations, rules}.
     */
    public static Map<String, Object> view(Judgement j) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("citationCoverage", j.citationCoverage());
        v.put("citationPrecision", j.citationPrecision());
        v.put("contradictionRate", j.contradictionRate());
        v.put("policyCompliance", j.policyCompliance());
        v.put("grounded", j.grounded());
        v.put("policy", j.policy());
        List<Map<String, Object>> claims = new ArrayList<>();
        for (ClaimVerdict c : j.claims()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("text", c.text());
            m.put("citations", c.citations());
            m.put("supported", c.supported());
            m.put("contradicted", c.contradicted());
            m.put("supportedBy", c.supportedBy());
            m.put("contradictedBy", c.contradictedBy());
            m.put("reasons", c.reasons());
            claims.add(m);
        }
        v.put("claims", claims);
        List<Map<String, Object>> violations = new ArrayList<>();
        for (Violation x : j.violations()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", x.rule());
            m.put("detail", x.detail());
            violations.add(m);
        }
        v.put("violations", violations);
        List<Map<String, Object>> rules = new ArrayList<>();
        for (RuleResult r : j.rules()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", r.rule());
            m.put("kind", r.kind().id());
            m.put("passed", r.passed());
            m.put("weight", r.weight());
            m.put("detail", r.detail());
            rules.add(m);
        }
        v.put("rules", rules);
        return v;
    }

    /** The judgement as JSON text, {@link #view} written out. */
    public static String write(Judgement j) {
        return write(view(j));
    }

    /**
     * Reads a judgement written by {@link #write}.
     *
     * @throws IllegalArgumentException when the text is not such a judgement
     */
    public static Judgement readJudgement(String json) {
        JsonNode n = tree(json);
        List<ClaimVerdict> claims = new ArrayList<>();
        for (JsonNode c : n.path("claims")) {
            claims.add(
                    new ClaimVerdict(
                            c.path("text").asText(),
                            strings(c.path("citations")),
                            c.path("supported").asBoolean(),
                            c.path("contradicted").asBoolean(),
                            strings(c.path("supportedBy")),
                            strings(c.path("contradictedBy")),
                            strings(c.path("reasons"))));
        }
        List<RuleResult> rules = new ArrayList<>();
        for (JsonNode r : n.path("rules")) {
            rules.add(
                    new RuleResult(
                            r.path("rule").asText(),
                            PolicyRule.Kind.parse(r.path("kind").asText()),
                            r.path("passed").asBoolean(),
                            r.path("weight").asDouble(),
                            r.path("detail").asText()));
        }
        List<Violation> violations = new ArrayList<>();
        for (JsonNode x : n.path("violations")) {
            violations.add(new Violation(x.path("rule").asText(), x.path("detail").asText()));
        }
        return new Judgement(
                n.path("citationCoverage").asDouble(),
                n.path("citationPrecision").asDouble(),
                n.path("contradictionRate").asDouble(),
                n.path("policyCompliance").asDouble(),
                n.path("grounded").asBoolean(),
                n.path("policy").asText(),
                claims,
                rules,
                violations);
    }

    /** The API view of evidence: {@code [{id, text, title, authority}]}. */
    public static List<Map<String, Object>> view(List<Evidence> evidence) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Evidence e : evidence) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.id());
            m.put("text", e.text());
            m.put("title", e.title());
            m.put("authority", e.authority().key());
            out.add(m);
        }
        return out;
    }

    /** Reads evidence written as {@link #view(List)}. */
    public static List<Evidence> readEvidence(String json) {
        List<Evidence> out = new ArrayList<>();
        for (JsonNode e : tree(json)) {
            out.add(
                    new Evidence(
                            e.path("id").asText(),
                            e.path("text").asText(),
                            e.path("title").asText(""),
                            Authority.parse(e.path("authority").asText("unverified"))));
        }
        return out;
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("illegal stored JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(s -> out.add(s.asText()));
        return out;
    }
}
