package dev.cairn.judge;

/**
 * Decides whether an agent's answer is grounded in its evidence: citation coverage and precision,
 * contradiction rate and policy compliance (formulas in the package documentation). Implementations
 * are thread-safe when their similarity function and secret detector are.
 */
public interface Judge {

    /**
     * Judges one answer.
     *
     * @throws PayloadTooLargeException when the answer exceeds {@link JudgeConfig#maxAnswerBytes()}
     * @throws IllegalArgumentException when the input names a policy the registry does not know
     */
    Judgement judge(JudgeInput input);

    /** A judge with the given thresholds, similarity, policies and secret detector. */
    static Judge create(
            JudgeConfig config,
            SimilarityFunction similarity,
            PolicyRegistry policies,
            SecretDetector secrets) {
        return new DefaultJudge(config, similarity, policies, secrets);
    }

    /**
     * A judge with default thresholds, {@link SimilarityFunction#lexical() lexical similarity}, the
     * {@link PolicyRegistry#builtIn() built-in policies} and the given secret detector.
     */
    static Judge lexical(SecretDetector secrets) {
        return create(
                JudgeConfig.defaults(),
                SimilarityFunction.lexical(),
                PolicyRegistry.builtIn(),
                secrets);
    }
}
