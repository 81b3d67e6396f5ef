package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.retrieval.store.Authority;
import java.util.List;
import org.junit.jupiter.api.Test;

class JudgeTest {

    private final Judge judge = Judge.lexical(new RegexSecretDetector());

    private static final List<Evidence> EVIDENCE =
            List.of(
                    new Evidence(
                            "rate-limits",
                            "The API gateway enforces a request limit of 100 requests per minute per client."
                                    + " Clients that exceed the limit receive HTTP status 429.",
                            "Rate limits",
                            Authority.AUTHORITATIVE),
                    new Evidence(
                            "tls",
                            "Mutual TLS is enabled for all internal services since version 2.4 of the mesh.",
                            "Service mesh security",
                            Authority.AUTHORITATIVE),
                    new Evidence(
                            "backups",
                            "Database backups are taken every night and kept for 30 days.",
                            "Backups",
                            Authority.SUPPORTING));

    private Judgement judge(String answer) {
        return judge.judge(JudgeInput.of("question", answer, EVIDENCE));
    }

    @Test
    void answerFullySupportedByItsCitationsIsGrounded() {
        Judgement j =
                judge(
                        "The API gateway enforces a limit of 100 requests per minute per client [1]."
                                + " Clients that exceed the limit receive status 429 [rate-limits]."
                                + " Backups are taken every night and kept for 30 days (source: backups).");

        assertThat(j.citationCoverage()).isEqualTo(1.0);
        assertThat(j.citationPrecision()).isEqualTo(1.0);
        assertThat(j.contradictionRate()).isEqualTo(0.0);
        assertThat(j.grounded()).isTrue();
        assertThat(j.claims())
                .extracting(ClaimVerdict::citations)
                .containsExactly(
                        List.of("rate-limits"), List.of("rate-limits"), List.of("backups"));
        assertThat(j.claims()).allSatisfy(c -> assertThat(c.supported()).isTrue());
    }

    @Test
    void flippedNumberIsAContradictionAndNotSupport() {
        Judgement j = judge("The gateway enforces a request limit of 500 requests per minute [1].");

        ClaimVerdict claim = j.claims().getFirst();
        assertThat(claim.contradicted()).isTrue();
        assertThat(claim.supported()).isFalse();
        assertThat(claim.contradictedBy()).containsExactly("rate-limits");
        assertThat(claim.reasons()).anySatisfy(r -> assertThat(r).contains("number 500 vs 100"));
        assertThat(j.contradictionRate()).isEqualTo(1.0);
        assertThat(j.citationCoverage()).isEqualTo(0.0);
        assertThat(j.grounded()).isFalse();
    }

    @Test
    void theLimitIs500AgainstTheLimitIs100IsCaught() {
        Judgement j =
                judge.judge(
                        JudgeInput.of(
                                "what is the limit?",
                                "The limit is 500 [1].",
                                List.of(Evidence.of("e", "The limit is 100."))));

        assertThat(j.claims().getFirst().contradicted()).isTrue();
        assertThat(j.contradictionRate()).isEqualTo(1.0);
    }

    @Test
    void negatedClaimAgainstAffirmativeEvidenceIsAContradiction() {
        Judgement j = judge("Mutual TLS is not enabled for internal services [2].");

        assertThat(j.claims().getFirst().contradicted()).isTrue();
        assertThat(j.claims().getFirst().reasons())
                .anySatisfy(r -> assertThat(r).contains("negation mismatch"));
    }

    @Test
    void affirmativeClaimAgainstNegatedEvidenceIsAContradiction() {
        Judgement j =
                judge.judge(
                        JudgeInput.of(
                                "q",
                                "Guest users can export reports [1].",
                                List.of(Evidence.of("e", "Guest users cannot export reports."))));

        assertThat(j.claims().getFirst().contradicted()).isTrue();
    }

