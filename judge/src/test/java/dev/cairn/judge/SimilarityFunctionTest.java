package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimilarityFunctionTest {

    @Test
    void lexicalSimilarityIsOneForSameWordsAndZeroForDisjointOnes() {
        double[][] s =
                SimilarityFunction.lexical()
                        .similarities(
                                List.of("Backups are kept for thirty days."),
                                List.of(
                                        "Thirty days: backups kept.",
                                        "The gateway enforces rate limits."));

        assertThat(s[0][0]).isCloseTo(1.0, within(1e-9));
        assertThat(s[0][1]).isEqualTo(0.0);
    }

    @Test
    void embeddingSimilarityIsTheCosineOfTheModelsVectors() {
        SimilarityFunction f = SimilarityFunction.embedding(new HashingEmbeddingModel());
        double[][] s =
                f.similarities(
                        List.of("Backups are kept for thirty days."),
                        List.of("Backups are kept for thirty days.", "Gateways enforce limits."));

        assertThat(f.name()).isEqualTo("embedding-hashing-256");
        assertThat(s[0][0]).isCloseTo(1.0, within(1e-6));
        assertThat(s[0][1]).isLessThan(0.5);
    }

    @Test
    void judgeWorksWithAnEmbeddingSimilarity() {
        Judge judge =
                Judge.create(
                        JudgeConfig.defaults(),
                        SimilarityFunction.embedding(new HashingEmbeddingModel()),
                        PolicyRegistry.builtIn(),
                        SecretDetector.none());

        Judgement j =
                judge.judge(
                        JudgeInput.of(
                                "q",
                                "Backups are kept for 30 days [1].",
                                List.of(
                                        Evidence.of(
                                                "b", "Database backups are kept for 30 days."))));

        assertThat(j.citationCoverage()).isEqualTo(1.0);
    }

    @Test
    void verdictsDoNotDependOnEvidenceOrderWhenCitedById() {
        List<Evidence> evidence =
                List.of(
                        Evidence.of("limits", "The request limit is 100 per minute."),
                        Evidence.of("tls", "Mutual TLS is enabled for internal services."),
                        Evidence.of("backups", "Backups are kept for 30 days."),
                        Evidence.of("deploys", "Deploys happen after the tests pass."));
        String answer =
                "The request limit is 500 per minute [limits]. Mutual TLS is enabled [tls]."
                        + " Backups are kept for 30 days [backups]. Deploys happen before the tests pass.";
        Judge judge = Judge.lexical(SecretDetector.none());
        Judgement reference = judge.judge(JudgeInput.of("q", answer, evidence));

        for (long seed = 1; seed <= 20; seed++) {
            List<Evidence> shuffled = new ArrayList<>(evidence);
            Collections.shuffle(shuffled, new Random(seed));
            Judgement j = judge.judge(JudgeInput.of("q", answer, shuffled));

            assertThat(j.claims())
                    .as("seed %d", seed)
                    .extracting(ClaimVerdict::supported, ClaimVerdict::contradicted)
                    .isEqualTo(
                            reference.claims().stream()
                                    .map(
                                            c ->
                                                    org.assertj.core.groups.Tuple.tuple(
                                                            c.supported(), c.contradicted()))
                                    .toList());
            assertThat(j.citationCoverage())
                    .as("seed %d", seed)
                    .isEqualTo(reference.citationCoverage());
        }
        assertThat(reference.claims())
                .extracting(ClaimVerdict::supported, ClaimVerdict::contradicted)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(false, true),
                        org.assertj.core.groups.Tuple.tuple(true, false),
                        org.assertj.core.groups.Tuple.tuple(true, false),
                        org.assertj.core.groups.Tuple.tuple(false, true));
    }

    @Test
    void blendIsTheWeightedMeanOfItsParts() {
        List<String> claims = List.of("Backups are kept for thirty days.");
        List<String> passages =
                List.of("Thirty days: backups kept.", "Gateways enforce rate limits.");
        SimilarityFunction lexical = SimilarityFunction.lexical();
        SimilarityFunction embedding = SimilarityFunction.embedding(new HashingEmbeddingModel());
        double[][] a = lexical.similarities(claims, passages);
        double[][] b = embedding.similarities(claims, passages);

        double[][] s =
                SimilarityFunction.blend(lexical, embedding, 0.3).similarities(claims, passages);

        for (int j = 0; j < passages.size(); j++) {
            assertThat(s[0][j]).isCloseTo(0.3 * a[0][j] + 0.7 * b[0][j], within(1e-9));
        }
        assertThat(SimilarityFunction.blend(lexical, embedding, 0.3).name())
                .contains("lexical-tfidf", "embedding-hashing-256");
    }

    @Test
    void blendRejectsAWeightOutsideZeroToOneNamingIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                SimilarityFunction.blend(
                                        SimilarityFunction.lexical(),
                                        SimilarityFunction.lexical(),
                                        1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1.5");
    }

    @Test
    void standardSecretDetectorFindsTokensByKindWithoutTheirValue() {
        String text = "use ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 to push";

        List<SecretDetector.Finding> found = SecretDetector.standard().detect(text);

        assertThat(found)
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.kind()).isEqualTo("github_token");
                            assertThat(text.substring(f.start(), f.end())).startsWith("ghp_");
                        });
        assertThat(SecretDetector.standard().detect("nothing secret here")).isEmpty();
    }
}
