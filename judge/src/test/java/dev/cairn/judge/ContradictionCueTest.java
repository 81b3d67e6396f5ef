package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contradiction cues beyond numbers and antonym pairs: direction of effect, effects stated
 * against denied, negation scope, quantifiers, alignment with the best evidence sentence and the
 * contradict verdict's own threshold. Each cue is shown catching its case and, switched off, not
 * catching it.
 */
class ContradictionCueTest {

    private final Judge judge = Judge.lexical(SecretDetector.none());

    private ClaimVerdict verdict(JudgeConfig config, String claim, String... evidence) {
        List<Evidence> items = new java.util.ArrayList<>();
        for (int i = 0; i < evidence.length; i++) {
            items.add(Evidence.of("e" + (i + 1), evidence[i]));
        }
        Judge j =
                Judge.create(
                        config,
                        SimilarityFunction.lexical(),
                        PolicyRegistry.builtIn(),
                        SecretDetector.none());
        return j.judge(JudgeInput.of("q", claim + " [1].", items)).claims().getFirst();
    }

    private ClaimVerdict verdict(String claim, String... evidence) {
        return verdict(JudgeConfig.defaults(), claim, evidence);
    }

    private static JudgeConfig without(ContradictionCue cue) {
        EnumSet<ContradictionCue> cues = EnumSet.allOf(ContradictionCue.class);
        cues.remove(cue);
        return JudgeConfig.defaults().withCues(cues);
    }

    @Test
    void oppositeDirectionsOfEffectContradictBeyondTheAntonymList() {
        String claim = "Nightly batch compaction attenuates read latency on the archive cluster";
        String evidence = "Nightly batch compaction amplified read latency on the archive cluster.";

        ClaimVerdict v = verdict(claim, evidence);
        assertThat(v.contradicted()).isTrue();
        assertThat(v.supported()).isFalse();
        assertThat(v.reasons())
                .anySatisfy(
                        r ->
                                assertThat(r)
                                        .contains(
                                                "opposite directions of effect 'attenuates' vs"
                                                        + " 'amplified'"));

        ClaimVerdict off = verdict(without(ContradictionCue.DIRECTION), claim, evidence);
        assertThat(off.contradicted()).isFalse();
    }

    @Test
    void theSameDirectionInOtherWordsIsSupport() {
        ClaimVerdict v =
                verdict(
                        "Nightly batch compaction reduces read latency on the archive cluster",
                        "Nightly batch compaction lowered read latency on the archive cluster.");

        assertThat(v.contradicted()).isFalse();
        assertThat(v.supported()).isTrue();
    }