    @Test
    void antonymsAreContradictions() {
        Judgement j = judge("Mutual TLS is disabled for all internal services [2].");

        assertThat(j.claims().getFirst().contradicted()).isTrue();
        assertThat(j.claims().getFirst().reasons())
                .anySatisfy(r -> assertThat(r).contains("antonyms enable/disable"));
    }

    @Test
    void aDifferentActionOnTheSameObjectIsNotSupport() {
        List<Evidence> e =
                List.of(
                        Evidence.of(
                                "nginx",
                                "Reload nginx on the edge hosts after you change its configuration."));
        Judgement restart =
                judge.judge(JudgeInput.of("q", "Restart nginx on the edge hosts [1].", e));
        ClaimVerdict claim = restart.claims().getFirst();
        assertThat(claim.supported()).isFalse();
        assertThat(claim.contradicted()).isFalse(); // unsupported, not contradicted
        assertThat(claim.reasons())
                .anySatisfy(r -> assertThat(r).contains("a different action: restart vs reload"));
        assertThat(restart.citationCoverage()).isZero();

        Judgement reload =
                judge.judge(JudgeInput.of("q", "Reload nginx on the edge hosts [1].", e));
        assertThat(reload.claims().getFirst().supported()).isTrue();
        assertThat(reload.citationCoverage()).isEqualTo(1.0);
    }

    @Test
    void aStepListSaysRestartSoALongerClaimSayingReloadIsNotSupported() {
        List<Evidence> steps =
                List.of(
                        Evidence.of(
                                "billing-cert-rotation#1",
                                "1. Issue a new certificate from the internal CA: `certctl issue"
                                        + " billing-api --days 90`.\n2. Store it in the vault under"
                                        + " `tls/billing-api`.\n3. Restart billing-api one pod at a"
                                        + " time; each pod reads the vault when it starts."));
        String answer =
                "Run certctl issue billing-api --days 90, store the certificate in the vault under"
                        + " tls/billing-api, then %s billing-api one pod at a time [1].";
        Judgement restart = judge.judge(JudgeInput.of("q", answer.formatted("restart"), steps));
        assertThat(restart.citationCoverage()).isEqualTo(1.0);

        Judgement reload = judge.judge(JudgeInput.of("q", answer.formatted("reload"), steps));
        assertThat(reload.citationCoverage()).isZero();
        assertThat(reload.claims().getFirst().reasons())
                .anySatisfy(r -> assertThat(r).contains("a different action: reload vs restart"));
    }

    @Test
    void aClaimNamingSeveralStepsIsSupportedByASentenceNamingOne() {
        assertThat(
                        Comparison.actionConflict(
                                stems("drain the node and restart it"), stems("restart the node")))
                .isEmpty();
        assertThat(Comparison.actionConflict(stems("restart the node"), stems("drain the node")))
                .isEqualTo("restart vs drain");
        assertThat(Comparison.actionConflict(stems("restarting pods"), stems("restarts pods")))
                .isEmpty();
    }

    private static java.util.Set<String> stems(String text) {
        return Statement.of(text).stems();
    }

    @Test
    void negatedAntonymIsNotAContradiction() {
        Judgement j = judge("Mutual TLS is not disabled for internal services [2].");

        assertThat(j.claims().getFirst().contradicted()).isFalse();
    }

    @Test
    void antonymPairsFromTheListAreCaught() {
        List<Evidence> e =
                List.of(Evidence.of("e", "Caching increases latency for write requests."));
        Judgement j =
                judge.judge(
                        JudgeInput.of("q", "Caching decreases latency for write requests [1].", e));

        assertThat(j.claims().getFirst().contradicted()).isTrue();
    }

    @Test
    void versionMismatchIsAContradiction() {
        Judgement j =
                judge(
                        "Mutual TLS is enabled for internal services since version 2.5 of the mesh [2].");

        ClaimVerdict claim = j.claims().getFirst();
        assertThat(claim.contradicted()).isTrue();
        assertThat(claim.supported()).isFalse();
        assertThat(claim.reasons()).anySatisfy(r -> assertThat(r).contains("version"));
    }

