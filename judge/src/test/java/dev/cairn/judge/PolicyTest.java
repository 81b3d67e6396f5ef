package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.retrieval.store.Authority;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyTest {

    private static final List<Evidence> EVIDENCE =
            List.of(
                    new Evidence(
                            "runbook",
                            "Drain the node before you restart the service.",
                            "Restart runbook",
                            Authority.AUTHORITATIVE),
                    new Evidence(
                            "forum",
                            "Drain the node before you restart the service.",
                            "Forum post",
                            Authority.UNVERIFIED));

    private static final String DOCUMENT =
            """
            policies:
              - name: strict
                rules:
                  - {name: cite-runbooks, kind: cite-authoritative, weight: 2}
                  - {kind: no-secrets}
                  - {name: defer, kind: defer-when-planned}
                  - {name: short, kind: max-length, max-chars: 200, maxClaims: 2}
                  - {name: tone, kind: forbidden-phrases, phrases: ["As an AI language model", "guaranteed"]}
            """;

    private final Judge judge =
            Judge.create(
                    JudgeConfig.defaults(),
                    SimilarityFunction.lexical(),
                    PolicyRegistry.parse(DOCUMENT),
                    new RegexSecretDetector());

    private Judgement strict(String answer) {
        return judge.judge(JudgeInput.of("q", answer, EVIDENCE).withPolicy("strict"));
    }

    @Test
    void compliantAnswerPassesEveryRule() {
        Judgement j = strict("1. Drain the node [1].\n2. Restart the service [1].");

        assertThat(j.violations()).isEmpty();
        assertThat(j.policyCompliance()).isEqualTo(1.0);
        assertThat(j.rules())
                .extracting(RuleResult::rule)
                .containsExactly("cite-runbooks", "no-secrets", "defer", "short", "tone");
        assertThat(j.grounded()).isTrue();
    }

    @Test
    void proceduralAnswerCitingOnlyUnverifiedEvidenceViolatesTheCiteRule() {
        Judgement j = strict("1. Drain the node [2].\n2. Restart the service [2].");

        assertThat(j.violations()).extracting(Violation::rule).containsExactly("cite-runbooks");
        assertThat(j.policyCompliance()).isEqualTo(4.0 / 6.0);
        assertThat(j.grounded()).isFalse();
    }

    @Test
    void secretInTheAnswerIsAViolationThatDoesNotQuoteIt() {
        String key = "sk-" + "a1b2c3d4e5f6g7h8i9j0k1l2";
        Judgement j = strict("Set the key " + key + " in the config.");

        assertThat(j.violations()).extracting(Violation::rule).contains("no-secrets");
        assertThat(j.violations()).allSatisfy(v -> assertThat(v.detail()).doesNotContain(key));
        assertThat(j.violations())
                .filteredOn(v -> v.rule().equals("no-secrets"))
                .extracting(Violation::detail)
                .containsExactly("1 secret(s) in the answer: [openai-api-key at 12..39]");
    }

    @Test
    void assertingAnswerWhenRetrievalPlannedToDeferViolatesTheDeferRule() {
        JudgeInput asserting =
                JudgeInput.of("q", "The service restarts by itself.", EVIDENCE)
                        .withPolicy("strict")
                        .withPlan(RetrievalPlan.DEFER);
        JudgeInput deferring =
                JudgeInput.of(
                                "q",
                                "I could not find this in the runbooks; please ask the on-call engineer.",
                                EVIDENCE)
                        .withPolicy("strict")
                        .withPlan(RetrievalPlan.DEFER);

        assertThat(judge.judge(asserting).violations())
                .extracting(Violation::rule)
                .containsExactly("defer");
        assertThat(judge.judge(deferring).violations()).isEmpty();
    }

    @Test
    void tooLongAnswerViolatesMaxLength() {
        Judgement j = strict("Drain the node [1]. Restart the service [1]. Check the logs [1].");

        assertThat(j.violations())
                .extracting(Violation::rule, Violation::detail)
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple(
                                "short", "answer has 3 claims, must be <= 2"));
    }

    @Test
    void forbiddenPhrasesMatchCaseInsensitively() {
        Judgement j = strict("as an   AI language model, I think it is GUARANTEED.");

        assertThat(j.violations()).extracting(Violation::rule).containsExactly("tone");
        assertThat(j.violations().getFirst().detail())
                .isEqualTo("forbidden phrase(s): [As an AI language model, guaranteed]");
    }

    @Test
    void unknownPolicyIsRejectedNamingTheKnownOnes() {
        assertThatThrownBy(
                        () -> judge.judge(JudgeInput.of("q", "a", EVIDENCE).withPolicy("lenient")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown policy: 'lenient', must be one of [default, strict]");
    }

    /**
     * The no-secrets rule with the standard detector, which reads the normalised text: a password
     * in words, and secrets hidden by zero-width characters, full-width or look-alike letters.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "The password is hunter2.",
                "The pass\u200Bword is hunter2.",
                "The password is hun\u200Bter2.",
                "The p\u0430ssword is hunter2.",
                "The \uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44 is hunter2.",
                "Push with ghp_a1B2c3D4\u2060e5F6g7H8i9J0k1L2m3N4o5P6q7R8 [1].",
                "The key is \u0410KI\u0410IOSFODNN7EXAMPLE [1].",
            })
    void noSecretsRuleFailsOnSecretsInWordsHiddenOrInLookAlikeLetters(String answer) {
        Judgement j =
                Judge.lexical(SecretDetector.standard())
                        .judge(JudgeInput.of("q", answer, EVIDENCE));

        assertThat(j.violations()).extracting(Violation::rule).as(answer).contains("no-secrets");
    }

    @Test
    void noSecretsRulePassesProseAboutPasswords() {
        Judgement j =
                Judge.lexical(SecretDetector.standard())
                        .judge(
                                JudgeInput.of(
                                        "q",
                                        "The password is required and is changed every 90 days.",
                                        EVIDENCE));

        assertThat(j.violations()).extracting(Violation::rule).doesNotContain("no-secrets");
    }

    @Test
    void builtInDefaultPolicyIsAlwaysKnown() {
        Judgement j =
                Judge.lexical(new RegexSecretDetector())
                        .judge(
                                JudgeInput.of(
                                        "q",
                                        "Drain the node before you restart the service [1].",
                                        EVIDENCE));

        assertThat(j.policy()).isEqualTo("default");
        assertThat(j.rules())
                .extracting(RuleResult::kind)
                .containsExactly(
                        PolicyRule.Kind.NO_SECRETS,
                        PolicyRule.Kind.CITE_AUTHORITATIVE,
                        PolicyRule.Kind.DEFER_WHEN_PLANNED,
                        PolicyRule.Kind.MAX_LENGTH);
        assertThat(j.policyCompliance()).isEqualTo(1.0);
    }

    @Test
    void jsonDocumentsParseLikeYaml() {
        PolicyRegistry registry =
                PolicyRegistry.parse(
                        "{\"name\": \"json\", \"rules\": [{\"kind\": \"max-length\", \"maxChars\": 10}]}");

        assertThat(registry.names()).containsExactly("default", "json");
        assertThat(registry.policy("json").rules())
                .containsExactly(
                        new PolicyRule.MaxLength(
                                "max-length", 1.0, 10, PolicyRule.MaxLength.DEFAULT_MAX_CLAIMS));
    }

    @Test
    void malformedDocumentsAreRejectedNamingTheProblem() {
        assertThatThrownBy(() -> PolicyRegistry.parse("{name: p, rules: [{kind: shout}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "illegal rule kind: 'shout', must be one of [cite-authoritative");
        assertThatThrownBy(
                        () ->
                                PolicyRegistry.parse(
                                        "{name: p, rules: [{kind: max-length, max-char: 3}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("illegal rule key: 'max-char'");
        assertThatThrownBy(
                        () ->
                                PolicyRegistry.parse(
                                        "{name: p, rules: [{kind: max-length, max-chars: 0}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal maxChars: 0, must be >= 1");
        assertThatThrownBy(() -> PolicyRegistry.parse("name: [unclosed"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("illegal policy document");
    }

    @Test
    void singlePolicyDocumentTakesItsNameFromTheCallerAndRejectsAnother() {
        Policy p =
                Policy.parse(
                        "tone", "rules:\n  - {kind: forbidden-phrases, phrases: [\"as an AI\"]}\n");

        assertThat(p.name()).isEqualTo("tone");
        assertThat(p.rules())
                .singleElement()
                .satisfies(r -> assertThat(r.name()).isEqualTo("forbidden-phrases"));
        assertThat(Policy.parse("empty", "").rules()).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Policy.parse("a", "name: b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'b'");
    }
}
