package dev.cairn.judge;

import java.util.List;

/**
 * Reads the {@link ClaimFeatures} a judge computes for each claim of an answer, for fitting a
 * {@link VerdictModel} outside this package (the SciFact evaluation).
 */
public final class ClaimFeatureProbe {

    private ClaimFeatureProbe() {}

    /**
     * The features of each claim of {@code input}, as {@code config} and {@code similarity} see it.
     */
    public static List<double[]> features(
            JudgeConfig config, SimilarityFunction similarity, JudgeInput input) {
        return new DefaultJudge(config, similarity, PolicyRegistry.builtIn(), SecretDetector.none())
                .claimFeatures(input);
    }
}