    @Test
    void matchingVersionWrittenDifferentlySupports() {
        Judgement j =
                judge(
                        "Mutual TLS is enabled for all internal services since v2.4.0 of the mesh [2].");

        assertThat(j.claims().getFirst().supported()).isTrue();
        assertThat(j.claims().getFirst().contradicted()).isFalse();
    }

    @Test
    void uncitedClaimsAreNotCoveredButUncitedEvidenceStillContradicts() {
        Judgement j =
                judge(
                        "Backups are taken every night and kept for 30 days [3]."
                                + " Clients that exceed the limit receive HTTP status 503.");

        assertThat(j.citationCoverage()).isEqualTo(0.5);
        assertThat(j.claims().get(1).citations()).isEmpty();
        assertThat(j.claims().get(1).contradictedBy()).containsExactly("rate-limits");
        assertThat(j.contradictionRate()).isEqualTo(0.5);
    }

    @Test
    void citationOfUnrelatedEvidenceLowersPrecision() {
        Judgement j = judge("Backups are taken every night and kept for 30 days [1, 3].");

        assertThat(j.citationCoverage()).isEqualTo(1.0);
        assertThat(j.citationPrecision()).isEqualTo(0.5);
        assertThat(j.claims().getFirst().supportedBy()).containsExactly("backups");
    }

    @Test
    void unresolvedCitationsCountAgainstPrecision() {
        Judgement j = judge("Backups are taken every night and kept for 30 days [3] [9].");

        assertThat(j.citationPrecision()).isEqualTo(0.5);
        assertThat(j.claims().getFirst().reasons()).contains("citation [9] names no evidence");
    }

    @Test
    void contradictsRelationBetweenEvidenceContradictsClaimsSupportedByOneEnd() {
        List<Evidence> e =
                List.of(
                        Evidence.of("new", "Reindexing runs on the search cluster every Sunday."),
                        Evidence.of("old", "Reindexing was done by hand."));
        JudgeInput input =
                JudgeInput.of("q", "Reindexing runs on the search cluster every Sunday [1].", e)
                        .withContradicts(List.of(new ContradictsRelation("old", "new")));

        ClaimVerdict claim = judge.judge(input).claims().getFirst();

        assertThat(claim.supported()).isTrue();
        assertThat(claim.contradictedBy()).containsExactly("old");
    }

    @Test
    void contradictsRelationBetweenEntitiesContradictsEvidenceAboutTheOtherEntity() {
        List<Evidence> e =
                List.of(
                        Evidence.of("a", "Use the legacy-indexer for reindexing."),
                        Evidence.of("b", "The search-reindex job replaces manual steps."));
        JudgeInput input =
                JudgeInput.of("q", "Reindex with the legacy-indexer tool [1].", e)
                        .withContradicts(
                                List.of(
                                        new ContradictsRelation(
                                                "search-reindex", "legacy-indexer")));

        assertThat(judge.judge(input).claims().getFirst().contradictedBy()).containsExactly("b");
    }

    @Test
    void answerWithoutClaimsIsVacuouslyCovered() {
        Judgement j = judge("I could not find this in the documentation.");

        assertThat(j.claims()).isEmpty();
        assertThat(j.citationCoverage()).isEqualTo(1.0);
        assertThat(j.contradictionRate()).isEqualTo(0.0);
    }