    @Test
    void comparisonsInOppositeDirectionsContradict() {
        ClaimVerdict v =
                verdict(
                        "Teams that pair program ship more defects than teams that work alone",
                        "Teams that pair program ship fewer defects than teams that work alone.");

        assertThat(v.contradicted()).isTrue();
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r).contains("'more' vs 'fewer'"));
    }

    @Test
    void deniedDecreaseDoesNotContradictAnIncrease() {
        ClaimVerdict v =
                verdict(
                        "Connection pooling does not decrease throughput of the billing service",
                        "Connection pooling increased throughput of the billing service.");

        assertThat(v.contradicted()).isFalse();
    }

    @Test
    void anEffectStatedAgainstOneDeniedIsAContradiction() {
        String claim = "Swap usage raises garbage collection pauses in the search nodes";
        String evidence =
                "Garbage collection pauses in the search nodes were unaffected by swap usage.";

        ClaimVerdict v = verdict(claim, evidence);
        assertThat(v.contradicted()).isTrue();
        assertThat(v.reasons())
                .anySatisfy(
                        r ->
                                assertThat(r)
                                        .contains(
                                                "effect stated vs denied: 'raises' vs"
                                                        + " 'unaffected'"));

        assertThat(verdict(without(ContradictionCue.EFFECT_DENIAL), claim, evidence).contradicted())
                .isFalse();
    }

    @Test
    void associatedAgainstNoAssociationIsAContradiction() {
        ClaimVerdict v =
                verdict(
                        "Shift work is linked to sleep debt among hospital nurses",
                        "Among hospital nurses we found no significant correlation of shift work"
                                + " with sleep debt.");

        assertThat(v.contradicted()).isTrue();
        assertThat(v.supported()).isFalse();
    }

    @Test
    void aNegationInAnotherClauseDoesNotFlipTheSentence() {
        ClaimVerdict v =
                verdict(
                        "The new vaccine prevents infection in young children",
                        "The new vaccine prevents infection in young children, although it does"
                                + " not prevent transmission.");

        assertThat(v.contradicted()).isFalse();
        assertThat(v.supported()).isTrue();
    }

    @Test
    void aNegationInTheAlignedClauseStillCounts() {
        ClaimVerdict v =
                verdict(
                        "The new vaccine prevents infection in young children",
                        "Although it was well tolerated, the new vaccine did not prevent infection"
                                + " in young children.");

        assertThat(v.contradicted()).isTrue();
    }

    @Test
    void notOnlyAffirms() {
        ClaimVerdict v =
                verdict(
                        "The retry budget protects the payment gateway during outages",
                        "The retry budget not only protects the payment gateway during outages but"
                                + " also shortens recovery.");

        assertThat(v.contradicted()).isFalse();
        assertThat(v.supported()).isTrue();
    }

    @Test
    void allAgainstSomeIsAContradictionButSomeAgainstAllIsNot() {
        String evidence = "Some tenants on the shared cluster saw throttling during the migration.";
        ClaimVerdict all =
                verdict(
                        "All tenants on the shared cluster saw throttling during the migration",
                        evidence);
        assertThat(all.contradicted()).isTrue();
        assertThat(all.reasons())
                .anySatisfy(r -> assertThat(r).contains("quantifiers 'all' vs 'some'"));
        assertThat(
                        verdict(
                                        without(ContradictionCue.QUANTIFIER),
                                        "All tenants on the shared cluster saw throttling during"
                                                + " the migration",
                                        evidence)
                                .contradicted())
                .isFalse();

        ClaimVerdict some =
                verdict(
                        "Some tenants on the shared cluster saw throttling during the migration",
                        "All tenants on the shared cluster saw throttling during the migration.");
        assertThat(some.contradicted()).isFalse();
        assertThat(some.supported()).isTrue();
    }

    @Test
    void mostAgainstFewIsAContradiction() {
        ClaimVerdict v =
                verdict(
                        "Most incidents last quarter were caused by configuration drift",
                        "Few incidents last quarter were caused by configuration drift.");

        assertThat(v.contradicted()).isTrue();
    }

    @Test
    void superiorAgainstInferiorIsAContradiction() {
        ClaimVerdict v =
                verdict(
                        "The columnar format is superior to row storage for analytical scans",
                        "The columnar format was inferior to row storage for analytical scans.");

        assertThat(v.contradicted()).isTrue();
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r).contains("superior/inferior"));
    }

    @Test
    void onlyTheBestAlignedSentencesMayContradictUnderAnAlignmentMargin() {
        String claim = "Enabling compression reduces disk usage of the metrics store";
        String[] evidence = {
            "Enabling compression reduces disk usage of the metrics store by half.",
            "Disk usage increased when compression was enabled on the logs store."
        };
        // the second sentence shares enough of the claim to pass the thresholds, but it is about
        // another store; the first one is the claim's best alignment
        ClaimVerdict anySentence = verdict(JudgeConfig.defaults(), claim, evidence);
        ClaimVerdict aligned =
                verdict(JudgeConfig.defaults().withAlignmentMargin(0.1), claim, evidence);

        assertThat(aligned.contradicted()).isFalse();
        assertThat(aligned.supported()).isTrue();
        assertThat(anySentence.contradicted()).isTrue();
    }

    @Test
    void theContradictVerdictHasItsOwnThreshold() {
        String claim = "Canary deployments increase the error budget burn of the checkout team";
        String evidence = "Canary deployments reduced error budget burn.";
        ClaimVerdict lenient =
                verdict(JudgeConfig.defaults().withContradictionThreshold(0.2), claim, evidence);
        ClaimVerdict strict =
                verdict(JudgeConfig.defaults().withContradictionThreshold(0.9), claim, evidence);

        assertThat(lenient.contradicted()).isTrue();
        assertThat(strict.contradicted()).isFalse();
    }
}
