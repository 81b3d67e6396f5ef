package dev.cairn.judge;

import dev.cairn.retrieval.store.Authority;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Checks an answer against the rules of a policy. Stateless; thread-safe. */
final class PolicyEvaluator {

    private PolicyEvaluator() {}

    static List<RuleResult> evaluate(
            Policy policy, JudgeInput input, List<Claim> claims, SecretDetector secrets) {
        List<RuleResult> out = new ArrayList<>();
        for (PolicyRule rule : policy.rules()) {
            out.add(evaluate(rule, input, claims, secrets));
        }
        return out;
    }

    private static RuleResult evaluate(
            PolicyRule rule, JudgeInput input, List<Claim> claims, SecretDetector secrets) {
        String answer = input.answer();
        return switch (rule) {
            case PolicyRule.CiteAuthoritative r -> {
                if (!ClaimExtractor.isProcedural(answer)) {
                    yield result(r, true, "answer is not procedural");
                }
                Set<String> cited = new LinkedHashSet<>();
                for (Claim c : claims) {
                    for (int k : c.cited()) {
                        Evidence e = input.evidence().get(k);
                        if (e.authority() == Authority.AUTHORITATIVE) {
                            yield result(
                                    r,
                                    true,
                                    "procedural answer cites authoritative [" + e.id() + "]");
                        }
                        cited.add(e.id());
                    }
                }
                yield result(
                        r,
                        false,
                        "procedural answer cites no authoritative evidence (cited: " + cited + ")");
            }
            case PolicyRule.NoSecrets r -> {
                List<SecretDetector.Finding> found = secrets.detect(answer);
                if (found.isEmpty()) {
                    yield result(r, true, "no secrets found");
                }
                List<String> where =
                        found.stream()
                                .map(f -> f.kind() + " at " + f.start() + ".." + f.end())
                                .toList();
                yield result(r, false, found.size() + " secret(s) in the answer: " + where);
            }
            case PolicyRule.DeferWhenPlanned r -> {
                if (input.plan() != RetrievalPlan.DEFER) {
                    yield result(
                            r,
                            true,
                            "retrieval plan is "
                                    + input.plan().name().toLowerCase(java.util.Locale.ROOT));
                }
                if (claims.isEmpty()) {
                    yield result(r, true, "retrieval plan is defer and the answer makes no claims");
                }
                if (ClaimExtractor.isHedge(answer)) {
                    yield result(r, true, "retrieval plan is defer and the answer defers");
                }
                yield result(
                        r,
                        false,
                        "retrieval plan is defer but the answer asserts "
                                + claims.size()
                                + " claim(s) without deferral phrasing");
            }
            case PolicyRule.MaxLength r -> {
                int chars = answer.codePointCount(0, answer.length());
                if (chars > r.maxChars()) {
                    yield result(
                            r, false, "answer has " + chars + " chars, must be <= " + r.maxChars());
                }
                if (claims.size() > r.maxClaims()) {
                    yield result(
                            r,
                            false,
                            "answer has " + claims.size() + " claims, must be <= " + r.maxClaims());
                }
                yield result(r, true, chars + " chars, " + claims.size() + " claims");
            }
            case PolicyRule.ForbiddenPhrases r -> {
                String normalised = PolicyRule.normalise(answer);
                List<String> found = new ArrayList<>();
                for (int i = 0; i < r.phrases().size(); i++) {
                    if (normalised.contains(r.normalised().get(i))) {
                        found.add(r.phrases().get(i));
                    }
                }
                yield found.isEmpty()
                        ? result(r, true, "no forbidden phrase")
                        : result(r, false, "forbidden phrase(s): " + found);
            }
        };
    }

    private static RuleResult result(PolicyRule rule, boolean passed, String detail) {
        return new RuleResult(rule.name(), rule.kind(), passed, rule.weight(), detail);
    }

    /** Weighted share of passed rules; 1 when there are none. */
    static double compliance(List<RuleResult> results) {
        double total = 0;
        double passed = 0;
        for (RuleResult r : results) {
            total += r.weight();
            if (r.passed()) {
                passed += r.weight();
            }
        }
        return total == 0 ? 1.0 : passed / total;
    }
}