    @Test
    void answerOverTheSizeLimitIsRejectedWithTheLimit() {
        Judge small =
                Judge.create(
                        JudgeConfig.defaults().withMaxAnswerBytes(10),
                        SimilarityFunction.lexical(),
                        PolicyRegistry.builtIn(),
                        SecretDetector.none());

        assertThatThrownBy(() -> small.judge(JudgeInput.of("q", "ééééééé", EVIDENCE)))
                .isInstanceOf(PayloadTooLargeException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("answer too large: 14 bytes, must be <= 10")
                .extracting(t -> ((PayloadTooLargeException) t).limit())
                .isEqualTo(10L);
    }

    @Test
    void configRejectsOutOfRangeValuesNamingTheRange() {
        assertThatThrownBy(() -> JudgeConfig.defaults().withSupportThreshold(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal supportThreshold: 0.0, must be in (0, 1]");
    }

    @Test
    void duplicateEvidenceIdsAreRejected() {
        assertThatThrownBy(
                        () ->
                                JudgeInput.of(
                                        "q",
                                        "a",
                                        List.of(Evidence.of("x", "a"), Evidence.of("x", "b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duplicate id 'x'");
    }

    @Test
    void numberAfterAnAllCapsNameConflictsOnlyWithTheSameName() {
        List<Evidence> e =
                List.of(
                        Evidence.of(
                                "e",
                                "Clients over the limit get HTTP 429 from the gateway, 12 times in 9052 calls."));

        Judgement other =
                judge.judge(
                        JudgeInput.of(
                                "q",
                                "Clients over the limit get HTTP 503 from the gateway [1].",
                                e));
        Judgement name =
                judge.judge(
                        JudgeInput.of(
                                "q", "Clients of the BRCA 1 gateway get limited calls [1].", e));

        assertThat(other.claims().getFirst().reasons())
                .anySatisfy(r -> assertThat(r).contains("number HTTP 503 vs HTTP 429"));
        assertThat(name.claims().getFirst().contradicted()).isFalse();
    }

    @Test
    void dateMismatchIsAContradictionAndAMoreOrLessPreciseDateIsNot() {
        List<Evidence> e =
                List.of(Evidence.of("m", "The migration finished on 2024-03-05 in all regions."));

        Judgement wrong =
                judge.judge(
                        JudgeInput.of(
                                "q",
                                "The migration finished on 2024-04-05 in all regions [1].",
                                e));
        Judgement coarse =
                judge.judge(
                        JudgeInput.of(
                                "q",
                                "The migration finished in March 2024 in all regions [1].",
                                e));

        assertThat(wrong.claims().getFirst().reasons())
                .anySatisfy(r -> assertThat(r).contains("date 2024-04-05 vs 2024-03-05"));
        assertThat(coarse.claims().getFirst().supported()).isTrue();
        assertThat(coarse.claims().getFirst().contradicted()).isFalse();
    }

    @Test
    void claimWithANumberTheEvidenceNeverStatesIsNotSupported() {
        List<Evidence> e = List.of(Evidence.of("b", "Database backups are kept for a month."));

        ClaimVerdict claim =
                judge.judge(JudgeInput.of("q", "Database backups are kept for 45 days [1].", e))
                        .claims()
                        .getFirst();

        assertThat(claim.supported()).isFalse();
        assertThat(claim.reasons()).contains("[b] does not support: number 45 not in evidence");
    }

    @Test
    void emptyAnswerAndEmptyEvidenceAreJudgedWithoutError() {
        Judgement empty = judge.judge(JudgeInput.of("q", "", List.of()));
        Judgement blankEvidence =
                judge.judge(
                        JudgeInput.of("q", "Backups are kept [1].", List.of(Evidence.of("x", ""))));

        assertThat(empty.claims()).isEmpty();
        assertThat(empty.citationCoverage()).isEqualTo(1.0);
        assertThat(blankEvidence.claims().getFirst().reasons())
                .contains("[x] does not support: evidence has no text");
    }

    @Test
    void planAndAuthorityParseTheirApiSpellings() {
        assertThat(RetrievalPlan.parse("defer")).isEqualTo(RetrievalPlan.DEFER);
        assertThat(Authority.parse(" Authoritative ")).isEqualTo(Authority.AUTHORITATIVE);
        assertThatThrownBy(() -> RetrievalPlan.parse("later"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "illegal plan: 'later', must be one of [direct, scoped, defer, unknown]");
    }
}
