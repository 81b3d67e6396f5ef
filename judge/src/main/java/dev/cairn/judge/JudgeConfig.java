package dev.cairn.judge;

import java.util.EnumSet;
import java.util.Set;

/**
 * Thresholds of the {@link Judge}. Immutable; change one setting with the {@code with...} methods.
 * How the defaults were chosen is in the package documentation.
 *
 * <p>Immutable and thread-safe.
 *
 * @param supportThreshold a cited evidence item supports a claim when its support score {@code
 *     similarityWeight * similarity + (1 - similarityWeight) * overlap} reaches this, in (0, 1]
 * @param similarityWeight weight of the {@link SimilarityFunction} in the support score, the rest
 *     goes to content-word overlap, in [0, 1]
 * @param contextThreshold least content-word overlap (share of the claim's content words found in
 *     an evidence sentence) for a negation, number or antonym mismatch to count as a contradiction,
 *     in (0, 1]
 * @param groundedCoverage least citation coverage for an answer to be grounded, in [0, 1]
 * @param maxAnswerBytes largest answer accepted, in UTF-8 bytes, {@code >= 1}
 * @param contradictionThreshold least support score of an evidence sentence for a cue in it to
 *     count as a contradiction: the contradict verdict's own threshold, in (0, 1]
 * @param alignmentMargin a cue counts only in a sentence whose support score is within this of the
 *     claim's best-aligned sentence among all the evidence, in [0, 1] (1: any sentence)
 * @param cues the contradiction cues in use (all by default)
 */
public record JudgeConfig(
        double supportThreshold,
        double similarityWeight,
        double contextThreshold,
        double groundedCoverage,
        int maxAnswerBytes,
        double contradictionThreshold,
        double alignmentMargin,
        Set<ContradictionCue> cues) {

    /**
     * Default support threshold, calibrated with the lexical similarity on SciFact's training
     * claims (see the package documentation); re-calibrate for an embedding similarity.
     */
    public static final double DEFAULT_SUPPORT_THRESHOLD = 0.25;

    /** Default weight of similarity against content-word overlap: an even mix. */
    public static final double DEFAULT_SIMILARITY_WEIGHT = 0.5;

    /**
     * Default context threshold: at least 60% of the claim's content words must appear in the
     * evidence sentence before a differing number or polarity is read as a contradiction rather
     * than as a statement about something else.
     */
    public static final double DEFAULT_CONTEXT_THRESHOLD = 0.4;

    /** Default coverage needed to be grounded: 80% of claims carry a supporting citation. */
    public static final double DEFAULT_GROUNDED_COVERAGE = 0.8;

    /** Default answer size limit: 64 KiB of UTF-8. */
    public static final int DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

    public JudgeConfig {
        if (!(supportThreshold > 0.0 && supportThreshold <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal supportThreshold: " + supportThreshold + ", must be in (0, 1]");
        }
        if (!(similarityWeight >= 0.0 && similarityWeight <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal similarityWeight: " + similarityWeight + ", must be in [0, 1]");
        }
        if (!(contextThreshold > 0.0 && contextThreshold <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal contextThreshold: " + contextThreshold + ", must be in (0, 1]");
        }
        if (!(groundedCoverage >= 0.0 && groundedCoverage <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal groundedCoverage: " + groundedCoverage + ", must be in [0, 1]");
        }
        if (!(contradictionThreshold > 0.0 && contradictionThreshold <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal contradictionThreshold: "
                            + contradictionThreshold
                            + ", must be in (0, 1]");
        }
        if (!(alignmentMargin >= 0.0 && alignmentMargin <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal alignmentMargin: " + alignmentMargin + ", must be in [0, 1]");
        }
        java.util.Objects.requireNonNull(cues, "cues");
        cues =
                cues.isEmpty()
                        ? Set.of()
                        : java.util.Collections.unmodifiableSet(EnumSet.copyOf(cues));
        if (maxAnswerBytes < 1) {
            throw new IllegalArgumentException(
                    "illegal maxAnswerBytes: " + maxAnswerBytes + ", must be >= 1");
        }
    }

    /** Default contradiction threshold: the support threshold's, for the lexical similarity. */
    public static final double DEFAULT_CONTRADICTION_THRESHOLD = DEFAULT_SUPPORT_THRESHOLD;

    /** Default alignment margin: 1, any sentence that passes the thresholds may contradict. */
    public static final double DEFAULT_ALIGNMENT_MARGIN = 1.0;

    /** The documented defaults. */
    public static JudgeConfig defaults() {
        return new JudgeConfig(
                DEFAULT_SUPPORT_THRESHOLD,
                DEFAULT_SIMILARITY_WEIGHT,
                DEFAULT_CONTEXT_THRESHOLD,
                DEFAULT_GROUNDED_COVERAGE,
                DEFAULT_MAX_ANSWER_BYTES,
                DEFAULT_CONTRADICTION_THRESHOLD,
                DEFAULT_ALIGNMENT_MARGIN,
                ContradictionCue.ALL);
    }

    public JudgeConfig withSupportThreshold(double value) {
        return new JudgeConfig(
                value,
                similarityWeight,
                contextThreshold,
                groundedCoverage,
                maxAnswerBytes,
                contradictionThreshold,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withSimilarityWeight(double value) {
        return new JudgeConfig(
                supportThreshold,
                value,
                contextThreshold,
                groundedCoverage,
                maxAnswerBytes,
                contradictionThreshold,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withContextThreshold(double value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                value,
                groundedCoverage,
                maxAnswerBytes,
                contradictionThreshold,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withGroundedCoverage(double value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                contextThreshold,
                value,
                maxAnswerBytes,
                contradictionThreshold,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withMaxAnswerBytes(int value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                contextThreshold,
                groundedCoverage,
                value,
                contradictionThreshold,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withContradictionThreshold(double value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                contextThreshold,
                groundedCoverage,
                maxAnswerBytes,
                value,
                alignmentMargin,
                cues);
    }

    public JudgeConfig withAlignmentMargin(double value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                contextThreshold,
                groundedCoverage,
                maxAnswerBytes,
                contradictionThreshold,
                value,
                cues);
    }

    public JudgeConfig withCues(Set<ContradictionCue> value) {
        return new JudgeConfig(
                supportThreshold,
                similarityWeight,
                contextThreshold,
                groundedCoverage,
                maxAnswerBytes,
                contradictionThreshold,
                alignmentMargin,
                value);
    }
}
